import Foundation
import PostgresCluster
import Testing

/// The core of issue 14: each bundled dataset is exported by almanac into a file and into a
/// PostgreSQL table, each is loaded under the same name, and the same exploring script runs
/// against memory and against the database through the real binary. Every answer must be the
/// same: the rows, their order, their values, the counts, the groups with their aggregates,
/// the records of a group (`show #N` after `group`), `back`, `columns` and `describe`, and
/// what is said on standard error. (A table has a value or NULL in every column where a record may lack a key,
/// and jsonb keeps an object's keys in its own order: objects are compared as objects.)
@Suite("PostgreSQL: the same commands on memory and on a table give the same answers")
struct PostgresDifferentialTests {
    struct Script: Sendable, CustomTestStringConvertible {
        let dataset: String
        let commands: [String]
        /// Tells two scripts of one dataset apart (their tables and files).
        var label: String? = nil
        var testDescription: String { label ?? dataset }
    }

    static let scripts: [Script] = [
        Script(dataset: "countries", commands: [
            "count", "search island", "count", "page 2", "filter clear",
            "filter region = Europe and population > 1000000", "sort population desc", "page next", "show #3",
            "filter clear", "filter borders = FRA or currencies.code = EUR", "sort area desc", "page last",
            "filter clear", "filter not (region = Europe or population > 1000000)", "count",
            "filter clear", "filter name ~ land", "filter population <= 1000 or capital = \"\"", "sort name",
            "filter clear", "filter translations.de ~ insel", "sort capital desc", "show #2",
            "filter clear", "group region", "show Norway", "show nor",
            // Multi-key sort, group aggregates, drill-down, back, columns, describe.
            "filter clear", "sort region, population desc", "page 2",
            "group region sum population, avg area, min population, max area, distinct subregion", "show #2", "count", "back",
            "group subregion", "show #3", "sort population desc", "back", "back",
            "columns name, capital, population", "page", "columns +area", "back", "columns reset",
            "describe population, area, region",
        ]),
        Script(dataset: "species", commands: [
            "filter average_height > 180", "sort average_lifespan desc", "page", "show #1",
            "filter clear", "filter eye_colors ~ blue and not classification = mammal", "sort name desc",
            "filter clear", "sort average_height", "page last",
            "filter clear", "group classification avg average_height, max average_lifespan", "show #1",
            "sort average_height desc, name", "back", "back", "describe average_height",
        ]),
        Script(dataset: "people", commands: [
            "search sky", "filter clear", "filter mass > 80 and gender = male", "sort height desc", "page next",
            "filter clear", "filter height < 100 or height = unknown", "sort mass", "show #4",
            "filter clear", "group gender, eye_color count mass, sum height", "show #2", "back",
        ]),
        Script(dataset: "planets", commands: [
            "filter population > 1000000000", "sort diameter desc", "filter clear",
            "filter terrain ~ mountains", "sort rotation_period", "show Tatooine",
            "filter clear", "group climate", "show #1", "columns name, population, diameter", "describe diameter, population",
        ]),
        // Expressions (issue 26): computed by the database, answered as memory answers them.
        Script(dataset: "countries", commands: [
            // A field renamed is that field under its name: listed, sorted, described, grouped, drilled, filtered, measured.
            "columns name, area as a, region as r", "sort a desc", "describe a, r", "group r sum a", "show #2", "back",
            "group r", "filter a > 1000000", "count", "histogram a", "back", "back", "columns reset",
            "filter region = Europe", "sort population / area desc", "columns name, population / area as density", "page",
            "filter density > 200", "count", "back", "sort density", "back", "back", "columns reset", "filter clear",
            "filter name =~ '^Un'", "filter clear", "filter count(borders) = 0", "count", "use d",
            // Groups before sorts (use d starts afresh; filter clear keeps them): sums of doubles
            // are added in the results' order.
            "group region avg(population / area) as density, max(length(name))", "show #2", "back", "sort length(name) desc", "page 3",
            "group round(log10(population)) as magnitude", "show #3", "count", "back",
            "describe population / area, length(name), upper(region)",
            "filter population / area > 1000 or gini * 2 > 100", "sort name / 2", "filter lenght(name) > 3",
        ], label: "countries_expressions"),
        Script(dataset: "people", commands: [
            "filter year(created) = 2014", "count", "group year(created) as year", "filter clear",
            "sort mass / (height / 100 * height / 100) desc", "page", "filter edited - created > 0.5", "count",
        ], label: "people_expressions"),
    ]

