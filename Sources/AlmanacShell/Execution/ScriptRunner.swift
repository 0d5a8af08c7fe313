#if canImport(Glibc)
import Glibc
#endif
import AlmanacCore
import CShims

/// Runs lines that come from a pipe, a `-c` option or a file: no prompt, no history,
/// errors as `SOURCE:LINE: message`, and with `--bail` a stop at the first error.
public struct ScriptRunner {
    public let executor: Executor
    public let bail: Bool

    public init(executor: Executor, bail: Bool) {
        self.executor = executor
        self.bail = bail
    }

    /// Runs `lines` named `source` (each checked against the length bound), the first
    /// numbered `firstLine`.
    public func run(_ lines: some Sequence<String>, source: String, firstLine: Int = 1) -> Bool {
        run(lines.lazy.map(ScriptLine.init), source: source, firstLine: firstLine)
    }

    /// Runs `lines` named `source`. Returns whether every line succeeded; stops early on
    /// `quit`, on Ctrl-C or a termination signal, and with `bail` on the first failure.
    public func run(_ lines: some Sequence<ScriptLine>, source: String, firstLine: Int = 1) -> Bool {
        var succeeded = true
        let interruption = executor.session.interruption
        let interruptsAtStart = interruption.interruptCount
        func fail(_ message: String, line: Int) -> Bool {
            executor.report(ShellError.invalid(message), at: SourceLocation(source: source, line: line))
            succeeded = false
            return !bail
        }
        // One line, one command: a script's errors keep their line numbers (a trailing `\` is an
        // error on its line; only the prompt and the editor's file continue lines).
        for (offset, line) in lines.enumerated() {
            let index = offset + firstLine - 1
            if executor.session.shouldQuit || interruption.terminationRequested { return succeeded }
            if interruption.interruptCount != interruptsAtStart { return false }
            switch line {
            case let .text(text):
                for message in executor.session.notifier.takeMessages() { executor.session.output.message(SafeText.escapeLines(message)) }
                if !executor.run(line: text, at: SourceLocation(source: source, line: index + 1)) {
                    succeeded = false
                    if bail { return succeeded }
                }
            case .tooLong:
                if !fail("the line is longer than \(ScriptLine.limitText), the limit for a command line; skipped", line: index + 1) {
                    return succeeded
                }
            case .endless:
                // Still the over-long line reported last.
                _ = fail("no line break in the next \(ScriptLine.endlessText) either: this is not a script; stopped reading \(source)",
                         line: index)
                return false
            case let .unreadable(reason):
                executor.session.output.message("\(SafeText.excerpt(source)): cannot read: \(reason)")
                return false
            }
        }
        return succeeded
    }
}

/// One line of a script, as a reader hands it over.
public enum ScriptLine: Sendable, Equatable {
    case text(String)
    /// A line over `maximumBytes`: reported and skipped, never held whole.
    case tooLong
    /// The skipped line went on for `endlessBytes` more without a line break (`/dev/zero`):
    /// the input is not a script, and reading it stops.
    case endless
    /// Reading failed (a folder, an I/O error).
    case unreadable(String)

    /// The longest command line: far beyond anything typed or generated for real, and small
    /// enough that holding and tokenizing one stays cheap.
    public static let maximumBytes = 1 << 20
    /// How much of one over-long line is skipped before the input is given up.
    public static let endlessBytes = 64 << 20

    static var limitText: String { "1 MiB" }
    static var endlessText: String { "64 MiB" }

    /// A line given whole (`-c`), checked against the bound.
    public init(_ text: String) {
        self = text.utf8.count > Self.maximumBytes ? .tooLong : .text(text)
    }
}

/// Lines read from a file descriptor as they arrive, so a pipe is run line by line. A line
/// longer than `ScriptLine.maximumBytes` is skipped as it streams past (memory stays near the
/// bound, whatever comes in); a termination signal or Ctrl-C ends the lines at once, even
/// while a line without end is pouring in. Invalid UTF-8 is repaired with U+FFFD; the command
/// that gets it reports the problem. A UTF-8 byte order mark at the start is skipped, as CSV
/// loading skips it (Windows editors write one; it would be part of the first command's name).
public struct DescriptorLines: Sequence, IteratorProtocol {
    private let descriptor: Int32
    private let notifier: Notifier?
    private var buffer: [UInt8] = []
    /// Where the line being read starts in `buffer`, and where the search for its break goes on.
    private var start = 0
    private var scanned = 0
    private var finished = false
    /// Bytes of an over-long line skipped so far (nil while not skipping).
    private var skipping: Int?
    /// Whether no line was given yet (the one a byte order mark may begin).
    private var atFirstLine = true
    private let signalsAtStart: (interrupts: UInt, terminations: UInt)

