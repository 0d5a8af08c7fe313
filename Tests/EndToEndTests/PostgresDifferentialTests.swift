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
            "filter name =~ '^Un'", "filter clear", "filter count(borders) = 0", "count", "filter clear",
            // Groups before sorts: sums of doubles are added in the results' order.
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
        let memory = try run(["load d from \(file)"] + setup + script.commands)
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

    @Test("fields counts the records with a value alike in memory and on a table: n/a, unknown, \"\" and null are none")
    func fieldsCountPresentValues() throws {
        let url = try Database.url("differential_species_fields")
        let file = home.root + "/species.json"
        #expect(try run(["use species", "export \(file)", "export \(url) --force"]).status == 0)
        let counts = { (source: String) throws -> [String: String] in
            let result = try PipeRun.run(["--no-rc", "--format", "csv", "-c", "load d from \(source)", "-c", "use d", "-c", "fields"],
                                         environment: home.environment(), directory: self.home.root)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
            var counts: [String: String] = [:]
            for record in try RecordFormats.table(try RecordFormats.csv(result.stdout)).records { counts[record["field"] ?? "?"] = record["records"] }
            return counts
        }
        let memory = try counts(file)
        let database = try counts(url)
        let species = ValueReadingTests.records("species")
        for key in ["average_lifespan", "average_height", "language", "classification", "hair_colors", "homeworld", "name"] {
            let present = String(species.filter { !ValueReadingTests.isAbsent($0[key]) }.count)
            #expect(memory[key] == present && database[key] == present, "\(key): \(present) species have one; memory \(memory[key] ?? "-"), table \(database[key] ?? "-")")
        }
    }

    @Test("group listings as people see them are the same, numbered for show #N, and the drill-down's count")
    func groupListingsAsPeopleSeeThem() throws {
        let url = try Database.url("differential_countries_people")
        let file = home.root + "/countries.json"
        #expect(try run(["use countries", "export \(file)", "export \(url) --force"]).status == 0)
        let script = ["use d", "group region sum population, max name", "show #3", "count", "back", "group subregion", "show #1", "count"]
        let people = { (source: String) throws -> PipeResult in
            try PipeRun.run(["--no-rc", "--format", "table"], input: (["load d from \(source)"] + script).joined(separator: "\n") + "\n",
                            environment: home.environment(), directory: self.home.root)
        }
        let memory = try people(file)
        let database = try people(url)
        #expect(memory.status == 0 && memory.stdout.contains("\n1  Africa"), "\(memory)")
        // Listings of records may differ where jsonb ordered an object's keys (translations); nothing else may.
        let lines = { (text: String) in text.split(separator: "\n").filter { !$0.contains("{") } }
        #expect(lines(memory.stdout) == lines(database.stdout))
        #expect(lines(database.stdout).contains("53"), "Europe, group #3, has 53 countries: \(database.stdout)")
    }

    @Test("nested objects group and describe by their name, alike in memory and in jsonb columns")
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
                      "filter labels = bug and milestone != v1.0", "count"]
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
