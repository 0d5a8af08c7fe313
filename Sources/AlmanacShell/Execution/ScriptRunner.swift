#if canImport(Glibc)
import Glibc
#endif

/// Runs lines that come from a pipe, a `-c` option or a file: no prompt, no history,
/// errors as `SOURCE:LINE: message`, and with `--bail` a stop at the first error.
public struct ScriptRunner {
    public let executor: Executor
    public let bail: Bool

    public init(executor: Executor, bail: Bool) {
        self.executor = executor
        self.bail = bail
    }

    /// Runs `lines` named `source`. Returns whether every line succeeded; stops early on
    /// `quit`, on Ctrl-C or a termination signal, and with `bail` on the first failure.
    public func run(_ lines: some Sequence<String>, source: String) -> Bool {
        var succeeded = true
        let interruption = executor.session.interruption
        let interruptsAtStart = interruption.interruptCount
        // A line ending in `\` continues on the next (read as they arrive: a pipe is not waited for).
        var pending: (text: String, line: Int)?
        func run(_ command: (text: String, line: Int)) -> Bool {
            for message in executor.session.notifier.takeMessages() { executor.session.output.message(SafeText.escapeLines(message)) }
            if !executor.run(line: command.text, at: SourceLocation(source: source, line: command.line)) {
                succeeded = false
                if bail { return false }
            }
            return true
        }
        for (index, line) in lines.enumerated() {
            if executor.session.shouldQuit || interruption.terminationRequested { return succeeded }
            if interruption.interruptCount != interruptsAtStart { return false }
            let command = pending.map { (LineContinuation.join($0.text, line), $0.line) } ?? (line, index + 1)
            pending = nil
            if LineContinuation.continues(command.0) { pending = command; continue }
            if !run(command) { return succeeded }
        }
        if let pending, !executor.session.shouldQuit, !interruption.terminationRequested { _ = run(pending) }
        return succeeded
    }
}

/// Lines read from a file descriptor as they arrive, so a pipe is run line by line.
/// Invalid UTF-8 is repaired with U+FFFD; the command that gets it reports the problem.
public struct DescriptorLines: Sequence, IteratorProtocol {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var finished = false

    public init(descriptor: Int32) { self.descriptor = descriptor }

    public mutating func next() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                var line = buffer[..<newline]
                if line.last == 0x0D { line = line.dropLast() }
                let text = String(decoding: line, as: UTF8.self)
                buffer.removeSubrange(...newline)
                return text
            }
            if finished {
                guard !buffer.isEmpty else { return nil }
                defer { buffer.removeAll() }
                return String(decoding: buffer, as: UTF8.self)
            }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
            } else if count < 0, errno == EINTR {
                // A signal: return what we have to the runner, which checks the counters.
                if almanac_signal_count(SIGINT) > 0 || almanac_signal_count(SIGTERM) > 0 || almanac_signal_count(SIGHUP) > 0 { finished = true }
            } else {
                finished = true
            }
        }
    }
}

import CShims
