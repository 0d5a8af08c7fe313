import AlmanacCore
import Foundation

/// The stations flattened to CSV — one row per distinct station, seven columns — beside each
/// scaled JSON file (`stations.csv`), and CSV's load measured on it: issue 28's "at JSON's
/// speed class".
enum CSVBench {
    static let columns = ["stationId", "stationTitle", "cityId", "cityTitle", "countryTitle", "latitude", "longitude"]

    /// `stations.csv` beside `file`, written from the scaled JSON unless it is there and newer.
    static func ensure(_ file: ScaledFile, log: (String) -> Void) throws -> String {
        let path = file.directory + "/stations.csv"
        if let csv = try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date,
           let json = try? FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date, csv > json {
            return path
        }
        log("writing \(file.scale)× stations as CSV in \(file.directory) …")
        let dataset = try DatasetLoader().load(LoadRequest(name: "stations", source: .file(path: file.path), model: StationModel.self),
                                               progress: LoadProgress(), cancellation: .never)
        var text = columns.joined(separator: ",") + "\n"
        let paths = ["stationId", "stationTitle", "cityId", "cityTitle", "countryTitle", "point.latitude", "point.longitude"]
            .map { dataset.compile(FieldPath($0)) }
        for row in 0..<dataset.count {
            let cells = paths.map { path -> String in
                guard case let .node(node) = dataset.scalar(of: path, row: row) else { return "" }
                let value = dataset.document.kind(at: node) == .string || dataset.document.kind(at: node) == .number ? dataset.document.string(at: node) : ""
                guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
                return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            }
            text += cells.joined(separator: ",") + "\n"
        }
        let temporary = path + ".partial"
        try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, path) == 0 else { throw BenchError("cannot rename \(temporary)") }
        return path
    }

    /// The CSV parse from a buffer in memory, as `load.parse` times JSON's: sniffing the
    /// dialect, one pass into the document, the columns settled. Checks every station is a row.
    /// The document is freed after its run's time is taken and before the next run starts, as
    /// `measure` does (freeing it inside the timed span added munmap's time to the parse's).
    static func measureParse(path: String, expectedRows: Int, runs: Int) throws -> (stats: Stats, bytes: Int) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var times: [Double] = []
        var cpu: [Double] = []
        var previous: JSONDocument?
        for run in 0..<(runs + 1) {
            previous = nil
            let start = (Clock.now(), Clock.cpu())
            let (document, rows) = try bytes.withUnsafeBufferPointer { buffer throws(LoadFailure) -> (JSONDocument, Int) in
                let (document, summary) = try DelimitedText.document(of: buffer, source: path, tsv: false)
                return (document, summary.records)
            }
            let end = (Clock.now(), Clock.cpu())
            previous = document
            guard rows == expectedRows else { throw BenchError("CSV parse found \(rows) rows in \(path); expected \(expectedRows)") }
            guard run > 0 else { continue }
            times.append(Double(end.0 - start.0) / 1e6)
            cpu.append(Double(end.1 - start.1) / 1e6)
        }
        withExtendedLifetime(previous) {}
        return (Stats(runs: times, warmups: 1, cpuRuns: cpu), bytes.count)
    }
}
