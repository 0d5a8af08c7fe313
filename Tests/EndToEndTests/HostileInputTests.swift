import Foundation
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension HeavyReliabilityTests {
/// Inputs the random fuzz is unlikely to build but a hostile or unlucky user can: a data
/// file that shrinks while it loads, and short command lines whose work explodes. None may
/// crash the shell or keep it busy for minutes.
@Suite("Hostile files and command lines", .serialized)
struct HostileInputTests {
    /// How long one command may take in the debug build before it counts as a hang.
    static let hangBound: Double = 15

    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    /// Whether process `pid` has `path` open or mapped.
    static func uses(_ pid: pid_t, _ path: String) -> Bool {
        if let maps = try? String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8), maps.contains(path) { return true }
        let folder = "/proc/\(pid)/fd"
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            if (try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + entry)) == path { return true }
        }
        return false
    }

    @Test("a data file truncated while it loads fails the load; the shell does not crash and goes on")
    func fileTruncatedWhileLoading() throws {
        let big = try BigStationsFile.shared(megabytes: 32)
        let path = home.root + "/shrinking.json"
        try FileManager.default.copyItem(atPath: big.path, toPath: path)
        let session = try PipeSession(["--no-rc"], environment: home.environment(), directory: home.root)
        try session.send("load big from \(path)")
        let deadline = Deadline(.seconds(20))
        while !Self.uses(session.pid, path), !deadline.hasPassed, !session.hasExited() { pause(milliseconds: 2) }
        #expect(Self.uses(session.pid, path), "the shell opened the file")
        // Another program rewrites the file: it is cut to 4 KB under the reader's feet.
        #expect(truncate(path, 4096) == 0)
        try session.send("use countries; count")
        var shown = ""
        do { shown = try session.waitFor("250\n", timeout: .seconds(60)) } catch {}
        let status = try session.finish(timeout: .seconds(60))
        #expect(status == 0 || status == 1, """
            the shell died with status \(status)\(status > 128 ? " (signal \(status - 128)\(status == 135 ? ", SIGBUS: the file is mapped with mmap and read past its new end" : ""))" : "") \
            after its data file was truncated during `load`
            --- stderr ---
            \(session.stderrText.tail(1500))
            """)
        #expect(status > 128 || session.stdoutText.contains("250"), "the next command ran: \(shown.visible)")
    }

    @Test("short command lines whose work explodes answer within 15 s (debug build)", arguments: [
        ("group over one list field named 5 times", "use countries\ngroup borders, borders, borders, borders, borders\n"),
        ("group over 20,000 fields", "use countries\ngroup " + Array(repeating: "region", count: 20_000).joined(separator: ",") + "\n"),
    ])
    func explosiveLines(label: String, script: String) throws {
        let result = try ByteRun.run(["--no-rc"], input: Array(script.utf8), environment: home.environment(), directory: home.root,
                                     idleTimeout: .seconds(Self.hangBound + 5), timeout: .seconds(Self.hangBound + 5))
        #expect(result.endedNormally && result.seconds < Self.hangBound, """
            \(label): \(result.killedBecause.map { "killed after \(String(format: "%.1f", result.seconds)) s: \($0)" } ?? "took \(String(format: "%.1f", result.seconds)) s")
            """)
        ReliabilityLog.record("explosive line: \(label)", result.killedBecause == nil
            ? String(format: "%.1f s", result.seconds) : "killed after \(String(format: "%.1f", result.seconds)) s")
    }
}
}
