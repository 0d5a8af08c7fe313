import CPTY
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Keys as a terminal sends them.
enum Key {
    static let tab = "\t"
    static let enter = "\r"
    static let ctrlC = "\u{03}"
    static let ctrlD = "\u{04}"
    static let ctrlR = "\u{12}"
    /// What the shell rings when a TAB has nothing to add.
    static let bell = "\u{07}"
    static let up = "\u{1B}[A"
    static let down = "\u{1B}[B"
    static let right = "\u{1B}[C"
    static let left = "\u{1B}[D"
    static let ctrlG = "\u{07}"
}

/// almanac running on a pseudo-terminal, driven like a person at the keyboard.
///
/// Output is read on demand (every wait drains the terminal) into `raw`; matching is done on
/// `text`, the output with escape sequences and control characters removed. `waitFor` works
/// like expect(1): it searches from the end of the previous match, so a test can say "this,
/// then that". The child is killed when the session is closed or released, so no test hangs.
final class PseudoTerminalSession {
    /// What the prompt looks like once escapes are removed.
    static let prompt = "almanac> "

    let pid: pid_t
    let arguments: [String]
    private(set) var columns: Int
    private(set) var rows: Int
    /// The terminal's sizes and from which byte of `raw` on each applied.
    private var sizes: [(offset: Int, rows: Int, columns: Int)] = []
    /// The prompt `waitForPrompt` and `enter` wait for: `almanac> ` until a test says otherwise
    /// (the prompt names the dataset in use).
    var currentPrompt: String = PseudoTerminalSession.prompt
    private let master: Int32
    private(set) var raw: [UInt8] = []
    private var exitStatus: Int32?
    private var terminalOpen = true
    private var outputEnded = false
    private var cachedText: String?
    /// Offset in `text.utf8` where the next `waitFor` starts looking.
    private var mark = 0
    /// Offset in `raw` where the next `waitForRaw` starts looking.
    private var rawMark = 0

    /// Starts almanac with `arguments` on a `rows` x `columns` terminal.
    init(_ arguments: [String] = [], environment: TestEnvironment, rows: Int = 24, columns: Int = 80) throws {
        HarnessSetup.once
        let binary = AlmanacBinary.path
        self.arguments = arguments
        self.columns = columns
        self.rows = rows
        sizes = [(0, rows, columns)]
        var master: Int32 = -1
        let pid = withCStringArray([binary] + arguments) { argv in
            withCStringArray(environment.entries) { envp in
                cpty_spawn(binary, argv, envp, Int32(rows), Int32(columns), &master)
            }
        }
        guard pid > 0, master >= 0 else {
            if master >= 0 { Glibc.close(master) }
            throw HarnessError("cannot start \(binary) on a pseudo-terminal (set ALMANAC_BIN to the binary)")
        }
        self.pid = pid
        self.master = master
        setNonBlocking(master)
    }

    deinit {
        close()
    }

    /// Kills the child if it still runs, and closes the terminal.
    func close() {
        if exitStatus == nil { exitStatus = killAndReap(pid) }
        if terminalOpen {
            terminalOpen = false
            Glibc.close(master)
        }
    }

    // MARK: - Output

    /// Everything printed so far, without escape sequences.
    var text: String {
        if let cachedText { return cachedText }
        let stripped = TerminalText.strip(raw)
        cachedText = stripped
        return stripped
    }

    /// Everything printed so far, as the bytes arrived (escapes included).
    var rawText: String { String(decoding: raw, as: UTF8.self) }

    /// The text after the last match.
    var unmatchedText: String {
        // A backspace can take back text before the mark; the mark then stands at the end.
        String(decoding: Array(text.utf8.dropFirst(mark)), as: UTF8.self)
    }

