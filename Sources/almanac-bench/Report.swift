import AlmanacCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The machine the numbers come from.
struct Machine: Codable {
    var processors: Int
    var cpuModel: String
    var memoryBytes: Int
    var kernel: String

    static func current() -> Machine {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" } ?? "unknown"
        let meminfo = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? ""
        let total = meminfo.split(separator: "\n").first { $0.hasPrefix("MemTotal:") }
            .map { (Int($0.filter(\.isNumber)) ?? 0) * 1024 } ?? 0
        var name = utsname()
        uname(&name)
        let release = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return Machine(processors: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), cpuModel: model, memoryBytes: total, kernel: "Linux " + release)
    }
}

/// The 1, 5 and 15 minute load averages.
func loadAverage() -> String {
    ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "").split(separator: " ").prefix(3).joined(separator: " ")
}

/// One target of the performance issue, judged on this run's numbers.
struct TargetCheck: Codable {
    var target: String
    var measured: String
    var pass: Bool
    /// The scale the value comes from.
    var scale: Int
}

/// Everything one run measured, as written by `--json`.
struct BenchResults: Codable {
    var tool = "almanac-bench"
    var date: String
    var mode: String
    var machine: Machine
    /// /proc/loadavg when the run started and when it ended: other work on the machine.
    var loadAverageBefore: String
    var loadAverageAfter: String
    var scales: [ScaleResult]
    var targets: [TargetCheck]
}

/// Text for the terminal.
enum Report {
    static func ms(_ value: Double) -> String {
        if value.isNaN { return "—" }
        if value >= 100 { return String(format: "%.0f ms", value) }
        if value >= 10 { return String(format: "%.1f ms", value) }
        if value >= 1 { return String(format: "%.2f ms", value) }
        return String(format: "%.3f ms", value)
    }

