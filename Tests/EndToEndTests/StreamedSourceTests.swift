import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A source that is not a regular file — a device, a pipe, a FIFO, a file of /proc — is read
/// as it streams in and only while it can still be JSON: the load fails at the first byte that
/// cannot be, with the parser's own message, and memory stays where it was.
@Suite("Sources that are not regular files", .serialized)
struct StreamedSourceTests {
    let home: TemporaryHome
    /// Countries in Data/countries.json.
    let countries: Int

    init() throws {
        home = try TemporaryHome()
        countries = (try JSONSerialization.jsonObject(with: Data(DataFolder.realContents("countries"))) as? [Any])?.count ?? -1
    }

    func run(_ commands: [String], input: String = "") throws -> PipeResult {
        try PipeRun.run(["--no-rc"] + commands.flatMap { ["-c", $0] }, input: input, environment: home.environment(),
                        directory: home.root, timeout: .seconds(60))
    }

    /// A FIFO in the home that `script` (run by /bin/sh with its standard output on the FIFO)
    /// writes into; the writer is killed when the test ends.
    func fifo(_ name: String, writtenBy script: String) throws -> (path: String, writer: Process) {
        let path = home.root + "/" + name
        guard mkfifo(path, 0o600) == 0 else { throw HarnessError("mkfifo failed") }
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = ["-c", "exec >'\(path)'; " + script]
        try writer.run()
        return (path, writer)
    }

    @Test("/dev/zero and /dev/urandom fail at their first bytes, and the load costs no memory",
          arguments: ["/dev/zero", "/dev/urandom"])
    func endlessDevice(device: String) throws {
        let session = try PipeSession(["--no-rc"], environment: home.environment(), directory: home.root)
        try session.send("use countries; count")
        try session.waitFor("\(countries)\n", timeout: .seconds(60))
        let before = session.memory("VmHWM") ?? 0
        let started = ContinuousClock.now
        try session.send("load x from \(device)")
        let message = try session.waitFor("stdin:2: 1 load failed\n", onError: true, timeout: .seconds(30))
        let milliseconds = ReliabilityLog.milliseconds(ContinuousClock.now - started)
        let after = session.memory("VmHWM") ?? .max
        if device == "/dev/zero" {
            #expect(message == "x: load failed: /dev/zero:1:1: expected a value, found byte 0x00\n")
        } else {
            // Random bytes: the first or one of the next few cannot be JSON; whitespace first
            // (a newline one time in 256) puts that byte on a later line.
            let position = message.dropFirst("x: load failed: /dev/urandom:".count).prefix { $0 != " " }
            let numbers = position.split(separator: ":").compactMap { Int($0) }
            #expect(message.hasPrefix("x: load failed: /dev/urandom:") && numbers.count == 2 && numbers[0] <= 16,
                    "\(message)")
        }
        #expect(after - before < 16 << 20, "peak \(before >> 20) MB before the load, \(after >> 20) MB after")
        // The shell goes on, the dataset in use as it was.
        try session.send("count")
        try session.waitFor("\(countries)\n")
        #expect(try session.finish() == 1)
        ReliabilityLog.record("load from \(device)", String(format: "failed after %.0f ms, peak RSS +%d MB", milliseconds, (after - before) >> 20))
    }

    @Test("a file of /proc (size 0, its text made as it is read) is read, not taken for empty")
    func procFile() throws {
        let result = try run(["load x from /proc/self/status"])
        #expect(result.stderr.lines == ["x: load failed: /proc/self/status:1:1: expected a value, found 'N'", "-c:1: 1 load failed"], "\(result)")
        #expect(result.status == 1)
    }

    @Test("a FIFO whose writer never stops: the load fails at the first bad byte, not at an end that never comes")
    func endlessFIFO() throws {
        let (path, writer) = try fifo("feed.json", writtenBy: #"printf '[{"name": "a"},\n {"name": "b"} x'; exec cat /dev/zero"#)
        defer { writer.terminate() }
        let result = try run(["load x from feed.json", "datasets x"])
        #expect(result.stderr.lines.first == "x: load failed: feed.json:2:16: expected ',' or ']', found 'x'", "\(result)")
        #expect(result.status == 1)
        _ = path
    }

    @Test("a string that streams on past the parser's limit stops near it, with the parser's error")
    func endlessString() throws {
        let (_, writer) = try fifo("string.json", writtenBy: #"printf '["'; yes | tr -d '\n'"#)
        defer { writer.terminate() }
        let result = try run(["load x from string.json"])
        #expect(result.stderr.lines == ["x: load failed: string.json:1:2: a string of 4 MiB or more (the limit)", "-c:1: 1 load failed"],
                "\(result)")
    }

    @Test("/dev/stdin on a pipe: a whole dataset read from standard input")
    func standardInput() throws {
        let text = String(decoding: try DataFolder.realContents("countries"), as: UTF8.self)
        let result = try run(["load x from /dev/stdin", "use x", "count"], input: text)
        #expect(result.stdout == "\(countries)\n", "\(result)")
        #expect(result.status == 0, "\(result)")
    }

    @Test("a folder is refused by name")
    func folder() throws {
        _ = try home.makeFolder("a folder")
        let result = try run(["load x from 'a folder'"])
        #expect(result.stderr.lines == ["x: load failed: a folder: is a directory, not a file", "-c:1: 1 load failed"], "\(result)")
    }
}
