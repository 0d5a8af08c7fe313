import CPTY
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension HeavyReliabilityTests {
/// Script input that never ends or whose lines never end: memory stays bounded, an over-long
/// line is one error and reading goes on, and SIGTERM or SIGINT end the process within 200 ms
/// whatever it is doing with a line — reading, parsing, running or writing its result.
@Suite("Endless input and signals in scripts", .serialized)
struct EndlessInputTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    /// The bound a signal's exit is asserted against: the guarantee is 200 ms (the figure is
    /// recorded), the margin is for a loaded machine.
    static let exitBound: Double = 1000

    /// A descriptor for a new file in the home (output nobody needs to read as it comes).
    func outputFile(_ name: String) -> Int32 {
        open(home.root + "/" + name, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    }

    enum Phase: String, CaseIterable, CustomTestStringConvertible {
        case readingEmptyLines = "reading endless empty lines"
        case skippingLongLines = "skipping endless 1.5 MB lines of NUL bytes"
        case parsingAndRunning = "parsing and running 1 MB command lines"
        case writing = "writing a result to a reader that stopped reading"
        var testDescription: String { rawValue }
    }

    @Test("SIGTERM and SIGINT end a script within 200 ms whatever it is doing with a line",
          arguments: Phase.allCases, [SIGTERM, SIGINT])
    func signalEndsTheScript(phase: Phase, signal: Int32) throws {
        let errorPath = home.root + "/stderr-\(phase)-\(signal)"
        let error = open(errorPath, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer { close(error) }
        var input: Int32 = -1
        var output = outputFile("stdout-\(phase)-\(signal)")
        var unread: Int32 = -1
        var feeder: pid_t?
        defer {
            for descriptor in [input, output, unread] where descriptor >= 0 { close(descriptor) }
        }
        switch phase {
        case .readingEmptyLines, .skippingLongLines:
            let script = phase == .readingEmptyLines ? "exec yes ''" : "while :; do head -c 1500000 /dev/zero; echo; done"
            let fed = try SignalledRun.feeder(script, directory: home.root)
            (input, feeder) = (fed.output, fed.pid)
        case .parsingAndRunning:
            // Words the tokenizer splits one by one and search then looks for.
            let line = "search " + String(repeating: "ab ", count: 340_000)
            #expect(line.utf8.count < 1 << 20)
            try home.write(Array(repeating: line, count: 20).joined(separator: "\n") + "\n", to: "long-lines.txt")
            input = open(home.root + "/long-lines.txt", O_RDONLY | O_CLOEXEC)
        case .writing:
            try home.write("use stations\nset format json\n" + String(repeating: "search а\n", count: 20), to: "writing.txt")
            input = open(home.root + "/writing.txt", O_RDONLY | O_CLOEXEC)
            var pipe: [Int32] = [-1, -1]
            #expect(cpty_pipe(&pipe) == 0)
            close(output)
            (output, unread) = (pipe[1], pipe[0])
        }
        let run = try SignalledRun(["--no-rc"], input: input, output: output, error: error,
                                   environment: home.environment(), directory: home.root, feeder: feeder)
        // Ready: the phase is under way.
        let deadline = Deadline(.seconds(60))
        switch phase {
        case .readingEmptyLines, .parsingAndRunning:
            pause(milliseconds: 400)
        case .skippingLongLines:
            while !(home.read(errorPath) ?? "").contains("longer than 1 MiB"), !deadline.hasPassed, run.isRunning { pause(milliseconds: 5) }
        case .writing:
            // Output has begun, and the pipe (64 KB) is full long before this pause ends.
            var ready = pollfd(fd: unread, events: Int16(POLLIN), revents: 0)
            while poll(&ready, 1, 50) == 0, !deadline.hasPassed, run.isRunning {}
            pause(milliseconds: 400)
        }
        #expect(run.isRunning, "\(phase): almanac ended before the signal: \(home.read(errorPath)?.tail(600) ?? "")")
        let (status, milliseconds) = run.signal(signal)
        #expect(status == 128 + signal, "\(phase): status \(status.map(String.init) ?? "none: killed after 10 s")")
        #expect(milliseconds < Self.exitBound, "\(phase): \(String(format: "%.0f", milliseconds)) ms from signal \(signal) to exit")
        let note = phase == .writing ? ((home.read(errorPath) ?? "").contains("output cut short") ? ", output cut with a note" : ", ended by the watchdog") : ""
        ReliabilityLog.record("signal \(signal) while \(phase.rawValue)", String(format: "exit after %.0f ms%@", milliseconds, note))
    }

    @Test("/dev/zero as standard input or as a script: two errors, then reading stops; no growth, no spin",
          arguments: ["stdin", "-f"])
    func deviceOfZeros(how: String) throws {
        let zero = open("/dev/zero", O_RDONLY | O_CLOEXEC)
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        let error = outputFile("zeros-\(how)")
        let output = outputFile("zeros-out-\(how)")
        defer { [zero, null, error, output].forEach { close($0) } }
        let run = try SignalledRun(["--no-rc"] + (how == "-f" ? ["-f", "/dev/zero"] : []), input: how == "-f" ? null : zero,
                                   output: output, error: error, environment: home.environment(), directory: home.root)
        let started = ContinuousClock.now
        let status = run.waitForExit(timeout: .seconds(30))
        let seconds = ReliabilityLog.milliseconds(ContinuousClock.now - started) / 1000
        let source = how == "-f" ? "/dev/zero" : "stdin"
        #expect(status == 1)
        #expect(home.read(home.root + "/zeros-\(how)")?.lines == [
            "\(source):1: the line is longer than 1 MiB, the limit for a command line; skipped",
            "\(source):1: no line break in the next 64 MiB either: this is not a script; stopped reading \(source)",
        ])
        ReliabilityLog.record("/dev/zero as \(how)", String(format: "ended by itself after %.2f s, status %d", seconds, status ?? -1))
    }

    @Test("a startup file that links to /dev/zero costs no memory: the shell starts and answers")
    func startupFileOfZeros() throws {
        func peak(startupFile: Bool) throws -> (Int, PipeSession) {
            try? FileManager.default.removeItem(atPath: home.startupFilePath)
            if startupFile {
                try FileManager.default.createDirectory(atPath: home.configHome + "/almanac", withIntermediateDirectories: true)
                try FileManager.default.createSymbolicLink(atPath: home.startupFilePath, withDestinationPath: "/dev/zero")
            }
            let session = try PipeSession([], environment: home.environment(), directory: home.root)
            try session.send("use countries; count")
            try session.waitFor("250\n", timeout: .seconds(60))
            return (session.memory("VmHWM") ?? 0, session)
        }
        let (baseline, plain) = try peak(startupFile: false)
        #expect(try plain.finish() == 0)
        let (withZeros, session) = try peak(startupFile: true)
        #expect(try session.finish() == 1)
        #expect(session.stderrText.lines == [
            "\(home.startupFilePath):1: the line is longer than 1 MiB, the limit for a command line; skipped",
            "\(home.startupFilePath):1: no line break in the next 64 MiB either: this is not a script; stopped reading \(home.startupFilePath)",
        ])
        #expect(withZeros < baseline + (32 << 20), "peak \(withZeros >> 20) MB against \(baseline >> 20) MB without the startup file")
        ReliabilityLog.record("startup file linked to /dev/zero", "peak RSS \(withZeros >> 20) MB (without it: \(baseline >> 20) MB)")
    }

    @Test("a line over 1 MiB is one error naming the limit, and the lines after it run",
          arguments: ["stdin", "-f", "startup file"])
    func overLongLine(how: String) throws {
        let script = "use countries\n" + String(repeating: "x", count: 2 << 20) + "\ncount\n"
        let path = how == "startup file" ? home.startupFilePath : home.root + "/long.txt"
        try home.write(script, to: path)
        let arguments = how == "-f" ? ["-f", path] : how == "stdin" ? ["--no-rc"] : ["-c", "count"]
        let result = try PipeRun.run(arguments, input: how == "stdin" ? script : "", environment: home.environment(),
                                     directory: home.root, timeout: .seconds(60))
        let source = how == "stdin" ? "stdin" : path
        #expect(result.stdout == (how == "startup file" ? "250\n250\n" : "250\n"), "\(result)")
        #expect(result.stderr == "\(source):2: the line is longer than 1 MiB, the limit for a command line; skipped\n", "\(result)")
        #expect(result.status == 1)
    }

    @Test("an error quotes a few dozen characters of a huge word, not the word")
    func hugeWordInAnError() throws {
        let word = "frobnicate" + String(repeating: "y", count: 900_000)
        let piped = try PipeRun.run(["--no-rc"], input: word + "\n", environment: home.environment(), directory: home.root)
        #expect(piped.stderr == "stdin:1:1: unknown command 'frobnicate\(String(repeating: "y", count: 49))…' — type 'help' for the list\n")
        // An argument (at most 128 KB on Linux) quoted back by a command.
        let sortWord = String(repeating: "z", count: 100_000)
        let option = try PipeRun.run(["--no-rc", "-c", "use countries", "-c", "sort name \(sortWord)"], environment: home.environment(),
                                     directory: home.root)
        #expect(option.status == 1)
        #expect(option.stderr.utf8.count < 300, "\(option.stderr.utf8.count) bytes of error: \(option.stderr.prefix(300))")
        #expect(option.stderr.contains(String(repeating: "z", count: 20) + "…"), "\(option.stderr.prefix(300))")
    }
}
}
