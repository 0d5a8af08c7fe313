import CPTY
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a run of almanac with raw bytes on standard input produced, with its resource usage.
struct ByteRunResult: Sendable, CustomStringConvertible {
    let arguments: [String]
    /// Standard output, or only its last 64 KB when the run was asked not to keep it all.
    let standardOutput: [UInt8]
    /// How many bytes standard output had in all.
    let outputByteCount: Int
    let standardError: [UInt8]
    /// The exit code, or 128 + the signal number that ended the process; nil when it was killed
    /// by the harness (timed out, or printed nothing for too long).
    let status: Int32?
    /// Why the harness killed it, when it did.
    let killedBecause: String?
    /// Peak resident memory of the process, in bytes (wait4's ru_maxrss). An upper bound only:
    /// after posix_spawn (vfork + exec) Linux counts the test runner's own peak in it too; read
    /// /proc/PID/status (PipeSession.memory) for the process's own.
    let peakResidentBytes: Int
    let seconds: Double

    var stdout: String { String(decoding: standardOutput, as: UTF8.self) }
    var stderr: String { String(decoding: standardError, as: UTF8.self) }

    /// Whether it ended by itself with 0 or 1 (no signal, no harness kill).
    var endedNormally: Bool { status == 0 || status == 1 }

    var description: String {
        """
        almanac \(arguments.map { "'\($0)'" }.joined(separator: " ")) \(status.map { "exited \($0)" } ?? "was killed: \(killedBecause ?? "?")") \
        after \(String(format: "%.1f", seconds)) s, peak RSS \(peakResidentBytes >> 20) MB
        --- stdout (\(outputByteCount) bytes, tail) ---
        \(stdout.tail(800).visible)
        --- stderr (tail) ---
        \(stderr.tail(1500).visible)
        """
    }
}

/// Runs almanac with raw bytes (invalid UTF-8 and NUL included) on standard input, output
/// and error on pipes, and reaps it with wait4 so its own peak memory is known.
enum ByteRun {
    /// - Parameters:
    ///   - keepOutput: keep all of standard output (else its count and last 64 KB).
    ///   - niceness: run the child at this nice level, so a long fuzz soaks up idle CPU
    ///     without slowing the timing-sensitive tests that run beside it.
    ///   - idleTimeout: kill it when it prints nothing for this long (a hang).
    ///   - timeout: kill it when it runs longer than this.
    static func run(
        _ arguments: [String] = [],
        input: [UInt8],
        environment: TestEnvironment,
        directory: String? = nil,
        keepOutput: Bool = true,
        niceness: Int32 = 0,
        idleTimeout: Duration = .seconds(60),
        timeout: Duration = .seconds(300)
    ) throws -> ByteRunResult {
        HarnessSetup.once
        let binary = AlmanacBinary.path
        var inputPipe: [Int32] = [-1, -1]
        var outputPipe: [Int32] = [-1, -1]
        var errorPipe: [Int32] = [-1, -1]
        defer {
            for descriptor in inputPipe + outputPipe + errorPipe where descriptor >= 0 { close(descriptor) }
        }
        guard cpty_pipe(&inputPipe) == 0, cpty_pipe(&outputPipe) == 0, cpty_pipe(&errorPipe) == 0 else {
            throw HarnessError("pipe failed: \(String(cString: strerror(errno)))")
        }
        let started = ContinuousClock.now
        let pid: pid_t = withCStringArray([binary] + arguments) { argv in
            withCStringArray(environment.entries) { envp in
                cpty_spawn_piped(binary, argv, envp, inputPipe[0], outputPipe[1], errorPipe[1], directory)
            }
        }
        guard pid > 0 else { throw HarnessError("cannot start \(binary) (set ALMANAC_BIN to the binary)") }
        if niceness != 0 { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(pid), niceness) }
        close(inputPipe[0]); inputPipe[0] = -1
        close(outputPipe[1]); outputPipe[1] = -1
        close(errorPipe[1]); errorPipe[1] = -1
        for descriptor in [inputPipe[1], outputPipe[0], errorPipe[0]] { setNonBlocking(descriptor) }
        if input.isEmpty { close(inputPipe[1]); inputPipe[1] = -1 }

        let deadline = Deadline(timeout)
        var lastActivity = ContinuousClock.now
        var written = 0
        var output: [UInt8] = []
        var outputCount = 0
        var error: [UInt8] = []
        var outputOpen = true
        var errorOpen = true
        var killedBecause: String?

