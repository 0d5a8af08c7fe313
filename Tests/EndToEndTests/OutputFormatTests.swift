import Foundation
import Testing

/// Every command's answer in every format, through pipes: each parses as its format (exactly
/// one JSON document per command), and the listings under `use all` are keyed by dataset.
@Suite("Every command in every format")
struct OutputFormatTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    /// Commands run in this order; the ones marked silent answer nothing.
    static let script: [(command: String, silent: Bool)] = [
        ("use countries", true), ("datasets", false), ("use", false), ("fields", false), ("search united", false),
        ("use countries", true), ("filter region = Europe", false), ("sort population desc", false), ("page", false), ("count", false),
        ("show NOR", false), ("random", false), ("group region", false), ("group languages.name", false),
        ("group region sum population, avg area", false), ("show #1", false), ("back", false), ("sort region, population desc", false),
        ("columns name, population", false), ("columns", false), ("describe population, region", false), ("columns reset", false),
        ("filter name = Nowhere", false), ("history", false), ("set", false), ("set pagesize", false), ("help", false),
        ("help group", false), ("about", false), ("use species", true), ("search wookie", false),
        ("use all", true), ("search united", false), ("fields", false), ("count", false), ("describe name", false),
        ("use stations", true), ("trip from 9864 to 9362 on 2026-12-01", false), ("search моск", false),
        ("show 9362", false),
        ("histogram point.latitude", false), ("map", false), ("trip from 9864 to 9362 on 2099-12-01 --map", false),
        ("use countries", true), ("histogram population 5", false), ("map", false),
    ]

    /// Where `use all` is in the script: the commands after it span every dataset.
    static let useAll = script.firstIndex { $0.command == "use all" }!

    func run(_ format: String) throws -> CommandOutputs.Run {
        let merged = try CommandOutputs.run(Self.script.map(\.command), arguments: ["--format", format],
                                            environment: home.environment(), directory: home.root)
        // Why the empty filter found nothing goes to standard error, merged here: not the answer.
        let europe = Self.countries.filter { $0["region"] as? String == "Europe" }.count
        let explanation = "no records — name has no value 'Nowhere' among these \(europe) records\n"
        #expect(merged.output(of: "filter name = Nowhere")?.hasSuffix(explanation) == true, "\(merged)")
        let run = CommandOutputs.Run(commands: merged.commands,
                                     outputs: merged.outputs.map { $0.replacingOccurrences(of: explanation, with: "") },
                                     status: merged.status, raw: merged.raw)
        #expect(run.status == 0, "\(run)")
        for (index, step) in Self.script.enumerated() {
            // NDJSON says "no rows" with no lines.
            if format == "ndjson", ["filter name = Nowhere", "history"].contains(step.command) { continue }
            #expect(run.outputs[index].isEmpty == step.silent,
                    "\(step.command) under \(format) \(step.silent ? "printed" : "printed nothing"):\n\(run.outputs[index].visible)")
        }
        return run
    }

    @Test("json: every command prints exactly one JSON document")
    func json() throws {
        let run = try run("json")
        for (index, step) in Self.script.enumerated() where !step.silent {
            let output = run.outputs[index]
            #expect(throws: Never.self, "\(step.command): \(output.tail(300).visible)") {
                try JSONSerialization.jsonObject(with: Data(output.utf8), options: [.fragmentsAllowed])
            }
        }
        // Keyed by dataset under `use all`: every dataset, each an array of its own records.
        let united = try JSONSerialization.jsonObject(with: Data((run.output(of: "search united", after: Self.useAll) ?? "").utf8)) as? [String: Any]
        #expect(Set(united?.keys ?? [:].keys) == ["countries", "species", "planets", "people", "stations"], "\(united?.keys.sorted() ?? [])")
        // The same countries as `search united` found under `use countries`, every name match among them.
        let countries = Set(((united?["countries"] as? [[String: Any]]) ?? []).compactMap { $0["alpha3Code"] as? String })
        let alone = try RecordFormats.jsonArray(run.output(of: "search united") ?? "").compactMap { $0["alpha3Code"] as? String }
        #expect(countries == Set(alone) && countries.isSuperset(of: Self.alpha3(namesContaining: "united")), "\(countries)")
        let fields = try JSONSerialization.jsonObject(with: Data((run.output(of: "fields", after: Self.useAll) ?? "").utf8)) as? [String: Any]
        #expect(fields?.keys.count == 5, "fields under use all is keyed by dataset")
        // A record is its source object; a count and a setting are objects.
        let norway = try JSONSerialization.jsonObject(with: Data((run.output(of: "show NOR") ?? "").utf8)) as? [String: Any]
        #expect(norway?["alpha3Code"] as? String == "NOR")
        let count = try JSONSerialization.jsonObject(with: Data((run.output(of: "count") ?? "").utf8)) as? [String: Any]
        #expect(count?["count"] as? Int == Self.countries.filter { $0["region"] as? String == "Europe" }.count)
        let empty = try JSONSerialization.jsonObject(with: Data((run.output(of: "filter name = Nowhere") ?? "").utf8)) as? [Any]
        #expect(empty?.isEmpty == true)
        let trip = try JSONSerialization.jsonObject(with: Data((run.output(of: "trip from 9864 to 9362 on 2026-12-01") ?? "").utf8)) as? [String: Any]
        #expect(trip?["fromId"] as? Int == 9864 && trip?["toId"] as? Int == 9362 && trip?["date"] as? String == "2026-12-01", "\(trip ?? [:])")
        // Pictures: a histogram is its bins, a map and a trip's map a GeoJSON FeatureCollection.
        let bins = try RecordFormats.jsonArray(run.output(of: "histogram population 5") ?? "")
        #expect(bins.count == 5 && bins.allSatisfy { Set($0.keys) == ["lower", "upper", "count"] }, "\(bins)")
        for (command, after) in [("map", 0), ("map", 34), ("trip from 9864 to 9362 on 2099-12-01 --map", 0)] {
            let collection = try JSONSerialization.jsonObject(with: Data((run.output(of: command, after: after) ?? "").utf8)) as? [String: Any]
            #expect(collection?["type"] as? String == "FeatureCollection", "\(command)")
        }
    }

    @Test("ndjson: every line of every command is one JSON object")
    func ndjson() throws {
        let run = try run("ndjson")
        for (index, step) in Self.script.enumerated() where !step.silent {
            #expect(throws: Never.self, "\(step.command)") { _ = try RecordFormats.ndjson(run.outputs[index]) }
        }
        let united = try RecordFormats.ndjson(run.output(of: "search united") ?? "").compactMap { $0["alpha3Code"] as? String }
        #expect(Set(united).isSuperset(of: Self.alpha3(namesContaining: "united")), "\(united)")
        #expect(try RecordFormats.ndjson(run.output(of: "show NOR") ?? "").map { $0["alpha3Code"] as? String } == ["NOR"])
    }

    @Test("csv and tsv: every command is a header and rows of the same width; an empty result keeps its header",
          arguments: ["csv", "tsv"])
    func delimited(format: String) throws {
        let run = try run(format)
        for (index, step) in Self.script.enumerated() where !step.silent {
            let output = run.outputs[index]
            #expect(throws: Never.self, "\(step.command): \(output.tail(300).visible)") {
                let rows = format == "csv" ? try RecordFormats.csv(output) : try RecordFormats.tsv(output)
                _ = try RecordFormats.table(rows)
            }
        }
        let empty = run.output(of: "filter name = Nowhere") ?? ""
        #expect(empty.lines.count == 1 && empty.hasPrefix("alpha2Code"), "the header of an empty result: \(empty.visible)")
    }

    @Test("markdown: every command is a table of rows of the same width")
    func markdown() throws {
        let run = try run("markdown")
        for (index, step) in Self.script.enumerated() where !step.silent {
            let lines = run.outputs[index].lines
            #expect(lines.count >= 2, "\(step.command)")
            let widths = lines.map { line in
                line.hasPrefix("| ") && line.hasSuffix(" |") ? line.replacingOccurrences(of: "\\|", with: "").split(separator: "|", omittingEmptySubsequences: false).count : -1
            }
            #expect(Set(widths).count == 1 && widths.first != -1, "\(step.command): \(run.outputs[index].tail(400).visible)")
            if lines.count >= 2 { #expect(lines[1].range(of: #"^\| (---:?)( \| ---:?)* \|$"#, options: .regularExpression) != nil, "\(lines[1])") }
        }
    }

    @Test("table and expanded: every command that answers prints something, errors none", arguments: ["table", "expanded"])
    func people(format: String) throws {
        let run = try run(format)
        #expect(!run.raw.contains("-c:"), "\(run)")
        #expect(run.output(of: "filter name = Nowhere") == "no records\n")
    }

    // MARK: - Data

    nonisolated(unsafe) static let countries: [[String: Any]] = {
        guard let data = FileManager.default.contents(atPath: DataFolder.realFile("countries")),
              let array = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return [] }
        return array
    }()

    /// The alpha-3 codes of the countries whose name contains `text` (case ignored), as `search` finds them by name.
    static func alpha3(namesContaining text: String) -> Set<String> {
        Set(countries.filter { ($0["name"] as? String)?.lowercased().contains(text) == true }.compactMap { $0["alpha3Code"] as? String })
    }
}
