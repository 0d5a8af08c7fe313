#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
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
    /// Why writing results failed (a full disk, a closed descriptor), once it has.
    public private(set) var writeFailure: String?

    public init(terminal: TerminalInfo, errorIsTerminal: Bool, sink: @escaping Sink) {
        self.terminal = terminal
        self.errorIsTerminal = errorIsTerminal
        self.sink = sink
    }

    /// The process's own standard output and error.
    public static func standard() -> Output {
        let output = Output(terminal: .current(), errorIsTerminal: isatty(2) == 1) { _, _ in }
        output.writer = { [unowned output] stream, text in
            if let failure = FileDescriptorWriter.write(text, to: stream == .output ? 1 : 2), stream == .output,
               output.writeFailure == nil {
                output.writeFailure = failure
            }
        }
        return output
    }

    /// Set by `standard()`, which needs the instance to record failures.
    private var writer: Sink?

    /// Appends `text` and a newline to the results.
    public func print(_ text: String = "") {
        buffer += text
        buffer += "\n"
        flushIfLarge()
    }

    /// Appends `text` as is.
    public func write(_ text: String) {
        buffer += text
        flushIfLarge()
    }

    /// Long output goes out as it comes, unless it may need the pager (then the whole of it
    /// is needed to know).
    private func flushIfLarge() {
        if pager == nil, buffer.utf8.count >= 1 << 16 { flush() }
    }

    /// Ends a command's output: through the pager when it is taller than the terminal.
    public func endCommand() {
        if let pager, terminal.isTerminal, !buffer.isEmpty {
            var lines = 0
            for byte in buffer.utf8 where byte == 0x0A { lines += 1 }
            if lines >= terminal.rows - 1 {
                let text = escapesControlCharacters ? SafeText.escapeLines(buffer) : buffer
                buffer = ""
                if Pager.show(text, command: pager) { return }
                buffer = text
            }
        }
        flush()
    }

    /// A message for the person (errors, warnings, notices), unbuffered, after any pending results.
    public func message(_ text: String) {
        flush()
        send(.error, text + "\n")
    }

    public func flush() {
        guard !buffer.isEmpty else { return }
        let text = escapesControlCharacters ? SafeText.escapeLines(buffer) : buffer
        buffer = ""
        send(.output, text)
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
    /// Returns why the write failed, or nil when all of it was written.
    @discardableResult
    public static func write(_ text: String, to descriptor: Int32) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written > 0 { offset += written; continue }
                if written < 0, errno == EINTR || errno == EAGAIN { continue }
                if written < 0, errno == EPIPE {
                    // The reader is gone: end like `yes | head -1` does, silently.
                    almanac_signal_reraise_default(SIGPIPE)
                }
                return written < 0 ? String(cString: strerror(errno)) : "nothing was written"
            }
            return nil
        }
    }
}
