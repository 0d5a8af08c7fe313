import Foundation
import Testing

extension HeavyReliabilityTests {
/// A large stations file (generated from the real one, never committed) loads within about
/// three times its size of resident memory, and a failed load of it gives back what it used.
///
/// `ALMANAC_SKIP_MEMORY_TEST=1` skips this suite; `ALMANAC_MEMORY_TEST_MB` sets the size
/// (default 340 MB, as the issue asks, which CI runs: seconds for the release binary `make test`
/// runs, about a minute for a debug build).
@Suite("Memory with a large file", .serialized,
       .enabled(if: ProcessInfo.processInfo.environment["ALMANAC_SKIP_MEMORY_TEST"] != "1", "ALMANAC_SKIP_MEMORY_TEST=1"))
struct MemoryTests {
    static let megabytes = Int(ProcessInfo.processInfo.environment["ALMANAC_MEMORY_TEST_MB"] ?? "") ?? 340

    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    /// The peak is read from /proc/PID/status (VmHWM) before the process exits, not from
    /// wait4/getrusage: on Linux a child started by posix_spawn (vfork + exec) inherits the
    /// spawning process's own peak in ru_maxrss, and the test runner is itself hundreds of MB.
    @Test("loading a large stations file peaks within 3× its size of resident memory, its search index included")
    func peakMemory() throws {
        let started = ContinuousClock.now
        let big = try BigStationsFile.shared(megabytes: Self.megabytes)
        let session = try PipeSession(["--no-rc"], environment: home.environment(), directory: home.root)
        // What the shell holds before the file: the bundled datasets, loaded and indexed.
        try session.send("use stations; count")
        try session.waitFor("4037\n", timeout: .seconds(60))
        pause(milliseconds: 500)
        let baseline = session.memory("VmRSS") ?? 0
        let loading = ContinuousClock.now
        try session.send("load big from \(big.path)")
        try session.send("use big")
        try session.send("count")
        try session.waitFor("\(big.stations)\n", timeout: .seconds(600))
        let loaded = ReliabilityLog.milliseconds(ContinuousClock.now - loading) / 1000
        let afterLoad = session.memory("VmHWM") ?? 0
        // A search waits for the name index, built in the background after the load.
        try session.send("search zzqqxxjj")
        try session.send("count")
        try session.waitFor("0\n", timeout: .seconds(600))
        let withIndex = session.memory("VmHWM") ?? 0
        #expect(try session.finish() == 0, "\(session.stderrText.tail(500))")
        let ratio = Double(afterLoad) / Double(big.bytes)
        // With the index, net of what the shell held before (about 70 MB, a large share of 100 MB).
        let indexRatio = Double(withIndex - baseline) / Double(big.bytes)
        #expect(ratio <= 3.0, "peak RSS \(afterLoad >> 20) MB for a \(big.bytes >> 20) MB file: \(ratio)×")
        #expect(indexRatio <= 3.0, """
            peak RSS with the search index \(withIndex >> 20) MB, \((withIndex - baseline) >> 20) MB more than before the load, \
            for a \(big.bytes >> 20) MB file: \(indexRatio)×
            """)
        let total = ReliabilityLog.milliseconds(ContinuousClock.now - started) / 1000
        ReliabilityLog.record("memory peak (\(big.bytes / 1_000_000) MB file, \(big.stations) stations)", String(
            format: "load+use+count peak RSS %d MB = %.2f× the file; with the search index %d MB (%d MB before the load: net %.2f×); generating %.1f s, loading %.1f s, test %.1f s",
            afterLoad >> 20, ratio, withIndex >> 20, baseline >> 20, indexRatio, big.seconds, loaded, total))
    }

    @Test("a failed load of the same file truncated gives its memory back")
    func failedLoadFreesMemory() throws {
        let big = try BigStationsFile.shared(megabytes: Self.megabytes)
        let truncated = try BigStationsFile.truncatedCopy(of: big, fraction: 0.9)
        let session = try PipeSession(["--no-rc"], environment: home.environment(), directory: home.root)
        // Every bundled dataset loaded, indexed, and a first round of the commands used below.
        try session.send("use stations; count")
        try session.waitFor("4037\n", timeout: .seconds(60))
        try session.send("use countries; count")
        try session.waitFor("250\n")
        pause(milliseconds: 1000)
        try session.send("datasets")
        try session.waitFor("stations ")
        let before = session.memory("VmRSS") ?? 0

        var after: [Int] = []
        for attempt in 1...2 {
            try session.send("load big from \(truncated)")
            try session.waitFor("1 load failed\n", onError: true, timeout: .seconds(300))
            try session.send("datasets")
            try session.waitFor("\nbig ")
            try session.waitFor("\n")
            pause(milliseconds: 300)
            after.append(session.memory("VmRSS") ?? 0)
            let row = session.stdoutText.lines.last { $0.hasPrefix("big ") } ?? ""
            #expect(row.contains("failed:") && !row.contains("loaded"), "attempt \(attempt): `big` failed, with no records: \(row)")
        }
        let peak = session.memory("VmHWM") ?? 0
        #expect(session.stderrText.contains("the text ends too early") || session.stderrText.contains("truncated"),
                "the failure says why: \(session.stderrText.tail(500))")
        try session.send("count")
        try session.waitFor("250\n")
        #expect(try session.finish() == 1, "a failed load makes the script fail")

        let retained = (after.last ?? 0) - before
        let allowance = big.bytes / 4 + (40 << 20)
        #expect(peak - before > big.bytes / 2, "the failed load did use memory (peak \(peak >> 20) MB, before \(before >> 20) MB)")
        #expect(retained <= allowance, """
            after 2 failed loads RSS is \((after.last ?? 0) >> 20) MB, \(retained >> 20) MB more than before \
            (\(before >> 20) MB); allowed \(allowance >> 20) MB; peak \(peak >> 20) MB
            """)
        ReliabilityLog.record("memory after failed loads (\(big.bytes / 1_000_000) MB file cut at 90%)",
                              "RSS before \(before >> 20) MB, peak \(peak >> 20) MB, after each of 2 failures \(after.map { "\($0 >> 20) MB" })")
    }
}
}