    /// Each bundled dataset's key, which its export to a table declares.
    static let keys = ["countries": "alpha3Code", "stations": "stationId", "species": "url", "people": "url", "planets": "url"]

    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    func run(_ lines: [String]) throws -> PipeResult {
        // --echo: every listing compared, a shaping command's too.
        try PipeRun.run(["--no-rc", "--echo", "--format", "json"], input: lines.joined(separator: "\n") + "\n",
                        environment: home.environment(), directory: home.root)
    }

    @Test("each bundled dataset: memory and PostgreSQL answer the same script alike", arguments: scripts)
    func sameAnswers(_ script: Script) throws {
        let table = "differential_\(script.label ?? script.dataset)"
        let url = try Database.url(table)
        let file = home.root + "/\(script.label ?? script.dataset).json"
        let exported = try run(["use \(script.dataset)", "export \(file)", "export \(url) --force"])
        #expect(exported.status == 0, "\(exported)")
        let setup = ["set pagesize 10", "use d"]
        // The file loaded with the key the table's export declares (unique), so both find a
        // record by it (show nor).
        let memory = try run(["load d from \(file)" + (Self.keys[script.dataset].map { " key \($0)" } ?? "")] + setup + script.commands)
        let database = try run(["load d from \(url)"] + setup + script.commands)
        #expect(exported.status == 0 && memory.status == database.status, "memory: \(memory)\ndatabase: \(database)")
        #expect(memory.stderr == database.stderr)
        let expected = try JSONDocuments.split(memory.stdout).map(Self.canonical)
        let answered = try JSONDocuments.split(database.stdout).map(Self.canonical)
        #expect(expected.count == answered.count && expected.count >= script.commands.count - 4, "\(expected.count) answers from memory, \(answered.count) from the database")
        for (index, (want, got)) in zip(expected, answered).enumerated() where want != got {
            Issue.record("answer \(index + 1) differs:\nmemory:   \(want.prefix(1500))\ndatabase: \(got.prefix(1500))")
        }
    }

    /// `fields` of the records loaded from `source`: each field's count of records with a value.
    func fieldCounts(_ source: String) throws -> [String: String] {
        try fieldListing(source).mapValues { $0["records"] ?? "" }
    }

    /// `fields` of the records loaded from `source`, by field: its row's cells by column.
    func fieldListing(_ source: String) throws -> [String: [String: String]] {
        let result = try PipeRun.run(["--no-rc", "--format", "csv", "-c", "load d from \(source)", "-c", "use d", "-c", "fields"],
                                     environment: home.environment(), directory: home.root)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        var rows: [String: [String: String]] = [:]
        for record in try RecordFormats.table(try RecordFormats.csv(result.stdout)).records { rows[record["field"] ?? "?"] = record }
        return rows
    }

