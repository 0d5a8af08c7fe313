import AlmanacCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `almanac-bench`: generates 1×, 10× and 100× copies of the stations file and measures
/// almanac's load, search, completion, filter, sort, group and Ctrl-C on them (see bench/README.md).
@main
struct AlmanacBench {
    static let usage = """
        usage: almanac-bench [--quick] [--scales 1,10,100] [--json FILE] [--data-dir DIR] [--source FILE] [--no-cancel]
               almanac-bench --generate [--quick | --scales LIST] [--data-dir DIR] [--source FILE]
               almanac-bench --load-once FILE | --decode-once FILE | --csv-parse FILE ROWS
               almanac-bench [--answer] --repeat OPERATION FILE N

          (default)        generate what is missing, then measure 1×, 10× and 100×
          --quick          1× and 10× only (what CI runs, to check it still runs; timings are not asserted)
          --scales LIST    the scales to run, e.g. 1,10
          --json FILE      also write every measurement as JSON
          --data-dir DIR   where the scaled files go (default .build/bench-data in the package)
          --source FILE    the 1× file (default $ALMANAC_DATA/stations.json, else the package's Data/stations.json)
          --no-cancel      skip the Ctrl-C probes
          --generate       only make the scaled files; print their descriptions as JSON
          --load-once F    load F with almanac in this process and print time and memory as JSON
          --decode-once F  the same with JSONDecoder
          --csv-parse F N  CSV's parse of F (N rows) from memory, seven runs
          --repeat OP F N  load F, then time OP N times (for perf; OP: group, sort, describe, sort-page, … ;
                           describe@1, group-country@2: on one thread or two whatever the size)
          --answer         with --repeat: first print the answer as JSON (bench/peers checks it against DuckDB's)
        """

    static func main() {
        FreedMemory.keepWorkingBuffers()  // as almanac's main does
        do {
            try run(Array(CommandLine.arguments.dropFirst()))
        } catch {
            FileHandle.standardError.write(Data("almanac-bench: \(error)\n".utf8))
            exit(1)
        }
    }

    static func run(_ arguments: [String]) throws {
        var scales = [1, 10, 100]
        var mode = "full"
        var jsonPath: String?
        var dataDirectory: String?
        var source: String?
        var generateOnly = false
        var probeCancellation = true
        var printAnswer = false
        var remaining = arguments[...]
        func value(_ option: String) throws -> String {
            guard let value = remaining.popFirst() else { throw BenchError("\(option) needs a value\n\(usage)") }
            return value
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--quick": scales = [1, 10]; mode = "quick"
            case "--scales":
                let list = try value(argument).split(separator: ",").compactMap { Int($0) }
                guard !list.isEmpty, list.allSatisfy({ $0 >= 1 }) else { throw BenchError("--scales wants e.g. 1,10,100") }
                scales = list.sorted()
                mode = "scales \(scales.map(String.init).joined(separator: ","))"
            case "--json": jsonPath = try value(argument)
            case "--data-dir": dataDirectory = try value(argument)
            case "--source": source = try value(argument)
            case "--no-cancel": probeCancellation = false
            case "--generate": generateOnly = true
            case "--load-once": return try LoadOnce.run(path: value(argument), decoder: false)
            case "--decode-once": return try LoadOnce.run(path: value(argument), decoder: true)
            case "--csv-parse":
                let path = try value(argument)
                let rows = Int(try value(argument)) ?? 0
                let (stats, bytes) = try CSVBench.measureParse(path: path, expectedRows: rows, runs: 7)
                print(String(format: "CSV parse: median %.2f ms (min %.2f ms, CPU %.2f ms), %.0f MB/s", stats.median, stats.min, stats.cpuMedian,
                             Double(bytes) / 1e6 / (stats.median / 1000)))
                return
            case "--answer": printAnswer = true
            case "--repeat":
                return try Repeat.run(operation: value(argument), path: value(argument), times: Int(value(argument)) ?? 10, printAnswer: printAnswer)
            case "-h", "--help": print(usage); return
            default: throw BenchError("unknown argument '\(argument)'\n\(usage)")
            }
        }

        let root = packageRoot()
        let data = absolute(dataDirectory ?? root + "/.build/bench-data")
        let environment = ProcessInfo.processInfo.environment
        let sourcePath = absolute(source ?? environment["ALMANAC_DATA"].flatMap { $0.isEmpty ? nil : $0 + "/stations.json" }
            ?? root + "/Data/stations.json")
        let log: (String) -> Void = generateOnly
            ? { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
            : { print($0); fflush(nil) }

        var files: [ScaledFile] = []
        for scale in scales {
            files.append(try Generator.ensure(scale: scale, source: sourcePath, dataDirectory: data, log: log))
            // The same stations as CSV beside it (bench/peers races DuckDB's read_csv on it).
            _ = try CSVBench.ensure(files[files.count - 1], log: log)
        }
        if generateOnly {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(files), as: UTF8.self))
            return
        }

        let machine = Machine.current()
        let date = ISO8601DateFormatter().string(from: Date())
        let loadBefore = loadAverage()
        log("almanac-bench (\(mode)) on \(machine.processors) × \(machine.cpuModel), \(Report.mb(machine.memoryBytes)) RAM, \(machine.kernel), \(date)")
        log("load average before: \(loadBefore)")
        log("times are medians (min beside them) of the runs shown after ×, after warm-up runs")
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var results: [ScaleResult] = []
        for file in files {
            log("")
            log(Report.header(file))
            let runner = ScaleRunner(file: file, executable: executable,
                                     probeCancellation: probeCancellation && file.scale == scales.max(), log: log)
            let result = try runner.run(baseline: results.first { $0.file.scale == 1 })
            results.append(result)
            FreedMemory.giveBack()
        }
        let targets = Report.targets(results)
        let loadAfter = loadAverage()
        log("")
        log("load average after: \(loadAfter)")
        log("Targets almanac-bench can judge alone (ratios to sqlite3, Python, FTS5 and the time to a prompt: bench/peers)")
        for line in Report.targetLines(targets) { log("  " + line) }
        if let jsonPath {
            try Report.write(BenchResults(date: date, mode: mode, machine: machine, loadAverageBefore: loadBefore,
                                            loadAverageAfter: loadAfter, scales: results, targets: targets), to: absolute(jsonPath))
            log("")
            log("wrote \(jsonPath)")
        }
    }

    /// The package's folder: the current one when it holds Package.swift, else the one this
    /// file was compiled in.
    static func packageRoot() -> String {
        let current = FileManager.default.currentDirectoryPath
        if FileManager.default.fileExists(atPath: current + "/Package.swift") { return current }
        var path = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        path.removeLast(3)  // Sources/almanac-bench/AlmanacBench.swift
        return path.joined(separator: "/")
    }

    static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath + "/")).standardizedFileURL.path
    }
}