    /// Reads whatever the terminal has, waiting up to `milliseconds` for something to arrive.
    /// Returns whether anything new arrived.
    @discardableResult
    func drain(waitingUpTo milliseconds: Int32 = 0) -> Bool {
        guard terminalOpen, !outputEnded else {
            if milliseconds > 0 { pause(milliseconds: milliseconds) }
            return false
        }
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, milliseconds) > 0 else { return false }
        let before = raw.count
        // false: EIO, the child has closed its side; what it wrote before that was read.
        if !readAvailable(master, into: &raw) { outputEnded = true }
        if raw.count != before { cachedText = nil }
        return raw.count != before
    }

    /// Waits until `needle` appears after the previous match, and moves past it.
    /// Returns the text between the previous match and this one.
    @discardableResult
    func waitFor(_ needle: String, timeout: Duration = Timeouts.output) throws -> String {
        try waitFor(description: "'\(needle.visible)'", timeout: timeout) { text in
            text.range(of: needle).map { ($0.lowerBound, $0.upperBound) }
        }
    }

    /// Waits until the regular expression `pattern` matches after the previous match.
    @discardableResult
    func waitFor(pattern: String, timeout: Duration = Timeouts.output) throws -> String {
        try waitFor(description: "/\(pattern.visible)/", timeout: timeout) { text in
            text.range(of: pattern, options: .regularExpression).map { ($0.lowerBound, $0.upperBound) }
        }
    }

    /// Waits until `needle` appears in the raw output (escapes and control characters kept)
    /// after the previous raw match, and moves past it. For what stripping removes, like the
    /// bell a TAB with nothing to complete rings.
    func waitForRaw(_ needle: String, timeout: Duration = Timeouts.output) throws {
        let bytes = Array(needle.utf8)
        let deadline = Deadline(timeout)
        while true {
            if let end = Self.find(bytes, in: raw, from: rawMark) {
                rawMark = end
                return
            }
            if deadline.hasPassed { throw failure("did not see raw '\(needle.visible)' within \(timeout)") }
            if !drain(waitingUpTo: deadline.pollMilliseconds(cap: 50)), outputEnded || hasExited() {
                while drain(waitingUpTo: 20) {}
                if Self.find(bytes, in: raw, from: rawMark) != nil { continue }
                throw failure("almanac exited before raw '\(needle.visible)' appeared")
            }
        }
    }

    /// The offset just past the first occurrence of `needle` in `haystack` at or after `start`.
    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count - start >= needle.count else { return nil }
        for index in start...(haystack.count - needle.count) where haystack[index] == needle[0] {
            if haystack[index..<(index + needle.count)].elementsEqual(needle) { return index + needle.count }
        }
        return nil
    }

    private func waitFor(description: String, timeout: Duration,
                         find: (String) -> (String.Index, String.Index)?) throws -> String {
        let deadline = Deadline(timeout)
        while true {
            let rest = unmatchedText
            if let (lower, upper) = find(rest) {
                mark = min(mark, text.utf8.count) + rest.utf8.distance(from: rest.startIndex, to: upper)
                return String(rest[..<lower])
            }
            if deadline.hasPassed {
                throw failure("did not see \(description) within \(timeout)")
            }
            if !drain(waitingUpTo: deadline.pollMilliseconds(cap: 50)), outputEnded || hasExited() {
                // Take what the terminal still holds, then judge once more.
                while drain(waitingUpTo: 20) {}
                if find(unmatchedText) != nil { continue }
                _ = hasExited()
                throw failure("almanac exited (status \(exitStatus.map(String.init) ?? "unknown")) before \(description) appeared")
            }
        }
    }

    /// Waits for the next prompt and for the line editor to be ready for keys.
    /// `prompt` (when given) becomes `currentPrompt` first: after `use stations` the prompt is `stations> `.
    func waitForPrompt(_ prompt: String? = nil, timeout: Duration = Timeouts.output) throws {
        if let prompt { currentPrompt = prompt }
        try waitFor(currentPrompt, timeout: timeout)
        try waitUntilReady(timeout: timeout)
    }

    /// Reads for as long as the terminal keeps receiving output, until it has been quiet for
    /// `quiet` (or `timeout` passes). For checking that nothing more arrives, never to wait
    /// for something that should.
    func settle(quiet: Duration = .milliseconds(300), timeout: Duration = Timeouts.output) {
        let deadline = Deadline(timeout)
        var quietSince = ContinuousClock.now
        while !deadline.hasPassed, ContinuousClock.now - quietSince < quiet {
            if drain(waitingUpTo: 20) { quietSince = .now }
        }
    }

    /// Moves past everything received so far: the next wait looks only at what arrives after it.
    func skipReceived() {
        drain()
        mark = text.utf8.count
        rawMark = raw.count
    }

    /// The terminal's lines as a terminal would show them (see `TerminalScreen`), from the start.
    var screen: TerminalScreen {
        TerminalScreen(raw, sizes: sizes)
    }

    /// Waits until the screen (as `TerminalScreen` replays everything received) satisfies
    /// `condition`, and returns it. For redraws: a completed word, a line drawn again under a message.
    @discardableResult
    func waitForScreen(_ description: String, timeout: Duration = Timeouts.output,
                       _ condition: (TerminalScreen) -> Bool) throws -> TerminalScreen {
        let deadline = Deadline(timeout)
        while true {
            let current = screen
            if condition(current) { return current }
            if deadline.hasPassed {
                throw failure("the screen did not show \(description) within \(timeout)\n--- screen ---\n\(current.lines.suffix(30).joined(separator: "\n").visible)")
            }
            if !drain(waitingUpTo: deadline.pollMilliseconds(cap: 50)), outputEnded || hasExited() {
                while drain(waitingUpTo: 20) {}
                if condition(screen) { return screen }
                throw failure("almanac exited before the screen showed \(description)\n--- screen ---\n\(screen.lines.suffix(30).joined(separator: "\n").visible)")
            }
        }
    }

    /// Waits until the terminal no longer echoes: libedit has switched it to raw mode and
    /// reads keys one at a time. libedit prints the prompt before that, and keys typed in
    /// between can be lost, so every prompt is followed by this before typing.
    func waitUntilReady(timeout: Duration = Timeouts.output) throws {
        let deadline = Deadline(timeout)
        while cpty_echo_enabled(master) != 0 {
            if hasExited() { throw failure("almanac exited (status \(exitStatus ?? -1)) while waiting for the line editor") }
            if deadline.hasPassed { throw failure("the line editor did not turn echo off within \(timeout)") }
            drain(waitingUpTo: 5)
        }
        drain()
    }

    // MARK: - Input

    /// Types `text` (keys as bytes, see `Key`).
    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var written = 0
        let deadline = Deadline(Timeouts.output)
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(master, $0.baseAddress! + written, $0.count - written) }
            if count > 0 { written += count; continue }
            if count < 0 && errno != EAGAIN && errno != EINTR {
                throw failure("cannot write to the terminal: \(String(cString: strerror(errno)))")
            }
            if deadline.hasPassed { throw failure("the terminal did not take input within \(Timeouts.output)") }
            drain(waitingUpTo: 5)
        }
    }

    /// Types `line` and Enter.
    func sendLine(_ line: String) throws { try send(line + Key.enter) }

    /// Types `line` and Enter, waits for the next prompt and for the editor to be ready.
    /// Returns what was shown in between: the rest of the echo, then the command's output.
    /// `prompt` (when given) is the prompt the line leads to, and becomes `currentPrompt`.
    @discardableResult
    func enter(_ line: String, prompt: String? = nil, timeout: Duration = Timeouts.output) throws -> String {
        try sendLine(line)
        if let prompt { currentPrompt = prompt }
        let shown = try waitFor(currentPrompt, timeout: timeout)
        try waitUntilReady(timeout: timeout)
        return shown
    }

    /// Changes the terminal's size; the child gets SIGWINCH.
    func resize(rows: Int, columns: Int) throws {
        // What arrived before the resize was drawn at the old size.
        drain()
        guard cpty_resize(master, Int32(rows), Int32(columns)) == 0 else {
            throw failure("cannot resize the terminal: \(String(cString: strerror(errno)))")
        }
        self.rows = rows
        self.columns = columns
        sizes.append((raw.count, rows, columns))
    }

    // MARK: - Exit

    /// Whether the child has ended (collecting its status if so).
    func hasExited() -> Bool {
        if exitStatus != nil { return true }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid {
            exitStatus = shellStatus(status)
            return true
        }
        return false
    }

    /// Waits for the child to end and returns its status (exit code, or 128 + signal).
    /// Kills it and throws after `timeout`.
    func waitForExit(timeout: Duration = Timeouts.exit) throws -> Int32 {
        let deadline = Deadline(timeout)
        while !hasExited() {
            if deadline.hasPassed {
                let killed = killAndReap(pid)
                exitStatus = killed
                throw failure("almanac did not exit within \(timeout); killed it")
            }
            drain(waitingUpTo: 10)
        }
        while drain(waitingUpTo: 0) {}
        return exitStatus ?? -1
    }

    /// The terminal's settings as the pseudo-terminal's master sees them (after the child
    /// exited too): `c_lflag & ECHO`, `ICANON` tell whether it was left in cooked mode.
    func terminalAttributes() -> termios? {
        guard terminalOpen else { return nil }
        var settings = termios()
        return tcgetattr(master, &settings) == 0 ? settings : nil
    }

    /// Closes the master side without killing the child, as a terminal window closing does:
    /// the kernel hangs up the terminal and sends SIGHUP to the child.
    func hangUp() {
        if terminalOpen {
            terminalOpen = false
            Glibc.close(master)
        }
    }

    /// An error that shows what the terminal showed; kills the child so nothing hangs.
    private func failure(_ message: String) -> HarnessError {
        drain()
        close()
        return HarnessError("""
            \(message)
            almanac \(arguments.joined(separator: " ")) (pid \(pid))
            --- after the last match ---
            \(unmatchedText.tail(800).visible)
            --- terminal output, escapes removed ---
            \(text.tail().visible)
            --- raw ---
            \(rawText.tail(800).visible)
            """)
    }
}