        while outputOpen || errorOpen {
            if deadline.hasPassed { killedBecause = "still running after \(timeout)"; break }
            if ContinuousClock.now - lastActivity > idleTimeout {
                killedBecause = "no output and no input taken for \(idleTimeout) (a hang?)"
                break
            }
            var descriptors: [pollfd] = []
            if outputOpen { descriptors.append(pollfd(fd: outputPipe[0], events: Int16(POLLIN), revents: 0)) }
            if errorOpen { descriptors.append(pollfd(fd: errorPipe[0], events: Int16(POLLIN), revents: 0)) }
            if inputPipe[1] >= 0 { descriptors.append(pollfd(fd: inputPipe[1], events: Int16(POLLOUT), revents: 0)) }
            let ready = poll(&descriptors, nfds_t(descriptors.count), 100)
            if ready < 0 && errno != EINTR { throw HarnessError("poll failed: \(String(cString: strerror(errno)))") }
            for entry in descriptors where entry.revents != 0 {
                if entry.fd == outputPipe[0] {
                    let before = output.count
                    outputOpen = readAvailable(entry.fd, into: &output)
                    outputCount += output.count - before
                    if output.count != before { lastActivity = .now }
                    if !keepOutput, output.count > 1 << 17 { output.removeFirst(output.count - (1 << 16)) }
                } else if entry.fd == errorPipe[0] {
                    let before = error.count
                    errorOpen = readAvailable(entry.fd, into: &error)
                    if error.count != before { lastActivity = .now }
                } else if entry.fd == inputPipe[1] {
                    let count = input.withUnsafeBytes { bytes in
                        write(entry.fd, bytes.baseAddress! + written, min(bytes.count - written, 1 << 16))
                    }
                    if count > 0 { written += count; lastActivity = .now }
                    if written == input.count || (count < 0 && errno != EAGAIN && errno != EINTR) {
                        close(inputPipe[1]); inputPipe[1] = -1
                    }
                }
            }
        }
        if inputPipe[1] >= 0 { close(inputPipe[1]); inputPipe[1] = -1 }
        if killedBecause != nil { kill(pid, SIGKILL) }
        // Output closed: the process is ending (or was killed); collect it with its usage.
        let reapDeadline = Deadline(killedBecause == nil ? Timeouts.exit : .seconds(5))
        var status: Int32 = 0
        var usage = rusage()
        while true {
            let result = wait4(pid, &status, WNOHANG, &usage)
            if result == pid { break }
            if result < 0 && errno != EINTR { throw HarnessError("wait4 failed: \(String(cString: strerror(errno)))") }
            if reapDeadline.hasPassed {
                killedBecause = killedBecause ?? "closed its output but did not exit within \(Timeouts.exit)"
                kill(pid, SIGKILL)
            }
            pause(milliseconds: 5)
        }
        let elapsed = ContinuousClock.now - started
        return ByteRunResult(
            arguments: arguments, standardOutput: output, outputByteCount: outputCount, standardError: error,
            status: killedBecause == nil ? shellStatus(status) : nil, killedBecause: killedBecause,
            peakResidentBytes: Int(usage.ru_maxrss) * 1024,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
}

/// almanac kept running with standard input on a pipe, fed a line at a time, so a test can
/// look at the process (its memory in /proc) between commands.
final class PipeSession {
    let pid: pid_t
    private var input: Int32
    private let outputDescriptor: Int32
    private let errorDescriptor: Int32
    private(set) var output: [UInt8] = []
    private(set) var error: [UInt8] = []
    private var outputMark = 0
    private var errorMark = 0
    private var exitStatus: Int32?

    init(_ arguments: [String] = [], environment: TestEnvironment, directory: String? = nil) throws {
        HarnessSetup.once
        let binary = AlmanacBinary.path
        var inputPipe: [Int32] = [-1, -1]
        var outputPipe: [Int32] = [-1, -1]
        var errorPipe: [Int32] = [-1, -1]
        guard cpty_pipe(&inputPipe) == 0, cpty_pipe(&outputPipe) == 0, cpty_pipe(&errorPipe) == 0 else {
            throw HarnessError("pipe failed: \(String(cString: strerror(errno)))")
        }
        let pid: pid_t = withCStringArray([binary] + arguments) { argv in
            withCStringArray(environment.entries) { envp in
                cpty_spawn_piped(binary, argv, envp, inputPipe[0], outputPipe[1], errorPipe[1], directory)
            }
        }
        close(inputPipe[0]); close(outputPipe[1]); close(errorPipe[1])
        guard pid > 0 else {
            close(inputPipe[1]); close(outputPipe[0]); close(errorPipe[0])
            throw HarnessError("cannot start \(binary)")
        }
        self.pid = pid
        input = inputPipe[1]
        outputDescriptor = outputPipe[0]
        errorDescriptor = errorPipe[0]
        setNonBlocking(outputDescriptor)
        setNonBlocking(errorDescriptor)
    }

