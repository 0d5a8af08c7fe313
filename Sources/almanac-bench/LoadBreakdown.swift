import AlmanacCore
import Foundation

/// A load in its phases: parse into the compact document, finish it, find the stations,
/// make the Dataset.
enum LoadBreakdown {
    struct Part {
        var id: String
        var title: String
        var stats: Stats
    }

    static func measure(path: String, runs: Int) throws -> [Part] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var times: [[Double]] = Array(repeating: [], count: 4)
        var cpu: [[Double]] = Array(repeating: [], count: 4)
        for run in 0..<(runs + 1) {
            var marks: [(UInt64, UInt64)] = [(Clock.now(), Clock.cpu())]
            var builder = JSONDocumentBuilder(expectedBytes: bytes.count)
            _ = try bytes.withUnsafeBufferPointer { buffer throws(LoadFailure) in
                try JSONParser.parse(buffer, source: path, into: &builder)
            }
            marks.append((Clock.now(), Clock.cpu()))
            let document = builder.finish()
            marks.append((Clock.now(), Clock.cpu()))
            let extraction = try StationModel.extract(from: document, source: path, cancellation: .never)
            marks.append((Clock.now(), Clock.cpu()))
            let dataset = Dataset(name: "stations", model: StationModel.self, document: document, extraction: extraction,
                                  origin: LoadOrigin(source: path, bytes: bytes.count, seconds: 0))
            marks.append((Clock.now(), Clock.cpu()))
            withExtendedLifetime(dataset) {}
            guard run > 0 else { continue }  // the first run warms up
            for phase in 0..<4 {
                times[phase].append(Double(marks[phase + 1].0 - marks[phase].0) / 1e6)
                cpu[phase].append(Double(marks[phase + 1].1 - marks[phase].1) / 1e6)
            }
        }
        let names = [("load.parse", "  load, phase 1: JSONParser.parse (from memory)"),
                     ("load.finish", "  load, phase 2: JSONDocumentBuilder.finish"),
                     ("load.extract", "  load, phase 3: StationModel.extract"),
                     ("load.dataset", "  load, phase 4: Dataset.init")]
        return names.enumerated().map { index, name in
            Part(id: name.0, title: name.1, stats: Stats(runs: times[index], warmups: 1, cpuRuns: cpu[index]))
        }
    }
}
