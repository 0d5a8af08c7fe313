import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A failure of the harness itself (a timeout, a process that would not start), worded with
/// enough of what the process printed to see why.
struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Default waits: generous, because CI is a loaded two-core machine; a passing test never waits them out.
enum Timeouts {
    static let output: Duration = .seconds(15)
    static let exit: Duration = .seconds(15)
    static let pipeRun: Duration = .seconds(20)
}

/// A point in time after which a wait gives up.
struct Deadline {
    private let end: ContinuousClock.Instant

    init(_ timeout: Duration) { end = .now + timeout }

    var hasPassed: Bool { ContinuousClock.now >= end }

    /// Milliseconds left for poll(2), at most `cap`, at least 0.
    func pollMilliseconds(cap: Int32 = 50) -> Int32 {
        let left = end - .now
        if left <= .zero { return 0 }
        let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
        return Int32(max(0, min(Int64(cap), milliseconds + 1)))
    }
}

/// Sleeps `milliseconds` (for polling loops; never the only synchronisation).
func pause(milliseconds: Int32) {
    _ = poll(nil, 0, milliseconds)
}

/// Busy-waits `microseconds`: for gaps too short for a sleep, between two keys.
func spin(microseconds: Int) {
    let end = ContinuousClock.now + .microseconds(microseconds)
    while ContinuousClock.now < end {}
}

/// Process-wide setup the harness needs once: writing to a pipe whose reader has exited
/// (a child that ends before reading all its input) must be an error, not a SIGPIPE death.
enum HarnessSetup {
    static let once: Void = {
        signal(SIGPIPE, SIG_IGN)
    }()
}

/// Calls `body` with a NULL-terminated C array of copies of `strings` (argv, envp).
func withCStringArray<Result>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) throws -> Result) rethrows -> Result {
    let copies: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
    defer { for copy in copies { free(copy) } }
    return try copies.withUnsafeBufferPointer { try body($0.baseAddress!) }
}

/// A waitpid status as a shell shows it: the exit code, or 128 + the signal number.
func shellStatus(_ status: Int32) -> Int32 {
    let signal = status & 0x7F
    if signal == 0 { return (status >> 8) & 0xFF }
    return 128 + signal
}

/// Reads what is available on the non-blocking `descriptor` into `buffer`.
/// Returns false at end of input (or EIO: a terminal whose other side has gone).
func readAvailable(_ descriptor: Int32, into buffer: inout [UInt8]) -> Bool {
    var chunk = [UInt8](repeating: 0, count: 16_384)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count > 0 {
            buffer.append(contentsOf: chunk[0..<count])
            continue
        }
        if count == 0 { return false }
        switch errno {
        case EINTR: continue
        case EAGAIN: return true
        default: return false  // EIO once the child has closed the terminal
        }
    }
}

func setNonBlocking(_ descriptor: Int32) {
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
}

/// Text roughly as a terminal shows it: ANSI escape sequences removed, a backspace takes back
/// the character before it (libedit echoes some keys as "\b" plus a redraw), carriage returns
/// and other control characters (bell, libedit's prompt markers) dropped; newlines and tabs kept.
enum TerminalText {
    static func strip(_ bytes: [UInt8]) -> String {
        strip(String(decoding: bytes, as: UTF8.self))
    }

    static func strip(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar.value {
            case 0x1B:
                skipEscape(&scalars)
            case 0x9B:  // an 8-bit CSI
                skipControlSequence(&scalars)
            case 0x0A, 0x09:
                result.append(scalar)
            case 0x08:
                // Backspace, then a character: the terminal shows the new one in the old one's place.
                if let last = result.last, last != "\n" { result.removeLast() }
            case 0x00..<0x20, 0x7F:
                continue
            default:
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// Whether `text` holds an SGR (colour) sequence such as `ESC[1;36m`.
    static func containsColor(_ text: String) -> Bool {
        text.range(of: "\u{1B}\\[[0-9;]*m", options: .regularExpression) != nil
    }

    /// After ESC: CSI (`[` … final byte), OSC/DCS/PM/APC (… BEL or ESC \), a charset
    /// designation (`(`, `)` + one), or a two-character sequence. An unfinished one at the
    /// end of the text is dropped whole, so the stripped text only ever grows at its end.
    private static func skipEscape(_ scalars: inout String.UnicodeScalarView.Iterator) {
        guard let next = scalars.next() else { return }
        switch next {
        case "[":
            skipControlSequence(&scalars)
        case "]", "P", "^", "_", "X":
            var previous: Unicode.Scalar = " "
            while let scalar = scalars.next() {
                if scalar == "\u{07}" || (previous == "\u{1B}" && scalar == "\\") { break }
                previous = scalar
            }
        case "(", ")", "*", "+", "#", "%", " ":
            _ = scalars.next()
        default:
            break
        }
    }

    private static func skipControlSequence(_ scalars: inout String.UnicodeScalarView.Iterator) {
        while let scalar = scalars.next() {
            if (0x40...0x7E).contains(scalar.value) { break }
        }
    }
}

extension String {
    /// Control characters shown as escapes, for failure messages.
    var visible: String {
        var result = ""
        for scalar in unicodeScalars {
            switch scalar.value {
            case 0x0A: result += "\\n\n"
            case 0x0D: result += "\\r"
            case 0x1B: result += "\\e"
            case 0x09: result += "\\t"
            case 0x00..<0x20, 0x7F: result += String(format: "\\x%02X", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The last `count` characters, for failure messages.
    func tail(_ count: Int = 1500) -> String {
        self.count <= count ? self : "…" + String(suffix(count))
    }

    /// Lines without the final empty one.
    var lines: [String] {
        var parts = split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if parts.last == "" { parts.removeLast() }
        return parts
    }

    /// The first line (numbered from 1) where `other` differs, with both versions of it; nil
    /// when the two have the same lines. For reporting drift in long generated files briefly.
    func firstDifferentLine(from other: String) -> (number: Int, mine: String, theirs: String)? {
        let mine = lines
        let theirs = other.lines
        for index in 0..<max(mine.count, theirs.count)
        where index >= mine.count || index >= theirs.count || mine[index] != theirs[index] {
            return (index + 1, index < mine.count ? mine[index] : "(end of file)",
                    index < theirs.count ? theirs[index] : "(end of file)")
        }
        return nil
    }
}