    deinit {
        if exitStatus == nil { killAndReap(pid) }
        if input >= 0 { close(input) }
        close(outputDescriptor)
        close(errorDescriptor)
    }

    /// Sends `line` and a newline.
    func send(_ line: String) throws {
        let bytes = Array((line + "\n").utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(input, $0.baseAddress! + written, $0.count - written) }
            if count > 0 { written += count; continue }
            if count < 0 && errno != EINTR { throw HarnessError("cannot write to almanac: \(String(cString: strerror(errno)))") }
        }
    }

    /// Closes standard input: the shell runs what it has and exits.
    func closeInput() {
        if input >= 0 { close(input); input = -1 }
    }

    /// Reads what the process wrote, waiting up to `milliseconds` for something.
    func drain(waitingUpTo milliseconds: Int32) {
        var descriptors = [pollfd(fd: outputDescriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: errorDescriptor, events: Int16(POLLIN), revents: 0)]
        guard poll(&descriptors, 2, milliseconds) > 0 else { return }
        _ = readAvailable(outputDescriptor, into: &output)
        _ = readAvailable(errorDescriptor, into: &error)
    }

    /// Waits until standard output (`onError`: standard error) has `needle` after the previous
    /// match; returns what came before it.
    @discardableResult
    func waitFor(_ needle: String, onError: Bool = false, timeout: Duration = Timeouts.output) throws -> String {
        let deadline = Deadline(timeout)
        let wanted = Array(needle.utf8)
        while true {
            let bytes = onError ? error : output
            let mark = onError ? errorMark : outputMark
            if let end = bytes.findBytes(wanted, from: mark) {
                if onError { errorMark = end.upperBound } else { outputMark = end.upperBound }
                return String(decoding: bytes[mark..<end.lowerBound], as: UTF8.self)
            }
            if deadline.hasPassed || hasExited() {
                drain(waitingUpTo: 20)
                throw HarnessError("""
                    did not see '\(needle.visible)' on \(onError ? "stderr" : "stdout") within \(timeout) \
                    (\(exitStatus.map { "exited \($0)" } ?? "running"))
                    --- stdout ---
                    \(String(decoding: output, as: UTF8.self).tail(800).visible)
                    --- stderr ---
                    \(String(decoding: error, as: UTF8.self).tail(800).visible)
                    """)
            }
            drain(waitingUpTo: deadline.pollMilliseconds(cap: 50))
        }
    }

    /// A line of /proc/PID/status (`VmRSS`, `VmHWM`) in bytes.
    func memory(_ key: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
            let digits = line.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            if let kilobytes = digits.first { return kilobytes * 1024 }
        }
        return nil
    }

    func hasExited() -> Bool {
        if exitStatus != nil { return true }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid {
            exitStatus = shellStatus(status)
            return true
        }
        return false
    }

    /// Closes standard input and waits for the exit status.
    func finish(timeout: Duration = Timeouts.exit) throws -> Int32 {
        closeInput()
        let deadline = Deadline(timeout)
        while !hasExited() {
            if deadline.hasPassed {
                exitStatus = killAndReap(pid)
                throw HarnessError("almanac did not exit within \(timeout) of its input closing")
            }
            drain(waitingUpTo: 10)
        }
        drain(waitingUpTo: 0)
        return exitStatus ?? -1
    }

    var stderrText: String { String(decoding: error, as: UTF8.self) }
    var stdoutText: String { String(decoding: output, as: UTF8.self) }
}

extension Array where Element == UInt8 {
    /// The first occurrence of `needle` at or after `start`.
    func findBytes(_ needle: [UInt8], from start: Int = 0) -> Range<Int>? {
        guard !needle.isEmpty, count - start >= needle.count, start >= 0 else { return nil }
        let first = needle[0]
        var index = start
        let last = count - needle.count
        while index <= last {
            if self[index] == first, self[index..<(index + needle.count)].elementsEqual(needle) {
                return index..<(index + needle.count)
            }
            index += 1
        }
        return nil
    }

    func contains(bytes needle: [UInt8]) -> Bool { findBytes(needle) != nil }
}

/// Numbers the reliability tests measure, printed as `RELIABILITY name: value` lines so the
/// figures in RELIABILITY.md can be taken from a test log.
enum ReliabilityLog {
    static func record(_ name: String, _ value: String) {
        print("RELIABILITY \(name): \(value)")
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    static func format(_ values: [Double]) -> String {
        "median \(String(format: "%.0f", median(values))) ms, max \(String(format: "%.0f", values.max() ?? .nan)) ms, "
            + "n=\(values.count) [\(values.map { String(format: "%.0f", $0) }.joined(separator: ", "))]"
    }
}
