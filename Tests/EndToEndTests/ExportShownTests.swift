import Foundation
import PostgresCluster
import Testing

/// `export FILE` writes what the listing shows (issue 28): the chosen columns in their order,
/// computed ones and the fields the sort or filter uses too; the groups after `group`; a
/// describe's or a histogram's table after those; `export FILE all` whole records. The same
/// script over the countries file and over the table they were exported to writes the same
/// files; expected values are computed here from countries.json.
@Suite("export writes what is shown")
struct ExportShownTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    nonisolated(unsafe) static let countries: [[String: Any]] = {
        guard let data = FileManager.default.contents(atPath: DataFolder.realFile("countries")),
              let array = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return [] }
        return array
    }()

    static func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }

    /// Runs the script over `source` and returns each exported file's text, by name.
    func exports(from source: String, prefix: String) throws -> [String: String] {
        let names = ["shown.csv", "all.json", "groups.csv", "described.csv", "bins.csv"]
        let script = ["load d from \(source)", "use d", "filter region = Europe", "columns name, population / area as density",
                      "sort density desc", "export \(prefix)shown.csv", "export \(prefix)all.json all",
                      "group subregion sum population", "export \(prefix)groups.csv",
                      "describe population", "export \(prefix)described.csv",
                      "histogram population 4", "export \(prefix)bins.csv"]
        let result = try PipeRun.run(["--no-rc"], input: script.joined(separator: "\n") + "\n", environment: home.environment(),
                                     directory: home.root)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        return Dictionary(uniqueKeysWithValues: names.map { ($0, home.read(home.root + "/" + prefix + $0) ?? "") })
    }

    @Test("columns, computed columns, groups, describe and histogram export as listed; all exports whole records; memory and table alike")
    func exportsWhatIsShown() throws {
        let (file, url) = try Database.exported("countries", as: "export_shown", in: home)
        let memory = try exports(from: file, prefix: "m-")
        let table = try exports(from: url, prefix: "t-")
        for (name, text) in memory {
            // Whole records from a table come in its columns' order, a missing key as null:
            // compared as records without their nulls.
            func records(_ text: String) throws -> [[String: Any]] {
                try RecordFormats.jsonArray(text).map { $0.filter { !($0.value is NSNull) } }
            }
            let same = name.hasSuffix(".json") ? RecordFormats.equal(try records(text), try records(table[name] ?? "")) : text == table[name]
            #expect(same, "\(name)\nmemory:\n\(text.prefix(600))\ntable:\n\(table[name]?.prefix(600) ?? "nil")")
        }

        let europe = Self.countries.filter { $0["region"] as? String == "Europe" }
        // The chosen columns, the computed one, and region (the filter's field), densest first.
        let shown = try RecordFormats.table(try RecordFormats.csv(memory["shown.csv"] ?? ""))
        #expect(shown.header == ["name", "density", "region"])
        let densities = europe.compactMap { country -> (String, Double)? in
            guard let population = Self.number(country["population"]), let area = Self.number(country["area"]), area > 0 else { return nil }
            return (country["name"] as! String, population / area)
        }.sorted { $0.1 > $1.1 }
        #expect(shown.records.count == europe.count)
        #expect(shown.records.first?["name"] == densities.first?.0, "\(shown.records.prefix(2))")
        #expect(shown.records.first.flatMap { Double($0["density"] ?? "") }.map { abs($0 - densities[0].1) < 1e-6 } == true)

        let whole = try RecordFormats.jsonArray(memory["all.json"] ?? "")
        #expect(whole.count == europe.count && whole.allSatisfy { $0["translations"] != nil && $0["alpha3Code"] != nil })

        let groups = try RecordFormats.table(try RecordFormats.csv(memory["groups.csv"] ?? ""))
        #expect(groups.header == ["subregion", "count", "percent", "sum population"])
        let bySubregion = Dictionary(grouping: europe) { $0["subregion"] as? String ?? "" }
        #expect(groups.records.count == bySubregion.count)
        for row in groups.records {
            let members = bySubregion[row["subregion"] ?? ""] ?? []
            #expect(row["count"] == "\(members.count)", "\(row)")
            let sum = members.compactMap { Self.number($0["population"]) }.reduce(0, +)
            #expect(Double(row["sum population"] ?? "") == sum, "\(row)")
        }

        let described = try RecordFormats.table(try RecordFormats.csv(memory["described.csv"] ?? ""))
        // Still under the filter: Europe's populations.
        let populations = europe.compactMap { Self.number($0["population"]) }
        #expect(described.records.count == 1 && described.records[0]["field"] == "population")
        #expect(described.records.first.flatMap { Double($0["max"] ?? "") } == populations.max(), "\(described.records)")

        let bins = try RecordFormats.table(try RecordFormats.csv(memory["bins.csv"] ?? ""))
        #expect(bins.header == ["lower", "upper", "count"] && bins.records.count == 4)
        #expect(bins.records.compactMap { Int($0["count"] ?? "") }.reduce(0, +) == populations.count)
    }

    @Test("after path, export writes the chain as listed, step by step, not every country; memory and table alike")
    func pathExportsItsChain() throws {
        let (_, url) = try Database.exported("countries", as: "export_path", in: home)
        func exported(_ use: [String], prefix: String) throws -> (json: String, csv: String) {
            let script = use + ["path Portugal Poland", "export \(prefix)path.json", "export \(prefix)path.csv"]
            let result = try PipeRun.run(["--no-rc"], input: script.joined(separator: "\n") + "\n", environment: home.environment(),
                                         directory: home.root)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
            return (home.read(home.root + "/\(prefix)path.json") ?? "", home.read(home.root + "/\(prefix)path.csv") ?? "")
        }
        let memory = try exported(["use countries"], prefix: "m-")
        let table = try exported(["load d from \(url)", "use d"], prefix: "t-")
        #expect(memory == table, "memory:\n\(memory)\ntable:\n\(table)")

        // Four borders from Portugal to Poland in countries.json: each step borders the next.
        let chain = ["Portugal", "Spain", "France", "Germany", "Poland"]
        let byName = Dictionary(Self.countries.map { ($0["name"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        let code = { (name: String) in byName[name]?["alpha3Code"] as? String ?? "" }
        for (a, b) in zip(chain, chain.dropFirst()) {
            let borders = { (name: String) in byName[name]?["borders"] as? [String] ?? [] }
            #expect(borders(a).contains(code(b)) || borders(b).contains(code(a)), "\(a) – \(b)")
        }
        let records = try RecordFormats.jsonArray(memory.json)
        #expect(records.map { $0["name"] as? String } == chain)
        #expect(records.map { $0["step"] as? Int } == Array(0..<5))
        #expect(records.map { $0["alpha3Code"] as? String } == chain.map(code))
        #expect(records.map { $0["region"] as? String } == chain.map { byName[$0]?["region"] as? String })
        #expect(memory.csv == "step,name,alpha3Code,region\n" + chain.enumerated().map { step, name in
            "\(step),\(name),\(code(name)),Europe\n"
        }.joined())
    }

    @Test("after path, export all, a .geojson file and a new table hold the chain's countries whole, in its order; memory and table alike")
    func pathExportsItsCountriesWhole() throws {
        let (_, url) = try Database.exported("countries", as: "export_path_whole", in: home)
        func exported(_ use: [String], prefix: String) throws -> (json: String, geojson: String, table: [String?]) {
            let target = try Database.url("\(prefix)path_chain")
            let script = use + ["path Portugal Poland", "export \(prefix)whole.json all", "export \(prefix)chain.geojson", "export \(target)"]
            let result = try PipeRun.run(["--no-rc"], input: script.joined(separator: "\n") + "\n", environment: home.environment(),
                                         directory: home.root)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
            return (home.read(home.root + "/\(prefix)whole.json") ?? "", home.read(home.root + "/\(prefix)chain.geojson") ?? "",
                    try Database.column("SELECT name FROM \(prefix)path_chain ORDER BY ctid"))
        }
        let memory = try exported(["use countries"], prefix: "m_")
        let table = try exported(["load d from \(url)", "use d"], prefix: "t_")
        // The same values; a table's nested objects list their keys in PostgreSQL's order.
        func value(_ text: String) -> NSObject? { (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? NSObject }
        #expect(value(memory.json) == value(table.json) && value(memory.geojson) == value(table.geojson) && memory.table == table.table)

        let chain = ["Portugal", "Spain", "France", "Germany", "Poland"]
        let byName = Dictionary(Self.countries.map { ($0["name"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        let records = try RecordFormats.jsonArray(memory.json)
        #expect(records.map { $0["name"] as? String } == chain)
        // Whole records: every key countries.json has for each, with its values.
        for (record, name) in zip(records, chain) {
            let source = try #require(byName[name])
            #expect(Set(record.keys) == Set(source.keys), "\(name)")
            #expect(record["alpha3Code"] as? String == source["alpha3Code"] as? String)
            #expect(Self.number(record["population"]) == Self.number(source["population"]))
        }
        let geojson = try #require(try JSONSerialization.jsonObject(with: Data(memory.geojson.utf8)) as? [String: Any])
        let features = try #require(geojson["features"] as? [[String: Any]])
        #expect(features.map { ($0["properties"] as? [String: Any])?["name"] as? String } == chain)
        #expect(memory.table == chain)
    }

    @Test("CSV writes a nested object as dotted columns beside their object, lists as JSON text; the file loads back")
    func nestedObjectsAsDottedColumns() throws {
        let source = try home.write("""
            [{"id": 7, "user": {"login": "zoë", "id": 1}, "milestone": null, "labels": [{"name": "bug"}], "score": 1.5},
             {"id": 8, "user": {"login": "max", "id": 2}, "milestone": {"title": "v2.0", "due_on": null}, "labels": [], "score": 2}]
            """, to: home.root + "/issues.json")
        let result = try PipeRun.run(["--no-rc"], input: "load i from \(source)\nuse i\nexport issues.csv\nload back from issues.csv\nuse back\nset format csv\nfields\n",
                                     environment: home.environment(), directory: home.root)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        let lines = (home.read(home.root + "/issues.csv") ?? "").split(separator: "\n").map(String.init)
        #expect(lines == ["id,user.login,user.id,milestone.title,milestone.due_on,labels,score",
                          "7,zoë,1,,,\"[{\"\"name\"\":\"\"bug\"\"}]\",1.5",
                          "8,max,2,v2.0,,[],2"], "\(lines)")
        // Loaded back, the dotted columns are the objects again.
        #expect(result.stdout.contains("user,object,2,"), "\(result.stdout)")
        #expect(result.stdout.contains("user.login,text,2,"), "\(result.stdout)")
    }
}
