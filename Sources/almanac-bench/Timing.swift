import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The monotonic clock, in nanoseconds.
enum Clock {
    @inline(__always)
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    static func milliseconds(since start: UInt64) -> Double { Double(now() - start) / 1e6 }

    /// CPU time of the whole process (all threads), in nanoseconds.
    @inline(__always)
    static func cpu() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}

/// Timings of one measured step, in milliseconds: every run kept, median and min reported.
struct Stats: Codable {
    var runs: [Double]
    var warmups: Int
    /// CPU time of each run (the process's, all threads): what the work cost when other work
    /// on the machine stretched the wall time.
    var cpuRuns: [Double] = []

    var cpuMedian: Double { Stats(runs: cpuRuns, warmups: 0).median }

    var median: Double {
        let sorted = runs.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    var min: Double { runs.min() ?? .nan }
    var max: Double { runs.max() ?? .nan }

    enum CodingKeys: String, CodingKey { case runs, warmups, median, min, max, cpuRuns, cpuMedian }

    init(runs: [Double], warmups: Int, cpuRuns: [Double] = []) {
        self.runs = runs
        self.warmups = warmups
        self.cpuRuns = cpuRuns
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        runs = try container.decode([Double].self, forKey: .runs)
        warmups = try container.decode(Int.self, forKey: .warmups)
        cpuRuns = try container.decodeIfPresent([Double].self, forKey: .cpuRuns) ?? []
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(runs.map(Self.rounded), forKey: .runs)
        try container.encode(warmups, forKey: .warmups)
        try container.encode(Self.rounded(median), forKey: .median)
        try container.encode(Self.rounded(min), forKey: .min)
        try container.encode(Self.rounded(max), forKey: .max)
        if !cpuRuns.isEmpty {
            try container.encode(cpuRuns.map(Self.rounded), forKey: .cpuRuns)
            try container.encode(Self.rounded(cpuMedian), forKey: .cpuMedian)
        }
    }

    private static func rounded(_ value: Double) -> Double { (value * 10_000).rounded() / 10_000 }
}

/// Runs `body` `warmups` times untimed, then `runs` times timed. Every run's result goes
/// through `check`, so the compiler cannot drop the work and a wrong answer is noticed.
func measure<Result>(warmups: Int, runs: Int, _ body: () throws -> Result, check: (Result) throws -> Void = { _ in }) throws -> (Stats, Result) {
    var last: Result?
    for _ in 0..<warmups {
        let result = try body()
        try check(result)
        last = result
    }
    var times: [Double] = []
    var cpuTimes: [Double] = []
    for _ in 0..<runs {
        last = nil  // free the previous result before timing the next run
        let cpu = Clock.cpu()
        let start = Clock.now()
        let result = try body()
        times.append(Clock.milliseconds(since: start))
        cpuTimes.append(Double(Clock.cpu() - cpu) / 1e6)
        try check(result)
        last = result
    }
    return (Stats(runs: times, warmups: warmups, cpuRuns: cpuTimes), last!)
}

/// This process's resident memory, from /proc/self/status.
struct Memory: Codable {
    /// Resident now (VmRSS), in bytes.
    var resident: Int
    /// Highest resident so far (VmHWM), in bytes.
    var peak: Int

    static func current() -> Memory {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return Memory(resident: 0, peak: 0) }
        func kilobytes(_ field: String) -> Int {
            for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
                let digits = line.dropFirst(field.count + 1).filter(\.isNumber)
                return (Int(digits) ?? 0) * 1024
            }
            return 0
        }
        return Memory(resident: kilobytes("VmRSS"), peak: kilobytes("VmHWM"))
    }
}