    /// `notifier`: its pipe becomes readable when a signal arrives, so a read waiting for
    /// input notices the signal.
    public init(descriptor: Int32, notifier: Notifier? = nil) {
        self.descriptor = descriptor
        self.notifier = notifier
        signalsAtStart = Self.signalCounts()
    }

    private static func signalCounts() -> (interrupts: UInt, terminations: UInt) {
        (almanac_signal_count(SIGINT), almanac_signal_count(SIGTERM) + almanac_signal_count(SIGHUP))
    }

    private var signalled: Bool {
        let now = Self.signalCounts()
        return now.interrupts != signalsAtStart.interrupts || now.terminations != signalsAtStart.terminations
    }

    public mutating func next() -> ScriptLine? {
        while true {
            if let skipped = skipping {
                // Drop what came in up to the line break; the line was reported when it
                // crossed the bound.
                if let newline = lineBreak(from: scanned) {
                    start = newline + 1
                    scanned = start
                    skipping = nil
                    continue
                }
                let total = skipped + buffer.count - start
                buffer.removeAll(keepingCapacity: true)
                (start, scanned) = (0, 0)
                if total > ScriptLine.endlessBytes {
                    finished = true
                    skipping = nil
                    return .endless
                }
                skipping = total
            } else if let newline = lineBreak(from: scanned) {
                var end = newline
                if end > start, buffer[end - 1] == 0x0D { end -= 1 }
                let text = line(start..<end)
                start = newline + 1
                scanned = start
                return text
            } else if buffer.count - start > ScriptLine.maximumBytes {
                atFirstLine = false
                skipping = buffer.count - start
                buffer.removeAll(keepingCapacity: true)
                (start, scanned) = (0, 0)
                return .tooLong
            } else {
                scanned = buffer.count
            }
            if finished {
                guard skipping == nil, start < buffer.count else { return nil }
                defer { buffer.removeAll() }
                return line(start..<buffer.count)
            }
            if signalled { return nil }
            if start > 0 {
                buffer.removeSubrange(..<start)
                scanned -= start
                start = 0
            }
            switch readChunk() {
            case .data, .interrupted: break
            case .end: finished = true
            case let .failed(reason):
                finished = true
                buffer.removeAll()
                skipping = nil
                return .unreadable(reason)
            }
        }
    }

    /// The line in `range` of the buffer, without the byte order mark the first may begin with.
    private mutating func line(_ range: Range<Int>) -> ScriptLine {
        var range = range
        if atFirstLine { range = range.lowerBound + ByteOrderMark.length(atStartOf: buffer[range])..<range.upperBound }
        atFirstLine = false
        return .text(String(decoding: buffer[range], as: UTF8.self))
    }

    /// The first line break at or after `index` (memchr: this runs over every byte of input).
    private func lineBreak(from index: Int) -> Int? {
        guard index < buffer.count else { return nil }
        return buffer.withUnsafeBytes { bytes in
            memchr(bytes.baseAddress! + index, 0x0A, bytes.count - index).map { bytes.baseAddress!.distance(to: UnsafeRawPointer($0)) }
        }
    }

    private enum ChunkRead { case data, interrupted, end, failed(String) }

    /// Reads what is there, waiting (on the descriptor and the notifier's pipe) until something is.
    private mutating func readChunk() -> ChunkRead {
        if let notifier {
            var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: notifier.readDescriptor, events: Int16(POLLIN), revents: 0)]
            _ = poll(&descriptors, 2, 1000)
            if descriptors[1].revents != 0 { notifier.drain() }
            if descriptors[0].revents == 0 { return .interrupted }
        }
        let chunkSize = 1 << 16
        var failure: Int32 = 0
        var count = 0
        let chunk = [UInt8](unsafeUninitializedCapacity: chunkSize) { chunk, initialized in
            count = read(descriptor, chunk.baseAddress, chunkSize)
            failure = errno
            initialized = Swift.max(count, 0)
        }
        buffer.append(contentsOf: chunk)
        if count > 0 { return .data }
        if count == 0 { return .end }
        if failure == EINTR || failure == EAGAIN { return .interrupted }
        return .failed(String(cString: strerror(failure)).lowercased())
    }
}
