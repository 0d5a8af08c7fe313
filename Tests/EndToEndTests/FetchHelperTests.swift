import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension HeavyReliabilityTests {
/// The `almanac-fetch` helper under hostile servers and signals: memory bounded by the
/// response bound (the body streams to the shell, kept once), and the helper never outlives
/// the shell, whatever ends it.
@Suite("The fetch helper: bounded, and gone with the shell", .serialized)
struct FetchHelperTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    /// The helpers `pid` has started and that still run.
    static func helpers(of pid: pid_t) -> [pid_t] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.flatMap { task -> [pid_t] in
            let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
            return children.split(separator: " ").compactMap { pid_t($0) }
        }.filter { child in
            ((try? String(contentsOfFile: "/proc/\(child)/cmdline", encoding: .utf8)) ?? "").contains("almanac-fetch")
        }
    }

    /// Whether `pid` still runs (a zombie waiting for its new parent to collect it does not).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z")
    }

    static func peak(_ pid: pid_t) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return (line.split(separator: " ").compactMap { Int($0) }.first ?? 0) * 1024
        }
        return 0
    }

    @Test("an endless body stops at the bound: shell and helper together stay within 1.5 times it")
    func endlessBodyStopsAtTheBound() throws {
        let server = try SWAPIServer.get()
        let bound = 256 << 20
        let session = try PipeSession(["--no-rc"], environment: home.environment(), directory: home.root)
        // The bundled datasets loaded and indexed first: they are not the load's memory.
        try session.send("use stations; count; search а; use countries; count; set maxbytes 256M")
        try session.waitFor("\n250\n", timeout: .seconds(120))
        pause(milliseconds: 500)
        let before = session.memory("VmHWM") ?? 0
        let started = ContinuousClock.now
        try session.send("load x from \(server.url("/endless/"))")
        var helperPeak = 0
        var helpersSeen = Set<pid_t>()
        let deadline = Deadline(.seconds(120))
        while !session.stderrText.contains("x: load failed"), !deadline.hasPassed, !session.hasExited() {
            for helper in Self.helpers(of: session.pid) {
                helpersSeen.insert(helper)
                helperPeak = max(helperPeak, Self.peak(helper))
            }
            session.drain(waitingUpTo: 5)
        }
        let seconds = ReliabilityLog.milliseconds(ContinuousClock.now - started) / 1000
        let shellGrowth = max(0, (session.memory("VmHWM") ?? 0) - before)
        let total = shellGrowth + helperPeak
        #expect(session.stderrText.contains("x: load failed: \(server.url("/endless/")): the response is larger than the 256 MiB limit"),
                "\(session.stderrText.tail(500))")
        #expect(helperPeak > 0, "the helper was seen: \(helpersSeen)")
        #expect(total <= bound + bound / 2, "shell +\(shellGrowth >> 20) MB, helper \(helperPeak >> 20) MB, against a bound of 256 MiB")
        #expect(try session.finish() == 1)
        ReliabilityLog.record("endless body, bound 256 MiB", "refused after \(String(format: "%.1f", seconds)) s; "
            + "shell +\(shellGrowth >> 20) MB, helper peak \(helperPeak >> 20) MB: \(String(format: "%.2f", Double(total) / Double(bound)))× the bound")
    }

    @Test("SIGINT, SIGTERM, SIGHUP and SIGKILL of the shell during an HTTP load never leave the helper running",
          arguments: [SIGINT, SIGTERM, SIGHUP, SIGKILL])
    func helperEndsWithTheShell(signal: Int32) throws {
        let server = try SWAPIServer.get()
        let session = try PipeSession(["--no-rc"], environment: home.environment(), directory: home.root)
        // Page 2 of /stall/ never finishes: its helper waits for ever.
        try session.send("load x from \(server.url("/stall/"))")
        // The first page's helper comes and goes; wait for the one that stays (seen twice,
        // 300 ms apart).
        let deadline = Deadline(.seconds(30))
        var helpers: [pid_t] = []
        while !deadline.hasPassed {
            let seen = Self.helpers(of: session.pid)
            pause(milliseconds: 300)
            helpers = Self.helpers(of: session.pid).filter(seen.contains)
            if !helpers.isEmpty { break }
        }
        #expect(!helpers.isEmpty, "a helper runs the load")
        kill(session.pid, signal)
        let status = try session.finish(timeout: .seconds(10))
        #expect(status == 128 + signal, "status \(status)")
        let gone = Deadline(.seconds(2))
        let ended = ContinuousClock.now
        while helpers.contains(where: Self.isRunning), !gone.hasPassed { pause(milliseconds: 2) }
        let milliseconds = ReliabilityLog.milliseconds(ContinuousClock.now - ended)
        let left = helpers.filter(Self.isRunning)
        #expect(left.isEmpty, "helper \(left) still runs after the shell ended by signal \(signal)")
        for pid in left { kill(pid, SIGKILL) }
        ReliabilityLog.record("helper after signal \(signal) to the shell", left.isEmpty
            ? String(format: "gone %.0f ms after the shell", milliseconds) : "STILL RUNNING")
    }
}
}
