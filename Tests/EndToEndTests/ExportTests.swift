import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `export PATH [--force]`: whole files in the four formats that read back to the records
/// `--format json` prints; an existing file is kept unless --force; a symbolic link is
/// replaced itself, never written through.
@Suite("export")
struct ExportTests {
    let home: TemporaryHome
    let folder: String

    init() throws {
        home = try TemporaryHome()
        folder = try home.makeFolder("out")
    }

    /// Runs the -c `commands` in the export folder.
    func run(_ commands: [String], format: String? = nil, verbose: Bool = false) throws -> PipeResult {
        try home.run(commands, options: verbose ? ["--verbose"] : [], format: format, directory: folder)
    }

    func contents(_ name: String) -> String? { home.read(folder + "/" + name) }

    func filesInFolder() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    /// What `--format json` prints for `commands`, parsed.
    func printedRecords(_ commands: [String]) throws -> [[String: Any]] {
        let result = try run(commands, format: "json")
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        return try RecordFormats.jsonArray(result.stdout)
    }

    func isSymbolicLink(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK
    }

    @Test("export writes .json, .ndjson, .csv and .tsv that read back to the printed records")
    func fourFormats() throws {
        let query = ["use countries", "filter region = Europe"]
        let expected = try printedRecords(query)
        #expect(expected.count > 40, "the query has rows to export")

        let result = try run(query + ["export europe.json", "export europe.ndjson", "export europe.csv", "export europe.tsv"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(filesInFolder() == ["europe.csv", "europe.json", "europe.ndjson", "europe.tsv"],
                "the four files and no temporary leftovers: \(filesInFolder())")

        let json = try RecordFormats.jsonArray(contents("europe.json") ?? "")
        #expect(RecordFormats.equal(json, expected), ".json holds the printed records")

        let ndjson = try RecordFormats.ndjson(contents("europe.ndjson") ?? "")
        #expect(RecordFormats.equal(ndjson, expected), ".ndjson holds the printed records, one per line")

        for (name, rows) in [("europe.csv", try RecordFormats.csv(contents("europe.csv") ?? "")),
                             ("europe.tsv", try RecordFormats.tsv(contents("europe.tsv") ?? ""))] {
            let (header, records) = try RecordFormats.table(rows)
            #expect(records.count == expected.count, "\(name): one row per record")
            // A nested object is its members' dotted columns (translations.de).
            let flat = expected.map(RecordFormats.flattened)
            let keys = Set(flat.flatMap { $0.keys })
            #expect(Set(header) == keys, "\(name): a column per key: \(Set(header).symmetricDifference(keys))")
            var mismatches: [String] = []
            for (row, record) in zip(records, flat) {
                for key in keys where !RecordFormats.cell(row[key] ?? "", represents: record[key]) {
                    mismatches.append("\(record["alpha3Code"] ?? "?").\(key): \((row[key] ?? "").prefix(60))")
                }
            }
            #expect(mismatches.isEmpty, "\(name) cells that differ from the records:\n\(mismatches.prefix(10).joined(separator: "\n"))")
        }
    }

    @Test("export to an existing file fails, mentions --force and leaves it alone; --force replaces it")
    func existingFile() throws {
        let first = try run(["use countries", "filter region = Oceania", "export places.json"])
        #expect(first.status == 0, "\(first)")
        let original = contents("places.json")
        #expect(original != nil, "the first export wrote the file")

        let second = try run(["use countries", "filter region = Europe", "export places.json"])
        #expect(second.status == 1, "\(second)")
        #expect(second.stderr.contains("--force"), "the error says how to replace it\n\(second)")
        #expect(second.stderr.contains("places.json"), "\(second)")
        #expect(contents("places.json") == original, "the first file is unchanged")

        let forced = try run(["use countries", "filter region = Europe", "export places.json --force"])
        #expect(forced.status == 0, "\(forced)")
        let replaced = try RecordFormats.jsonArray(contents("places.json") ?? "")
        let europe = try printedRecords(["use countries", "filter region = Europe"])
        #expect(RecordFormats.equal(replaced, europe), "--force replaced it with the new results")
        #expect(filesInFolder() == ["places.json"], "no temporary leftovers: \(filesInFolder())")
    }

    @Test("export --force over a symbolic link replaces the link, never its target")
    func symbolicLink() throws {
        let target = try home.write("the target's own content\n", to: "elsewhere/target.json")
        let link = folder + "/linked.json"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)

        let refused = try run(["use countries", "filter region = Polar", "export linked.json"])
        #expect(refused.status == 1, "a link is an existing file\n\(refused)")
        #expect(refused.stderr.contains("--force"), "\(refused)")
        #expect(isSymbolicLink(link), "the link is still there")

        let forced = try run(["use countries", "filter region = Polar", "export linked.json --force"])
        #expect(forced.status == 0, "\(forced)")
        #expect(home.read(target) == "the target's own content\n", "the target keeps its content")
        #expect(!isSymbolicLink(link), "the link itself was replaced by the export")
        let written = try RecordFormats.jsonArray(contents("linked.json") ?? "")
        #expect(written.compactMap { $0["name"] as? String } == ["Antarctica", "Bouvet Island", "Heard Island and McDonald Islands"],
                "the Polar region's three records")
    }

    @Test("export of an empty result writes the header (csv, tsv) or [] (json) and says it wrote 0 records")
    func emptyResult() throws {
        let countries = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: DataFolder.realFile("countries")))) as? [[String: Any]])
        let keys = Set(countries.map(RecordFormats.flattened).flatMap(\.keys))
        let empty = ["use countries", "filter region = Europe and region = Asia"]
        let result = try run(empty + ["export empty.csv", "export empty.tsv", "export empty.json", "export empty.ndjson"],
                             verbose: true)
        // The empty filter says why on standard error, after the summaries of the loads it read
        // (--verbose: countries, and stations, which countries link to); the exports say nothing there.
        let europe = countries.filter { $0["region"] as? String == "Europe" }.count
        let why = "no records — region = Asia removed all \(europe) Europe records; their region"
        #expect(result.status == 0 && result.stderr.lines.map { String($0.prefix { $0 != ":" }) } == ["countries", "stations", why]
                    && result.stderr.lines[2] == "no records — region = Asia removed all \(europe) Europe records; their region: Europe (\(europe))",
                "\(result)")
        for name in ["empty.csv", "empty.tsv", "empty.json", "empty.ndjson"] {
            #expect(result.stdout.contains("wrote 0 records to \(name)\n"), "\(name)\n\(result)")
        }
        for (name, separator) in [("empty.csv", ","), ("empty.tsv", "\t")] {
            let text = try #require(contents(name), "\(name) was written")
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 2 && lines[1].isEmpty, "\(name): the header line alone\n\(text)")
            #expect(Set(lines[0].components(separatedBy: separator)) == keys, "\(name): a column per field of countries\n\(text)")
        }
        #expect(contents("empty.json")?.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "\(contents("empty.json") ?? "nil")")
        #expect(contents("empty.ndjson") == "", "no lines: \(contents("empty.ndjson") ?? "nil")")
        #expect(filesInFolder() == ["empty.csv", "empty.json", "empty.ndjson", "empty.tsv"], "\(filesInFolder())")
    }
}