    static func mb(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1e6) }

    static func stepLine(_ step: Step) -> String {
        var line = step.title.rightPadded(to: 58) + ms(step.stats.median).leftPadded(to: 11)
            + ("min " + ms(step.stats.min)).leftPadded(to: 15) + "  ×\(step.stats.runs.count)".rightPadded(to: 5)
        if let count = step.count { line += ("n=" + count.grouped).leftPadded(to: 11) }
        if !step.stats.cpuRuns.isEmpty { line += ("cpu " + ms(step.stats.cpuMedian)).leftPadded(to: 14) }
        if let rate = step.mbPerSecond { line += String(format: "  %.0f MB/s", rate) }
        return line
    }

    static func processLine(_ load: ProcessLoad, fileBytes: Int) -> String {
        "fresh process, \(load.tool):".rightPadded(to: 38)
            + " wall \(ms(load.wall.median)) (load \(ms(load.inProcess.median)))"
            + ", RSS after load \(mb(load.resident)) (\(String(format: "%.2f", Double(load.resident) / Double(fileBytes)))× file"
            + ", \(mb(load.residentTrimmed)) trimmed), peak \(mb(load.peak))"
    }

    static func cancelLine(_ result: CancelProbe.Result) -> String {
        let trials = result.trials.map { trial in
            trial.finishedBeforeCancel ? "done before" : ms(trial.latency) + (trial.stoppedByCancellation ? "" : " (ran to end)")
        }.joined(separator: ", ")
        return "  " + result.title.rightPadded(to: 44) + "worst " + ms(result.worstLatency).leftPadded(to: 9) + "   [\(trials)]"
    }

    static func header(_ file: ScaledFile) -> String {
        "== \(file.scale)×: \(file.path)\n   \(file.bytes.grouped) bytes (\(mb(file.bytes))), \(file.cityEntries.grouped) city entries, "
            + "\(file.stationEntries.grouped) station entries, \(file.distinctStations.grouped) distinct stations, fnv1a \(file.checksum)"
    }

    /// The targets almanac-bench can judge alone (the peers' ratios and the time to a prompt are
    /// `bench/peers`' part), on the largest scale run and the 1× load.
    static func targets(_ scales: [ScaleResult]) -> [TargetCheck] {
        guard let largest = scales.max(by: { $0.file.scale < $1.file.scale }) else { return [] }
        let scale = largest.file.scale
        var checks: [TargetCheck] = []
        func median(_ result: ScaleResult, _ id: String) -> Double { result.step(id)?.stats.median ?? .nan }
        func add(_ target: String, _ value: Double, _ limit: Double, scale: Int, detail: String = "") {
            checks.append(TargetCheck(target: target, measured: ms(value) + detail, pass: value <= limit, scale: scale))
        }
        if let one = scales.first(where: { $0.file.scale == 1 }) {
            add("1× stations file loaded in ≤ 15 ms", median(one, "load"), 15, scale: 1)
        }
        add("load ≈ 2 s or less", median(largest, "load"), 2000, scale: scale)
        for result in scales where result.file.scale >= 10 {
            let ratio = median(result, "decoder") / median(result, "load")
            checks.append(TargetCheck(target: "load ≥ 5× faster than JSONDecoder", measured: String(format: "%.1f×", ratio),
                                      pass: ratio >= 5, scale: result.file.scale))
        }
        if let load = largest.processLoads.first(where: { $0.tool == "almanac" }) {
            let ratio = Double(load.resident) / Double(largest.file.bytes)
            checks.append(TargetCheck(target: "resident memory after load ≤ 1.5× file size",
                                      measured: String(format: "%.2f× (%@ for %@)", ratio, mb(load.resident), mb(largest.file.bytes)),
                                      pass: ratio <= 1.5, scale: scale))
        }
        // Issue 28 set the CSV targets on the 100× file: on 10× (--quick) the fixed costs of a
        // load (threads, the column store's first blocks) dominate and the lines would read MISS
        // for a target nobody set there; the measurements stay in the tables above.
        let csvTargetsApply = scale >= 100
        if csvTargetsApply, let parse = largest.step("csv.parse"), let rate = parse.mbPerSecond {
            // Wall time on two threads; the CPU time says how much a busy machine took of it.
            checks.append(TargetCheck(target: "CSV parse (in process) ≥ 500 MB/s",
                                      measured: String(format: "%.0f MB/s (CPU %@ for the two threads)", rate, ms(parse.stats.cpuMedian)),
                                      pass: rate >= 500, scale: scale))
        }
        if csvTargetsApply, let load = largest.processLoads.first(where: { $0.tool == "almanac CSV" }),
           let bytes = try? FileManager.default.attributesOfItem(atPath: largest.file.directory + "/stations.csv")[.size] as? Int {
            let ratio = Double(load.peak) / Double(bytes)
            checks.append(TargetCheck(target: "CSV load: peak memory ≤ 1.25× the file",
                                      measured: String(format: "%.2f× (%@ for %@)", ratio, mb(load.peak), mb(bytes)),
                                      pass: ratio <= 1.25, scale: scale))
        }
        for query in Queries.search {
            add("search \(query) ≤ 3 ms", median(largest, "search:\(query)"), 3, scale: scale)
        }
        for prefix in Queries.prefixes {
            add("completion of \(prefix)… ≤ 10 ms", median(largest, "complete:\(prefix)"), 10, scale: scale)
        }
        add("filter \(Queries.latitude) ≤ 20 ms", median(largest, "filter:latitude"), 20, scale: scale)
        add("filter \(Queries.country) ≤ 20 ms", median(largest, "filter:country"), 20, scale: scale)
        add("sort \(Queries.sortField) ≤ 300 ms", median(largest, "sort"), 300, scale: scale)
        add("group \(Queries.groupFields.joined(separator: ", ")) ≤ 100 ms", median(largest, "group"), 100, scale: scale)
        add("group with aggregates ≤ 100 ms", median(largest, "group:aggregates"), 100, scale: scale)
        add("describe (every field) ≤ 300 ms", median(largest, "describe"), 300, scale: scale)
        add("filter \(Queries.computedFilter) ≤ 100 ms", median(largest, "filter:computed"), 100, scale: scale)
        add("sort \(Queries.computedSort) ≤ 100 ms", median(largest, "sort:computed"), 100, scale: scale)
        add("group round(point.latitude) avg(point.longitude * 2) ≤ 100 ms", median(largest, "group:computed"), 100, scale: scale)
        add("map of every station ≤ 100 ms", median(largest, "map"), 100, scale: scale)
        add("histogram \(Queries.histogramField) ≤ 100 ms", median(largest, "histogram"), 100, scale: scale)
        add("filter \(LinkSteps.filter) ≤ 50 ms", median(largest, "link.filter"), 50, scale: scale)
        for query in GeographySteps.nearQueries {
            add("\(query.id) ≤ 20 ms", median(largest, query.id), 20, scale: scale)
        }
        for code in GeographySteps.withinCodes {
            add("within \(code) ≤ 100 ms", median(largest, "within:\(code)"), 100, scale: scale)
        }
        for query in ValueCountSteps.queries {
            add("TAB with counts (\(query.id)) < 50 ms", median(largest, query.id), 50, scale: scale)
        }
        add("path ≤ 1 ms", median(largest, "path"), 1, scale: scale)
        add("reach ≤ 1 ms", median(largest, "reach"), 1, scale: scale)
        if let worst = largest.cancellation.max(by: { $0.worstLatency < $1.worstLatency }) {
            add("Ctrl-C stops any operation within 100 ms", worst.worstLatency, 100, scale: scale, detail: " (worst: \(worst.title))")
        }
        return checks
    }

    static func targetLines(_ checks: [TargetCheck]) -> [String] {
        checks.map { check in
            (check.pass ? "PASS  " : "MISS  ") + check.target.rightPadded(to: 50) + "\(check.scale)×".leftPadded(to: 5) + "  " + check.measured
        }
    }

    static func write(_ results: BenchResults, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let data = try encoder.encode(results)
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
