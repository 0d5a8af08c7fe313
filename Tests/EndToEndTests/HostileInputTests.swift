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

    /// Rounds of `fileTruncatedWhileLoading`. The crash it pins (a digit read twice by the
    /// parser, turned into a zero in between) hit about one load in eight with the stations
    /// file and one in five with this file of digits: 40 rounds miss it once in 7,000 runs.
    static let truncationRounds = 40

    /// A file of about `megabytes` MB that is mostly long numbers in objects (so a split
    /// boundary exists and the second thread parses too).
    static func numbersFile(megabytes: Int, at path: String) throws {
        var text = "["
        var index = 0
        while text.utf8.count < megabytes * 1_000_000 {
            if index > 0 { text += ",\n" }
            text += #"{"id":\#(index),"x":1234567890.1234567890123456,"y":-98765432109876.543210987,"z":31415926535897932384626e-3}"#
            index += 1
        }
        try (text + "]\n").write(toFile: path, atomically: false, encoding: .utf8)
    }

    @Test("a data file truncated while it loads fails the load with its real end; the shell never crashes and goes on")
    func fileTruncatedWhileLoading() throws {
        let original = home.root + "/numbers.json"
        try Self.numbersFile(megabytes: 24, at: original)
        let path = home.root + "/shrinking.json"
        let session = try PipeSession(["--no-rc"], environment: home.environment(), directory: home.root)
        var outcomes: [String] = []
        for round in 1...Self.truncationRounds {
            try? FileManager.default.removeItem(atPath: path)
            try FileManager.default.copyItem(atPath: original, toPath: path)
            try session.send("load cut\(round) from \(path)")
            let deadline = Deadline(.seconds(20))
            while !Self.uses(session.pid, path), !deadline.hasPassed, !session.hasExited() { pause(milliseconds: 1) }
            // Another program rewrites the file: it is cut to 4 KB under the reader's feet.
            #expect(truncate(path, 4096) == 0)
            try session.send("use countries; count")
            do {
                try session.waitFor("250\n", timeout: .seconds(60))
            } catch {
                break
            }
            let said = session.stderrText.split(separator: "\n").last { $0.contains("cut\(round):") }.map(String.init) ?? "(loaded)"
            outcomes.append(said)
        }
        let status = try session.finish(timeout: .seconds(60))
        #expect(status == 0 || status == 1, """
            the shell died with status \(status)\(status > 128 ? " (signal \(status - 128))" : "") in round \(outcomes.count + 1) \
            of \(Self.truncationRounds) after its data file was truncated during `load`
            --- stderr ---
            \(session.stderrText.tail(1500))
            """)
        #expect(outcomes.count == Self.truncationRounds, "every round ran: \(outcomes.count)")
        for said in outcomes where said != "(loaded)" {
            // The load read the file again and reports where the 4 KB end is, not the zeros
            // that stood in for the vanished pages.
            #expect(said.contains("shrinking.json:") && !said.contains("0x00"), "\(said)")
        }
        ReliabilityLog.record("file truncated while loading", "\(outcomes.count) rounds, status \(status)")
    }

    @Test("a data file emptied or written over with zeros while it loads: the error says the file changed",
          arguments: ["emptied", "zeros"])
    func fileChangedWhileLoading(how: String) throws {
        let path = home.root + "/changing.json"
        try Self.numbersFile(megabytes: 24, at: path)
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        let session = try PipeSession(["--no-rc"], environment: home.environment(), directory: home.root)
        try session.send("load changing from \(path)")
        let deadline = Deadline(.seconds(20))
        while !Self.uses(session.pid, path), !deadline.hasPassed, !session.hasExited() { pause(milliseconds: 1) }
        if how == "emptied" {
            #expect(truncate(path, 0) == 0)
        } else {
            let handle = try #require(FileHandle(forWritingAtPath: path))
            handle.write(Data(count: size))
            try handle.close()
        }
        #expect(try session.finish(timeout: .seconds(60)) == 1)
        let said = session.stderrText.lines.first ?? ""
        let grouped = size.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
        if how == "emptied" {
            #expect(said == "changing: load failed: \(path): was emptied while it loaded (it had \(grouped) bytes)", "\(said)")
        } else {
            #expect(said == "changing: load failed: \(path): changed while it loaded (written over in place); "
                    + "as it is now, at 1:1: expected a value, found byte 0x00", "\(said)")
        }
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
