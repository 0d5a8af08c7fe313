import Foundation
import Testing

/// The real datasets through pipes: search, the machine formats read back by independent
/// parsers, detail views, and the REST Countries lookups as filters, each checked against what
/// the test computes itself from Data/countries.json.
@Suite("Querying the real datasets through pipes")
struct DatasetQueryTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    func run(_ arguments: [String], input: String = "") throws -> PipeResult {
        try PipeRun.run(arguments, input: input, environment: home.environment(), directory: home.root)
    }

    /// Runs `commands` as -c options and expects success with nothing on stderr.
    func succeed(_ commands: [String], format: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try home.succeed(commands, format: format, sourceLocation: sourceLocation)
    }

    /// Data/countries.json as JSONSerialization reads it.
    nonisolated(unsafe) static let countries: [[String: Any]] = {
        guard let data = FileManager.default.contents(atPath: DataFolder.realFile("countries")),
              let array = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return [] }
        return array
    }()

    static func names(_ records: [[String: Any]]) -> [String] {
        records.compactMap { $0["name"] as? String }.sorted()
    }

    // MARK: - Search and formats

    @Test("`search united` lists the United Kingdom")
    func searchTable() throws {
        let shown = try run([], input: "use countries; search united\n")
        #expect(shown.status == 0 && shown.stderr.isEmpty, "\(shown)")
        #expect(shown.stdout.contains("United Kingdom of Great Britain and Northern Ireland"), "\(shown)")
        #expect(shown.stdout.contains("United States of America"), "\(shown)")
    }

    @Test("--format json prints an array of REST Countries objects")
    func searchJSON() throws {
        let output = try succeed(["use countries", "search united"], format: "json")
        let records = try RecordFormats.jsonArray(output)
        #expect(!records.isEmpty, "\(output.prefix(300))")
        let names = Set(records.compactMap { $0["name"] as? String })
        #expect(names.contains("United Kingdom of Great Britain and Northern Ireland"), "\(names)")
        for record in records {
            for key in ["name", "alpha2Code", "alpha3Code", "translations", "currencies", "languages", "region", "population"] {
                #expect(record[key] != nil, "\(record["name"] ?? "?") has \(key)")
            }
            #expect(record["translations"] is [String: Any], "translations stay an object")
            #expect(record["dataset"] == nil, "no column of the shell's own in the source schema")
        }
        // Exactly the objects of the file, not a rendering of them.
        let source = Self.countries.first { ($0["alpha3Code"] as? String) == "GBR" }
        let printed = records.first { ($0["alpha3Code"] as? String) == "GBR" }
        if let source, let printed {
            #expect(RecordFormats.equal(source, printed), "GBR is printed as the file has it")
        } else {
            Issue.record("GBR missing: source \(source != nil), printed \(printed != nil)")
        }
    }

    @Test("--format csv: every row has the header's cells; Norway's values are right")
    func csvFormat() throws {
        let output = try succeed(["use countries", "filter region = Europe"], format: "csv")
        let (header, records) = try RecordFormats.table(try RecordFormats.csv(output))
        #expect(header.contains("alpha2Code") && header.contains("population") && header.contains("translations.de"), "\(header)")
        let europe = Self.countries.filter { ($0["region"] as? String) == "Europe" }
        #expect(records.count == europe.count, "one row per European country")
        guard let norway = records.first(where: { $0["alpha3Code"] == "NOR" }) else {
            Issue.record("no NOR row in\n\(output.prefix(500))")
            return
        }
        #expect(norway["alpha2Code"] == "NO")
        #expect(norway["population"] == "5379475")
        #expect(norway["name"] == "Norway")
        #expect(norway["capital"] == "Oslo")
        // A value with a comma survives quoting.
        let all = try RecordFormats.table(try RecordFormats.csv(try succeed(["use countries", "search tanzania"], format: "csv"))).records
        #expect(all.contains { $0["name"] == "Tanzania, United Republic of" }, "\(all.map { $0["name"] ?? "" })")
        // Every cell stands for the source value.
        try expectCells(records, match: europe, format: "csv")
    }

    @Test("--format tsv: every row has the header's cells and stands for the source values")
    func tsvFormat() throws {
        let output = try succeed(["use countries", "filter region = Oceania"], format: "tsv")
        let (_, records) = try RecordFormats.table(try RecordFormats.tsv(output))
        let oceania = Self.countries.filter { ($0["region"] as? String) == "Oceania" }
        #expect(records.count == oceania.count)
        try expectCells(records, match: oceania, format: "tsv")
    }

    @Test("--format ndjson: one object per line, the same objects as --format json")
    func ndjsonFormat() throws {
        let lines = try succeed(["use countries", "search united"], format: "ndjson")
        let objects = try RecordFormats.ndjson(lines)
        let array = try RecordFormats.jsonArray(try succeed(["use countries", "search united"], format: "json"))
        #expect(objects.count == array.count && objects.count == lines.lines.count, "\(lines.prefix(300))")
        #expect(RecordFormats.equal(objects, array), "ndjson and json carry the same records in the same order")
    }

    /// Each delimited row against the source record with the same alpha3Code.
    func expectCells(_ rows: [[String: String]], match source: [[String: Any]], format: String) throws {
        // A nested object is its members' dotted columns (translations.de).
        let byCode = Dictionary(source.map { (($0["alpha3Code"] as? String) ?? "", RecordFormats.flattened($0)) }, uniquingKeysWith: { first, _ in first })
        var mismatches: [String] = []
        for row in rows {
            guard let code = row["alpha3Code"], let record = byCode[code] else {
                mismatches.append("a row with no known alpha3Code: \(row["name"] ?? "?")")
                continue
            }
            for (key, cell) in row where !RecordFormats.cell(cell, represents: record[key]) {
                mismatches.append("\(code).\(key): cell \(cell.prefix(80)) for \(String(describing: record[key]).prefix(80))")
            }
            for key in record.keys where row[key] == nil {
                mismatches.append("\(code): no column \(key)")
            }
        }
        #expect(mismatches.isEmpty, "\(format) cells that do not stand for the source value:\n\(mismatches.prefix(10).joined(separator: "\n"))")
    }

    // MARK: - Detail views

    @Test("show NOR and show NO: Norway's sections")
    func showNorway() throws {
        for key in ["NOR", "NO", "Norway"] {
            let shown = try succeed(["use countries", "show \(key)"])
            #expect(shown.hasPrefix("Norway\n"), "show \(key)\n\(shown.prefix(200))")
            for part in ["5,379,475", "62.000° N, 10.000° E", "Finland (FIN)", "Norwegian krone (NOK, kr)", "Норвегия", "Oslo"] {
                #expect(shown.contains(part), "show \(key) shows \(part)\n\(shown)")
            }
        }
    }

    @Test("show ATA: Antarctica has no capital line")
    func showAntarctica() throws {
        let shown = try succeed(["use countries", "show ATA"])
        #expect(shown.hasPrefix("Antarctica\n"), "\(shown.prefix(200))")
        #expect(!shown.contains("Capital"), "an empty capital is left out\n\(shown)")
        #expect(shown.contains("Polar"), "\(shown)")
    }

    @Test("show 3 and show Hutt under `use species`")
    func showSpecies() throws {
        let wookie = try succeed(["use species", "show 3"])
        #expect(wookie.hasPrefix("Wookie\n"), "\(wookie.prefix(200))")
        for part in ["Their average lifespan is 400 years.", "Kashyyyk", "Chewbacca"] {
            #expect(wookie.contains(part), "Wookie shows \(part)\n\(wookie)")
        }
        let hutt = try succeed(["use species", "show Hutt"])
        #expect(hutt.hasPrefix("Hutt\n"), "\(hutt.prefix(200))")
        #expect(hutt.contains("Nal Hutta"), "\(hutt)")
        #expect(hutt.contains("Jabba Desilijic Tiure"), "\(hutt)")
    }

    @Test("show 9362 under `use stations`")
    func showStation() throws {
        let shown = try succeed(["use stations", "show 9362"])
        #expect(shown.hasPrefix("Чистополь\n"), "\(shown.prefix(200))")
        for part in ["город Чистополь, Чистопольский район, Республика Татарстан, Россия", "Russian Federation", "9362"] {
            #expect(shown.contains(part), "station 9362 shows \(part)\n\(shown)")
        }
    }

    @Test("the examples `help trip` gives plan trips with the bundled stations")
    func tripHelpExamples() throws {
        let help = try succeed(["help trip"])
        guard let start = help.range(of: "Examples:\n") else {
            Issue.record("no examples in\n\(help)")
            return
        }
        let examples = String(help[start.upperBound...]).lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("trip ") }
        #expect(!examples.isEmpty, "\(help)")
        for example in examples {
            let result = try run(["-c", "use stations", "-c", example])
            #expect(result.status == 0 && result.stdout.contains("Distance"), "`\(example)` from `help trip` works\n\(result)")
        }
        // The README's example does.
        let readme = try succeed(["use stations", "trip from 9864 to 9362 on 1 Dec"])
        #expect(readme.contains("Чистополь [9362]") && readme.contains("2,459.4 km"), "\(readme)")
    }

    // MARK: - REST Countries lookups as filters

    /// Whether any element of the list at `key` has `field` equal to `value`.
    static func anyElement(_ key: String, _ field: String, is value: String) -> @Sendable ([String: Any]) -> Bool {
        { record in
            (record[key] as? [[String: Any]] ?? []).contains { ($0[field] as? String) == value }
        }
    }

    static func text(_ key: String, is value: String) -> @Sendable ([String: Any]) -> Bool {
        { ($0[key] as? String) == value }
    }

    struct Lookup: Sendable, CustomTestStringConvertible {
        let filter: String
        let expectedCount: Int
        let matches: @Sendable ([String: Any]) -> Bool
        var testDescription: String { "filter \(filter)" }
    }

    /// `expectedCount` guards the computed expectation itself (so a wrong predicate cannot make
    /// both sides empty); the counts are those of Data/countries.json.
    static let lookups: [Lookup] = [
        Lookup(filter: "name ~ united", expectedCount: 5) {
            (($0["name"] as? String) ?? "").range(of: "united", options: [.caseInsensitive, .diacriticInsensitive]) != nil
        },
        Lookup(filter: "name = \"United States of America\"", expectedCount: 1, matches: text("name", is: "United States of America")),
        Lookup(filter: "alpha2Code = NO", expectedCount: 1, matches: text("alpha2Code", is: "NO")),
        Lookup(filter: "alpha3Code = COL", expectedCount: 1, matches: text("alpha3Code", is: "COL")),
        Lookup(filter: "currencies.code = EUR", expectedCount: 36, matches: anyElement("currencies", "code", is: "EUR")),
        Lookup(filter: "languages.iso639_1 = es", expectedCount: 24, matches: anyElement("languages", "iso639_1", is: "es")),
        Lookup(filter: "capital = Oslo", expectedCount: 1, matches: text("capital", is: "Oslo")),
        Lookup(filter: "callingCodes = 57", expectedCount: 1) { ($0["callingCodes"] as? [String] ?? []).contains("57") },
        Lookup(filter: "region = Oceania", expectedCount: 27, matches: text("region", is: "Oceania")),
        Lookup(filter: "regionalBlocs.acronym = EU", expectedCount: 31, matches: anyElement("regionalBlocs", "acronym", is: "EU")),
        Lookup(filter: "demonym = Norwegian", expectedCount: 2, matches: text("demonym", is: "Norwegian")),
    ]

    @Test("REST Countries lookups as filters give the countries the file says", arguments: lookups)
    func lookup(_ lookup: Lookup) throws {
        let expected = Self.names(Self.countries.filter(lookup.matches))
        #expect(expected.count == lookup.expectedCount, "the test's own expectation from countries.json: \(expected)")
        let json = try succeed(["use countries", "filter \(lookup.filter)"], format: "json")
        let printed = Self.names(try RecordFormats.jsonArray(json))
        #expect(printed == expected, "filter \(lookup.filter)")
        // The same rows through CSV.
        let csv = try succeed(["use countries", "filter \(lookup.filter)"], format: "csv")
        let rows = expected.isEmpty ? [] : try RecordFormats.table(try RecordFormats.csv(csv)).records
        #expect(rows.compactMap { $0["name"] }.sorted() == expected, "filter \(lookup.filter) as csv")
    }

    // MARK: - Every dataset at once

    @Test("`use all` then `search ala` labels each result with its dataset")
    func searchAll() throws {
        let output = try succeed(["use all", "search ala"])
        let lines = output.lines
        guard let header = lines.first else {
            Issue.record("no output")
            return
        }
        let columns = header.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        #expect(columns.contains("dataset") && columns.contains("name"), "\(header)")
        // Rows: `N  DATASET  NAME`, the dataset being the second column.
        var labels: [String: String] = [:]
        for line in lines.dropFirst(2) {
            let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true).map(String.init)
            guard parts.count == 3, Int(parts[0]) != nil else { continue }
            labels[parts[2].trimmingCharacters(in: .whitespaces)] = parts[1]
        }
        #expect(labels["Åland Islands"] == "countries", "\(output)")
        #expect(labels["Mon Calamari"] == "species", "\(output)")
        #expect(labels.values.contains("stations"), "\(output)")
        #expect(Set(labels.values).isSubset(of: Set(DataFolder.datasets)), "\(Set(labels.values))")
    }
    /// Each bundled dataset's records, read from its file: the stations are distinct station ids.
    static func names(of dataset: String) throws -> [String] {
        let data = try #require(FileManager.default.contents(atPath: DataFolder.realFile(dataset)))
        let json = try JSONSerialization.jsonObject(with: data)
        if let array = json as? [[String: Any]] { return array.compactMap { $0["name"] as? String } }
        let cities = try #require(json as? [String: Any])
        var ids = Set<Int>()
        for key in ["citiesFrom", "citiesTo"] {
            for city in cities[key] as? [[String: Any]] ?? [] {
                for station in city["stations"] as? [[String: Any]] ?? [] {
                    if let id = station["stationId"] as? Int { ids.insert(id) }
                }
            }
        }
        return ids.map(String.init)
    }

    @Test("under `use all` the listings' dataset column is a field: group, filter and sort take it")
    func datasetIsAFieldUnderUseAll() throws {
        var counts: [(dataset: String, count: Int)] = []
        for dataset in DataFolder.datasets { counts.append((dataset, try Self.names(of: dataset).count)) }
        counts.sort { $0.count != $1.count ? $0.count > $1.count : $0.dataset < $1.dataset }
        let grouped = try RecordFormats.jsonArray(try succeed(["use all", "group dataset"], format: "json"))
        #expect(grouped.map { "\($0["dataset"] ?? "?") \($0["count"] ?? "?")" } == counts.map { "\($0.dataset) \($0.count)" })

        // The species alone, in their file's order; then species and planets, planets first, each by name descending.
        let species = try RecordFormats.csv(try succeed(["use all", "filter dataset = species"], format: "csv"))
        #expect(species.dropFirst().map { "\($0[0]) \($0[1])" } == (try Self.names(of: "species")).map { "species \($0)" })
        let sorted = try RecordFormats.csv(try succeed(["use all", "filter dataset = SPECIES or dataset ~ lanet",
                                                        "sort dataset desc, name desc"], format: "csv"))
        // Text sorts folded; `unknown` is no value, last in either direction.
        let byName = { (names: [String]) in
            names.filter { $0 != "unknown" }.sorted { $0.lowercased() > $1.lowercased() } + names.filter { $0 == "unknown" }
        }
        #expect(sorted.dropFirst().map { "\($0[0]) \($0[1])" }
            == byName(try Self.names(of: "species")).map { "species \($0)" } + byName(try Self.names(of: "planets")).map { "planets \($0)" })

        // As an expression, and what why says of it; a record's own field of that name comes first (not here).
        #expect(try succeed(["use all", "filter dataset != stations and dataset > q", "count"]) == "\(try Self.names(of: "species").count)\n")
        let why = try succeed(["use all", "filter dataset =~ '^pe' and height > 200", "why Chewbacca"])
        #expect(why.contains("✓ dataset =~ '^pe'   dataset people"), "\(why)")
    }

    @Test("under `use all` a misspelt dataset field is answered with 'did you mean dataset': sort, filter, group")
    func aMisspeltDatasetFieldIsSuggested() throws {
        let shown = try run(["-c", "use all", "-c", "sort Dataset", "-c", "filter datasett = people", "-c", "group datset"])
        #expect(shown.stderr == """
            -c:2:6: unknown field 'Dataset' — did you mean 'dataset'?
            -c:3:8: unknown field 'datasett' — did you mean 'dataset'?
            -c:4:7: unknown field 'datset' — did you mean 'dataset'?

            """, "\(shown)")
        // One dataset: no such field, and nothing suggests it.
        let alone = try run(["-c", "use people", "-c", "sort datset"])
        #expect(alone.stderr == "-c:2:6: unknown field 'datset' — 'fields' lists them\n", "\(alone)")
    }
}