    @Test("fields types a table's values as memory types the same values, the database's own type beside them",
          arguments: ["countries", "species", "people", "planets"])
    func fieldsTypeAlike(_ dataset: String) throws {
        let url = try Database.url("differential_\(dataset)_types")
        let file = home.root + "/\(dataset)_types.json"
        #expect(try run(["use \(dataset)", "export \(file)", "export \(url) --force"]).status == 0)
        let memory = try fieldListing(file)
        let database = try fieldListing(url)
        #expect(database.count >= 14, "\(database.keys.sorted())")
        for (field, row) in database {
            // A table's NULL is a missing key as much as JSON's null: `or null` is memory's alone.
            let expected = memory[field]?["type"]?.replacingOccurrences(of: " or null", with: "")
            #expect(row["type"] == expected, "\(dataset).\(field): memory \(expected ?? "-"), table \(row["type"] ?? "-") (stored \(row["stored"] ?? "-"))")
        }
        switch dataset {
        case "species":
            #expect(database["average_height"]?["type"] == "number (as text)" && database["average_height"]?["stored"] == "text")
            #expect(database["created"]?["type"] == "date" && database["people"]?["type"] == "list of text" && database["people"]?["stored"] == "text[]")
        case "countries":
            #expect(database["callingCodes"]?["type"] == "list of number (as text)" && database["latlng"]?["type"] == "list of number")
            #expect(database["currencies"]?["type"] == "list of object" && database["currencies"]?["stored"] == "jsonb")
            #expect(database["translations.de"]?["type"] == "text" && database["translations.de"]?["stored"] == "json")
        default: break
        }
    }

    @Test("fields counts the records with a value alike in memory and on a table: n/a, unknown, \"\" and null are none")
    func fieldsCountPresentValues() throws {
        let url = try Database.url("differential_species_fields")
        let file = home.root + "/species.json"
        #expect(try run(["use species", "export \(file)", "export \(url) --force"]).status == 0)
        let memory = try fieldCounts(file)
        let database = try fieldCounts(url)
        let species = ValueReadingTests.records("species")
        for key in ["average_lifespan", "average_height", "language", "classification", "hair_colors", "homeworld", "name"] {
            let present = String(species.filter { !ValueReadingTests.isAbsent($0[key]) }.count)
            #expect(memory[key] == present && database[key] == present, "\(key): \(present) species have one; memory \(memory[key] ?? "-"), table \(database[key] ?? "-")")
        }
    }

    @Test("fields counts a list as there when it has an element, in memory and in array and jsonb columns")
    func fieldsCountNonEmptyLists() throws {
        let url = try Database.url("differential_countries_fields")
        let file = home.root + "/countries.json"
        #expect(try run(["use countries", "export \(file)", "export \(url) --force"]).status == 0)
        let memory = try fieldCounts(file)
        let database = try fieldCounts(url)
        let countries = ValueReadingTests.records("countries")
        // text[] (borders: 84 islands have []), numeric[] (latlng), jsonb lists of objects (regionalBlocs).
        for key in ["borders", "altSpellings", "latlng", "regionalBlocs", "currencies"] {
            let present = String(countries.filter { !(($0[key] as? [Any])?.isEmpty ?? true) }.count)
            #expect(memory[key] == present && database[key] == present, "\(key): \(present) countries have one; memory \(memory[key] ?? "-"), table \(database[key] ?? "-")")
        }
    }

