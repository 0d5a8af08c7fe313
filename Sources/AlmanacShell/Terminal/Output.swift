#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AlmanacCore
import CShims

/// Where command output goes: results to standard output, messages to standard error.
///
/// Results are buffered and written at `flush()` (after each command); a reader that went
/// away (`almanac … | head -1`) ends the process quietly, the way other tools do on SIGPIPE.
public final class Output {
    public enum Stream: Sendable { case output, error }

    /// Receives finished text; the real one writes to the file descriptors, tests capture.
    public typealias Sink = (Stream, String) -> Void

    private let sink: Sink
    private var buffer = ""
    /// Standard output's terminal, re-read on demand because windows change size.
    public var terminal: TerminalInfo
    /// Whether standard error is a terminal (progress bars go there).
    public let errorIsTerminal: Bool
    /// When set, a command's output longer than the terminal goes through this pager.
    public var pager: String?
    /// Machine formats printed on a terminal still must not send the data's control characters
    /// to it: when set, results are escaped as they go out (line breaks kept).
    public var escapesControlCharacters = false
    /// With `escapesControlCharacters`: tabs are TSV's separators, left as they are.
    public var keepsTabs = false
    /// Why writing results failed (a full disk, a closed descriptor), once it has.
    public private(set) var writeFailure: String?
    /// The running command's cancellation (Ctrl-C, a termination signal): once it fires,
    /// results stop at the next line, the rest is dropped, and the command's end says so.
    public private(set) var cancellation = Cancellation.never
    /// Whether this command's results were cut short. Renderers may check it to stop
    /// producing lines nobody will see; printing after it is a no-op.
    public internal(set) var isCut = false

    public init(terminal: TerminalInfo, errorIsTerminal: Bool, sink: @escaping Sink) {
        self.terminal = terminal
        self.errorIsTerminal = errorIsTerminal
        self.sink = sink
    }

    /// The process's own standard output and error (tests give descriptors of their own).
    public static func standard(output descriptor: Int32 = 1, error errorDescriptor: Int32 = 2) -> Output {
        let output = Output(terminal: .current(descriptor: descriptor), errorIsTerminal: isatty(errorDescriptor) == 1) { _, _ in }
        output.writer = { [unowned output] stream, text in
            // A reader that stopped reading blocks the write: a signal interrupts it, and
            // then the command's cancellation decides whether to wait on.
            let result = FileDescriptorWriter.write(text, to: stream == .output ? descriptor : errorDescriptor) {
                stream == .output && output.cancellation.isCancelled
            }
            switch result {
            case .written: break
            case .stopped: output.isCut = true
            case let .failed(failure):
                if stream == .output, output.writeFailure == nil { output.writeFailure = failure }
            }
        }
        return output
    }

    /// Set by `standard()`, which needs the instance to record failures.
    private var writer: Sink?

    /// Starts a command's results: `cancellation` stops them.
    public func beginCommand(cancellation: Cancellation) {
        self.cancellation = cancellation
        isCut = false
    }

    /// Appends `text` and a newline to the results.
    public func print(_ text: String = "") {
        guard !stopsHere() else { return }
        buffer += text
        buffer += "\n"
        flushIfLarge()
    }

    /// Appends `text` as is.
    public func write(_ text: String) {
        guard !stopsHere() else { return }
        buffer += text
        flushIfLarge()
    }

    /// Whether results end here: already cut, or cancelled just now (then the rest is dropped).
    private func stopsHere() -> Bool {
        if isCut { return true }
        guard cancellation.isCancelled else { return false }
        isCut = true
        buffer = ""
        return true
    }

    /// Long output goes out as it comes, unless it may need the pager (then the whole of it
    /// is needed to know).
    private func flushIfLarge() {
        if pager == nil, buffer.utf8.count >= Self.chunkBytes { flush() }
    }

    /// Results go out in pieces of about this size, ending at a line break, with a check for
    /// cancellation between them: ^C stops a 100 MB table within a piece.
    static let chunkBytes = 1 << 16

