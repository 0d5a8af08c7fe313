import AlmanacCore
import Foundation

/// `--load-once FILE` and `--decode-once FILE`: one load in this (fresh) process, reported as
/// one JSON line on standard output.
enum LoadOnce {
    struct Report: Codable {
        var tool: String
        var milliseconds: Double
        var records: Int
        var resident: Int
        var residentTrimmed: Int
        var peak: Int
    }

    static func run(path: String, decoder: Bool) throws {
        let started = Clock.now()
        let records: Int
        let keep: Any
        if decoder {
            let loaded = try DecoderPeer.load(path)
            records = loaded.stations.count
            keep = loaded
        } else {
            let dataset = try DatasetLoader().load(
                // The stations flattened to CSV are generic records.
                LoadRequest(name: "stations", source: .file(path: path),
                            model: LoadOptions.Format.byExtension(path)?.isDelimited == true ? GenericModel.self : StationModel.self),
                progress: LoadProgress(), cancellation: .never)
            records = dataset.count
            keep = dataset
        }
        let milliseconds = Clock.milliseconds(since: started)
        let memory = Memory.current()
        FreedMemory.giveBack()
        let trimmed = Memory.current()
        let report = Report(tool: decoder ? "JSONDecoder" : "almanac", milliseconds: milliseconds, records: records,
                            resident: memory.resident, residentTrimmed: trimmed.resident, peak: memory.peak)
        let data = try JSONEncoder().encode(report)
        print(String(decoding: data, as: UTF8.self))
        withExtendedLifetime(keep) {}
    }
}

/// Runs a child process to completion and returns its standard output.
enum Child {
    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("\(executable) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