    @Test("group listings as people see them are the same, numbered for show #N, and the drill-down's count")
    func groupListingsAsPeopleSeeThem() throws {
        let url = try Database.url("differential_countries_people")
        let file = home.root + "/countries.json"
        #expect(try run(["use countries", "export \(file)", "export \(url) --force"]).status == 0)
        let script = ["use d", "group region sum population, max name", "show #3", "count", "back", "group subregion", "show #1", "count",
                      "filter clear", "filter population < 0", "group region", "filter region = Asia", "group region",
                      "search atlantis", "group region"]
        let people = { (source: String) throws -> PipeResult in
            // --echo: every listing, as at the prompt (a script's drill-down answers for its group).
            try PipeRun.run(["--no-rc", "--echo", "--format", "table"], input: (["load d from \(source)"] + script).joined(separator: "\n") + "\n",
                            environment: home.environment(), directory: self.home.root)
        }
        let memory = try people(file)
        let database = try people(url)
        #expect(memory.status == 0 && memory.stdout.contains("\n1  Africa"), "\(memory)")
        // Listings of records may differ where jsonb ordered an object's keys (translations); nothing else may.
        let lines = { (text: String) in text.split(separator: "\n").filter { !$0.contains("{") } }
        #expect(lines(memory.stdout) == lines(database.stdout))
        #expect(lines(database.stdout).contains("53"), "Europe, group #3, has 53 countries: \(database.stdout)")
        // A group of no records says what left none (every population in countries.json is 0 or more).
        let undo = " ('back' undoes the last step)\n"
        #expect(database.stdout.contains("\nno records to group — the filter population < 0 leaves none of 250 records" + undo)
                && database.stdout.contains("no records to group — the filters population < 0 and region = Asia leave none of 250 records" + undo)
                && database.stdout.contains("no records to group — the last search, near, within, outside, reach or limit left none of 250 records" + undo),
                "\(database.stdout)")
    }

    @Test("nested objects group, describe and sort by their name, alike in memory and in jsonb columns")
    func nestedObjectsAlike() throws {
        let url = try Database.url("differential_github_issues")
        let generated = Process()
        generated.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        generated.arguments = ["python3", OwnDataTests.fixtures + "/github_issues.py", "200"]
        let output = Pipe()
        generated.standardOutput = output
        try generated.run()
        let file = try home.write(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), to: "issues.json")
        generated.waitUntilExit()
        #expect(try run(["load gh from \(file)", "use gh", "export \(url) --force"]).status == 0)
        let script = ["set pagesize 10", "use d", "group milestone", "group assignee count comments, sum comments", "show #2", "count", "back",
                      "group labels", "group user, state", "describe milestone, assignee, user", "show 1000013",
                      "columns title, user, labels", "page",
                      // A filter compares an object by its name too: a milestone by its title, not its due date.
                      "filter milestone = v2.0", "count", "filter clear", "filter user = octocat", "page", "filter clear",
                      "filter milestone = 2024-06-30", "filter clear", "filter user = 5000", "filter clear", "filter labels = d73a4a",
                      "filter clear", "filter milestone.due_on ~ 2024-06", "count", "filter clear",
                      "filter labels = bug and milestone != v1.0", "count",
                      // A sort orders objects by their names too (a milestone by its title, a user by login).
                      "filter clear", "set pagesize 250", "columns number", "sort milestone", "page", "sort milestone desc", "page",
                      "sort user desc, number", "page", "sort assignee", "page"]
        let memory = try run(["load d from \(file)"] + script)
        // Nine statements over jsonb: 0.3 s with JIT off (almanac's sessions), 115 s with it on a busy machine.
        let database = try PipeRun.run(["--no-rc", "--echo", "--format", "json"], input: (["load d from \(url)"] + script).joined(separator: "\n") + "\n",
                                       environment: home.environment(), directory: home.root)
        #expect(memory.status == 0 && database.status == 0 && memory.stderr == database.stderr, "memory: \(memory)\ndatabase: \(database)")
        // A table's column is typed by the catalog (jsonb reads `json`), a file's field by its values.
        let untyped = { (text: String) in text.replacingOccurrences(of: #""type":"(object or null|object|json)""#, with: "", options: .regularExpression) }
        let expected = try JSONDocuments.split(memory.stdout).map(Self.canonical).map(untyped)
        let answered = try JSONDocuments.split(database.stdout).map(Self.canonical).map(untyped)
        #expect(expected.count == answered.count && expected.count >= 7, "\(expected.count) answers from memory, \(answered.count) from the database")
        for (index, (want, got)) in zip(expected, answered).enumerated() where want != got {
            Issue.record("answer \(index + 1) differs:\nmemory:   \(want.prefix(1500))\ndatabase: \(got.prefix(1500))")
        }
    }

    /// Words for no value and nulls in a text column (`word`), a text[] column (`tags`) and a
    /// jsonb column of numbers and words (`mixed`), as a file and as the table it is exported to.
    static let noValueRecords = """
        [{"name": "r1", "word": "apple", "tags": ["n/a", "kiwi"], "mixed": 5},
         {"name": "r2", "word": "", "tags": ["unknown"], "mixed": "n/a"},
         {"name": "r3", "word": "n/a", "tags": [], "mixed": "pear"},
         {"name": "r4", "word": "Unknown", "tags": ["none", "Zed"], "mixed": null},
         {"name": "r5", "word": "none", "mixed": "unknown"},
         {"name": "r6", "word": "(none)", "tags": ["(none)"], "mixed": ""},
         {"name": "r7", "word": null, "tags": null, "mixed": 12},
         {"name": "r8", "mixed": "None"},
         {"name": "r9", "word": "zebra", "tags": ["apple"]},
         {"name": "r10", "word": " None ", "tags": [null]},
         {"name": "r11", "word": "nonesuch"}]
        """

    /// Each filter with the records it keeps, worked out by hand: `<`, `<=`, `>`, `>=` never
    /// match no value (`""`, `n/a`, `unknown`, `none`, `(none)`, null); `=`, `~` read the
    /// words as words and `!=`, `not` keep the records with no value.
    static let noValueFilters: [(command: String, names: [String])] = [
        ("filter word > m", ["r9", "r11"]),
        ("filter word < b", ["r1"]),
        ("filter word >= \"\"", ["r1", "r9", "r11"]),
        ("filter word <= zebra", ["r1", "r9", "r11"]),
        ("filter tags > j", ["r1", "r4"]),
        ("filter tags < o", ["r1", "r9"]),
        ("filter mixed > m", ["r3"]),
        ("filter mixed < b", ["r1", "r7"]),
        ("filter mixed >= 6", ["r7"]),
        ("filter word = unknown", ["r4"]),
        ("filter mixed = \"\"", ["r6"]),
        ("filter word != apple", ["r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11"]),
        ("filter not word > m", ["r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r10"]),
    ]

    @Test("no value orders against nothing, alike in memory and on a table: \"\", n/a, unknown, none and null")
    func noValueOrdersAgainstNothing() throws {
        let file = try home.write(Self.noValueRecords, to: "no_value.json")
        try sameRows(file: file, table: try exportedTable(file, as: "differential_no_value"), Self.noValueFilters)
    }

    /// Dates with and without a time and an offset, a word for none and a null: in a text
    /// column of the table. Their instants, worked out by hand: r1 00:00:00Z, r7 00:00:00.5Z,
    /// r4 01:59:59Z, r8 12:00Z, r3 18:30Z, r2 23:30Z, all on 2024-01-01.
    static let dateRecords = """
        [{"name": "r1", "when": "2024-01-01"},
         {"name": "r2", "when": "2024-01-01T23:30:00Z"},
         {"name": "r3", "when": "2024-01-01T23:30:00+05:00"},
         {"name": "r4", "when": "2023-12-31T23:59:59-02:00"},
         {"name": "r5", "when": "unknown"},
         {"name": "r6", "when": null},
         {"name": "r7", "when": "2024-01-01T00:00:00.500Z"},
         {"name": "r8", "when": "2024-01-01 12:00"}]
        """

    /// Filters against a date and sorts of the dates compare instants (as `when - 2024-01-01`
    /// computes them), absent values last; `=` and `!=` compare the text as written.
    static let dateChecks: [(command: String, names: [String])] = [
        ("filter when < 2024-01-01", []),
        ("filter when > 2024-01-01T01:00:00Z", ["r2", "r3", "r4", "r8"]),
        ("filter when <= 2024-01-01T01:59:59Z", ["r1", "r4", "r7"]),
        ("filter when >= 2024-01-01T18:30:00Z", ["r2", "r3"]),
        ("filter when < 2024-01-01T12:00:00+01:00", ["r1", "r4", "r7"]),
        ("filter when > \"2024-01-01 12:00\"", ["r2", "r3"]),
        ("filter when = 2024-01-01", ["r1"]),
        ("filter when != 2024-01-01", ["r2", "r3", "r4", "r5", "r6", "r7", "r8"]),
        ("sort when", ["r1", "r7", "r4", "r8", "r3", "r2", "r5", "r6"]),
        ("sort when desc", ["r2", "r3", "r8", "r4", "r7", "r1", "r5", "r6"]),
    ]

    @Test("dates with offsets filter and sort by their instants, alike in memory and in a text column")
    func datesByInstant() throws {
        let file = try home.write(Self.dateRecords, to: "dates.json")
        try sameRows(file: file, table: try exportedTable(file, as: "differential_dates"), Self.dateChecks)
    }

    /// Days no month has (`2024-02-30`, `2023-02-29`) among dates of a text column: text, not
    /// dates, in memory (`CalendarDate`), and the table's query no longer fails casting them.
    /// The instants by hand: r7 2000-02-29 (a leap year), r9 2023-12-31, r5 2024-01-01T18:30Z,
    /// r1 01-05, r3 02-29T10:00Z, r6 03-01, r11 04-30, r8 05-31T11:00Z (second 60), r10 06-30.
    static let impossibleDateRecords = """
        [{"name": "r1", "when": "2024-01-05"}, {"name": "r2", "when": "2024-02-30"},
         {"name": "r3", "when": "2024-02-29T10:00:00Z"}, {"name": "r4", "when": "2023-02-29"},
         {"name": "r5", "when": "2024-01-01T23:30:00+05:00"}, {"name": "r6", "when": "2024-03-01"},
         {"name": "r7", "when": "2000-02-29"}, {"name": "r8", "when": "2024-05-31T10:59:60Z"},
         {"name": "r9", "when": "2023-12-31"}, {"name": "r10", "when": "2024-06-30"}, {"name": "r11", "when": "2024-04-30"}]
        """

    @Test("a day no month has is text beside dates, alike in memory and in a text column")
    func impossibleDatesAreText() throws {
        let file = try home.write(Self.impossibleDateRecords, to: "impossible_dates.json")
        try sameRows(file: file, table: try exportedTable(file, as: "differential_impossible_dates"), [
            ("sort when", ["r7", "r9", "r5", "r1", "r3", "r6", "r11", "r8", "r10", "r2", "r4"]),
            ("sort when desc", ["r10", "r8", "r11", "r6", "r3", "r1", "r5", "r9", "r7", "r2", "r4"]),
            ("filter when < 2024-03-01", ["r1", "r3", "r5", "r7", "r9"]),
            ("filter when > 2024-02-29T10:00:00Z", ["r6", "r8", "r10", "r11"]),
            ("filter when = 2024-02-30", ["r2"]),
        ])
    }

    @Test("date, timestamp and timestamptz columns filter by their instants as memory does their ISO text")
    func dateColumnsByInstant() throws {
        // The same instants as `dateRecords`' r1, r2, r3, r4 and r7, in typed columns; `wall` has no time zone (UTC).
        try Database.cluster().execute("""
            DROP TABLE IF EXISTS differential_date_types;
            CREATE TABLE differential_date_types (name text, at timestamptz, wall timestamp, day date);
            INSERT INTO differential_date_types VALUES
              ('r1', '2024-01-01T00:00:00Z', '2024-01-01T00:00:00', '2024-01-01'),
              ('r2', '2024-01-01T23:30:00Z', '2024-01-01T23:30:00', '2024-01-02'),
              ('r3', '2024-01-01T23:30:00+05:00', '2024-01-01T18:30:00', NULL),
              ('r4', '2023-12-31T23:59:59-02:00', '2024-01-01T01:59:59', '2023-12-31'),
              ('r7', '2024-01-01T00:00:00.5Z', '2024-01-01T00:00:00.5', '2024-01-01')
            """)
        let file = try home.write("""
            [{"name": "r1", "at": "2024-01-01", "wall": "2024-01-01T00:00:00", "day": "2024-01-01"},
             {"name": "r2", "at": "2024-01-01T23:30:00Z", "wall": "2024-01-01T23:30:00", "day": "2024-01-02"},
             {"name": "r3", "at": "2024-01-01T23:30:00+05:00", "wall": "2024-01-01T18:30:00", "day": null},
             {"name": "r4", "at": "2023-12-31T23:59:59-02:00", "wall": "2024-01-01T01:59:59", "day": "2023-12-31"},
             {"name": "r7", "at": "2024-01-01T00:00:00.500Z", "wall": "2024-01-01T00:00:00.5", "day": "2024-01-01"}]
            """, to: "date_types.json")
        try sameRows(file: file, table: try Database.url("differential_date_types"), [
            ("filter at > 2024-01-01T01:00:00Z", ["r2", "r3", "r4"]),
            ("filter at <= 2024-01-01T00:00:00.5Z", ["r1", "r7"]),
            ("filter wall >= 2024-01-01T18:30:00+00:00", ["r2", "r3"]),
            ("filter wall < 2024-01-01T02:00:00+01:00", ["r1", "r7"]),
            ("filter day < 2024-01-01T12:00:00Z", ["r1", "r4", "r7"]),
            ("filter day > 2023-12-31", ["r1", "r2", "r7"]),
            ("sort at desc", ["r2", "r3", "r4", "r7", "r1"]),
            ("sort wall", ["r1", "r7", "r4", "r3", "r2"]),
        ])
    }

    /// `file` loaded by almanac and exported into `table`: the table's URL.
    func exportedTable(_ file: String, as table: String) throws -> String {
        let url = try Database.url(table)
        let exported = try run(["load own from \(file)", "use own", "export \(url) --force"])
        #expect(exported.status == 0, "\(exported)")
        return url
    }

    /// Each command on `file` loaded in memory and on `table` attached, from a fresh start:
    /// the records listed after it are exactly `names`, in that order, in both, and both say
    /// the same on standard error.
    func sameRows(file: String, table: String, _ checks: [(command: String, names: [String])],
                  sourceLocation: SourceLocation = #_sourceLocation) throws {
        let script = ["set pagesize 100"] + checks.flatMap { ["use d", "columns name", $0.command, "page"] }
        let answers = { (source: String) throws -> (result: PipeResult, names: [[String]]) in
            let result = try PipeRun.run(["--no-rc", "--format", "json"], input: (["load d from \(source)"] + script).joined(separator: "\n") + "\n",
                                         environment: home.environment(), directory: self.home.root)
            let names = try JSONDocuments.split(result.stdout).map { ($0 as? [[String: Any]] ?? []).compactMap { $0["name"] as? String } }
            return (result, names)
        }
        let memory = try answers(file)
        let database = try answers(table)
        #expect(memory.result.status == 0 && database.result.status == 0, "memory: \(memory.result)\ndatabase: \(database.result)",
                sourceLocation: sourceLocation)
        #expect(memory.result.stderr == database.result.stderr, sourceLocation: sourceLocation)
        #expect(memory.names.count == checks.count && database.names.count == checks.count, sourceLocation: sourceLocation)
        for (index, check) in checks.enumerated() where index < min(memory.names.count, database.names.count) {
            #expect(memory.names[index] == check.names, "memory: \(check.command)", sourceLocation: sourceLocation)
            #expect(database.names[index] == check.names, "table: \(check.command)", sourceLocation: sourceLocation)
        }
    }

    /// A JSON value as text with objects' keys sorted and null members dropped.
    static func canonical(_ value: Any) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: dropNulls(value), options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    static func dropNulls(_ value: Any) -> Any {
        switch value {
        case let object as [String: Any]: object.filter { !($0.value is NSNull) }.mapValues(dropNulls)
        case let array as [Any]: array.map(dropNulls)
        default: value
        }
    }
}