    /// Ends a command's output: through the pager when it is taller than the terminal; a
    /// note when it was cut short.
    public func endCommand() {
        defer { cancellation = .never }
        if isCut {
            noteCut()
            return
        }
        if let pager, terminal.isTerminal, !buffer.isEmpty {
            var lines = 0
            for byte in buffer.utf8 where byte == 0x0A { lines += 1 }
            if lines >= terminal.rows - 1 {
                let text = escapesControlCharacters ? SafeText.escapeLines(buffer, keepingTabs: keepsTabs) : buffer
                buffer = ""
                if Pager.show(text, command: pager) { return }
                buffer = text
            }
        }
        flush()
    }

    /// A message for the person (errors, warnings, notices), unbuffered, after any pending
    /// results; wrapped to the terminal when standard error is one. A word it quotes is cut
    /// short (`SafeText.shortened`): a 20 MB word given to a command comes back as its first characters.
    public func message(_ text: String) {
        flush()
        let width = errorIsTerminal ? TerminalInfo.current(descriptor: 2).columns : nil
        send(.error, Prose.message(SafeText.shortened(text), width: width) + "\n")
    }

    public func flush() {
        guard !buffer.isEmpty, !stopsHere() else { return }
        var text = escapesControlCharacters ? SafeText.escapeLines(buffer, keepingTabs: keepsTabs) : buffer
        buffer = ""
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let end = Self.pieceEnd(in: bytes, from: offset)
                send(.output, String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self))
                offset = end
                if offset < bytes.count, stopsHere() { return }
            }
        }
    }

    /// Where the piece from `offset` ends: after the last line break within `chunkBytes`
    /// (the end when less is left; after the first break beyond, when one line is longer).
    private static func pieceEnd(in bytes: UnsafeBufferPointer<UInt8>, from offset: Int) -> Int {
        guard bytes.count - offset > chunkBytes, let base = bytes.baseAddress else { return bytes.count }
        // Lines are short next to a piece: the last break is near its end.
        var index = offset + chunkBytes - 1
        while index > offset {
            if base[index] == 0x0A { return index + 1 }
            index -= 1
        }
        if let newline = memchr(base + offset + chunkBytes, 0x0A, bytes.count - offset - chunkBytes) {
            return base.distance(to: newline.assumingMemoryBound(to: UInt8.self)) + 1
        }
        return bytes.count
    }

    /// Says the results were cut short, once, on the message stream; the terminal's colours
    /// are reset in case a line was cut inside one.
    private func noteCut() {
        if terminal.isTerminal { send(.output, "\u{1B}[0m") }
        send(.error, "output cut short: interrupted\n")
    }

    private func send(_ stream: Stream, _ text: String) {
        if let writer { writer(stream, text) } else { sink(stream, text) }
    }

    public func refreshTerminal() {
        if terminal.isTerminal { terminal = .current() }
    }
}

/// Writes all of a string to a descriptor, retrying short writes and interruptions.
public enum FileDescriptorWriter {
    public enum Result: Equatable {
        case written
        /// Interrupted by a signal after which `shouldStop` said to give up.
        case stopped
        case failed(String)
    }

    /// Returns why the write failed, or nil when all of it was written.
    @discardableResult
    public static func write(_ text: String, to descriptor: Int32) -> String? {
        if case let .failed(reason) = write(text, to: descriptor, shouldStop: { false }) { return reason }
        return nil
    }

    /// Writes all of `text`, asking `shouldStop` each time a signal interrupts the write
    /// (`SystemCalls.writeAll`, the one write loop).
    public static func write(_ text: String, to descriptor: Int32, shouldStop: () -> Bool) -> Result {
        switch SystemCalls.writeAll(descriptor, text, shouldStop: shouldStop) {
        case .written: return .written
        case .stopped: return .stopped
        case let .failed(code):
            // The reader is gone: end like `yes | head -1` does, silently.
            if code == EPIPE { almanac_signal_reraise_default(SIGPIPE) }
            return .failed(code == 0 ? "nothing was written" : String(cString: strerror(code)))
        }
    }
}
