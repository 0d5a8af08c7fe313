#if canImport(Glibc)
import Glibc
#endif
import CLibEdit
import CShims

/// The prompt: libedit's wide-character editor with our history, completion, Ctrl-R,
/// and a read loop that also prints messages from background work above the line.
///
/// Everything here runs on the main thread; libedit calls back into it from `el_wgets`.
public final class LineEditor {
    public enum Event: Equatable {
        case line(String)
        /// Ctrl-C: the line was abandoned.
        case interrupted
        /// Ctrl-D on an empty line, or input closed.
        case endOfInput
        /// SIGTERM or SIGHUP.
        case terminated
    }

    /// Called with the text before the cursor when TAB is pressed.
    public typealias CompletionHandler = (String) -> Completer.Result

    /// Called once, when the prompt has been drawn and the editor first waits for a key.
    public var onFirstKeyWait: (() -> Void)?

    private let editLine: OpaquePointer
    private let libeditHistory: OpaquePointer
    private let historyEvent = UnsafeMutablePointer<HistEventW>.allocate(capacity: 1)
    private let store: HistoryStore
    private let notifier: Notifier
    private let completion: CompletionHandler
    private let outputDescriptor: Int32
    private var input = InputDecoder()

    private var promptText = ""
    private var promptBuffer: UnsafeMutablePointer<wchar_t>
    private var lastTab: (line: String, cursor: Int)?
    private var seenInterrupts: UInt
    private var seenResizes: UInt

    /// Sets up libedit on the process's terminal. The locale must already be UTF-8 (see `Locale.ensureUTF8`).
    public init(history store: HistoryStore, notifier: Notifier, completion: @escaping CompletionHandler) {
        self.store = store
        self.notifier = notifier
        self.completion = completion
        // libedit draws on the output only when it is a terminal; else the prompt goes to stderr.
        let drawOnStandardOutput = isatty(1) == 1
        outputDescriptor = drawOnStandardOutput ? 1 : 2
        editLine = el_init("almanac", almanac_stdin(), drawOnStandardOutput ? almanac_stdout() : almanac_stderr(), almanac_stderr())
        libeditHistory = history_winit()
        promptBuffer = Self.wideCopy("")
        seenInterrupts = almanac_signal_count(SIGINT)
        seenResizes = almanac_signal_count(SIGWINCH)

        almanac_history_int(libeditHistory, historyEvent, H_SETSIZE, Int32(HistoryStore.capacity))
        almanac_history_int(libeditHistory, historyEvent, H_SETUNIQUE, 1)
        for entry in store.entries { enterIntoLibedit(entry) }

        almanac_el_set_clientdata(editLine, Unmanaged.passUnretained(self).toOpaque())
        almanac_el_set_string(editLine, EL_EDITOR, "emacs".wide)
        // Keep libedit's own signal handling: without it Ctrl-C leaves the terminal raw.
        almanac_el_set_int(editLine, EL_SIGNAL, 1)
        almanac_el_set_prompt(editLine, { editLine in
            LineEditor.owner(of: editLine)?.promptBuffer
        }, 1)
        almanac_el_set_history(editLine, libeditHistory)
        almanac_el_set_getc(editLine) { editLine, character in
            LineEditor.owner(of: editLine)?.readCharacter(into: character) ?? -1
        }
        almanac_el_add_function(editLine, "almanac-complete".wide, "Complete the word before the cursor".wide) { editLine, _ in
            LineEditor.owner(of: editLine)?.completeWord() ?? UInt8(CC_ERROR)
        }
        almanac_el_add_function(editLine, "almanac-search".wide, "Search history backwards".wide) { editLine, _ in
            LineEditor.owner(of: editLine)?.searchHistory() ?? UInt8(CC_ERROR)
        }
        almanac_el_bind(editLine, "^I".wide, "almanac-complete".wide)
        almanac_el_bind(editLine, "^R".wide, "almanac-search".wide)
    }

    deinit {
        el_end(editLine)
        history_wend(libeditHistory)
        historyEvent.deallocate()
        promptBuffer.deallocate()
    }

    /// Reads one line at `prompt`. `prompt` may hold colour escapes between `\u{1}` markers.
    public func readLine(prompt: String) -> Event {
        setPrompt(prompt)
        lastTab = nil
        // A Ctrl-C that cancelled the last command was handled there; it must not also clear
        // the new line.
        seenInterrupts = almanac_signal_count(SIGINT)
        var count: Int32 = 0
        guard let line = el_wgets(editLine, &count), count > 0 else {
            let failure = errno
            if notifierSaysTerminate() { return .terminated }
            if count < 0, failure == EINTR {
                writeOut("^C\r\n")
                return .interrupted
            }
            writeOut("\r\n")
            return .endOfInput
        }
        var text = Self.string(from: line, count: Int(count))
        if text.hasSuffix("\n") { text.removeLast() }
        return .line(text)
    }

    /// Stores an accepted line in the history file and in libedit's recall list.
    /// Trailing blanks (a completion's space) are dropped, so `help ` and `help` are one entry.
    public func remember(_ line: String) {
        var entry = Substring(line)
        while entry.last?.isWhitespace == true { entry.removeLast() }
        if store.add(String(entry)) { enterIntoLibedit(String(entry)) }
    }

    // MARK: - Reading keys

    /// libedit's read function: waits on standard input and the notifier's pipe, so messages
    /// and signals are handled while the user types.
    private func readCharacter(into character: UnsafeMutablePointer<wchar_t>?) -> Int32 {
        while true {
            if let scalar = input.next() {
                character?.pointee = wchar_t(bitPattern: scalar.value)
                return 1
            }
            if notifierSaysTerminate() { errno = EINTR; return -1 }
            let interrupts = almanac_signal_count(SIGINT)
            if interrupts != seenInterrupts {
                seenInterrupts = interrupts
                errno = EINTR
                return -1
            }
            let resizes = almanac_signal_count(SIGWINCH)
            if resizes != seenResizes {
                seenResizes = resizes
                redrawKeepingLine(above: [])
            }
            if notifier.hasMessages { redrawKeepingLine(above: notifier.takeMessages()) }

            if let ready = onFirstKeyWait {
                onFirstKeyWait = nil
                ready()
            }
            var descriptors = [
                pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
                pollfd(fd: notifier.readDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&descriptors, 2, -1)
            if ready < 0 { continue }  // EINTR: the counters above say why
            if descriptors[1].revents != 0 { notifier.drain() }
            if descriptors[0].revents != 0 {
                switch input.fill(from: 0) {
                case .bytes: continue
                case .endOfFile: return 0
                case .failed: return -1
                }
            }
        }
    }

    private func notifierSaysTerminate() -> Bool {
        almanac_signal_count(SIGTERM) > 0 || almanac_signal_count(SIGHUP) > 0
    }

    // MARK: - Drawing

    /// Moves to the first row of the input, clears below, prints `messages`, applies `change`
    /// (a new prompt or line), and has libedit draw the prompt and the line again.
    private func redrawKeepingLine(above messages: [String], after change: () -> Void = {}) {
        var text = "\r"
        let rows = cursorRow()
        if rows > 0 { text += "\u{1B}[\(rows)A" }
        text += "\u{1B}[J"
        for message in messages { text += SafeText.escapeLines(message).replacingNewlines() + "\r\n" }
        change()
        writeOut(text)
        almanac_el_refresh(editLine)
    }

    /// Which row of the input area the cursor is on (0 for the prompt's row).
    private func cursorRow() -> Int {
        let (beforeCursor, _) = currentLine()
        let columns = max(1, TerminalInfo.current(descriptor: outputDescriptor).columns)
        return (TextWidth.of(visiblePrompt) + TextWidth.of(beforeCursor)) / columns
    }

    private var visiblePrompt: String {
        // The text between \u{1} markers is escape sequences that take no room.
        var visible = ""
        var inEscape = false
        for character in promptText {
            if character == "\u{1}" { inEscape.toggle() } else if !inEscape { visible.append(character) }
        }
        return visible
    }

    private func setPrompt(_ prompt: String) {
        promptText = prompt
        promptBuffer.deallocate()
        promptBuffer = Self.wideCopy(prompt)
    }

    private func writeOut(_ text: String) {
        FileDescriptorWriter.write(text, to: outputDescriptor)
    }

    // MARK: - Completion

    /// TAB: one candidate is inserted whole; several complete their common prefix, and a
    /// second TAB that adds nothing lists them in columns.
    private func completeWord() -> UInt8 {
        let (beforeCursor, afterCursor) = currentLine()
        let result = completion(beforeCursor)
        let state = (line: beforeCursor + afterCursor, cursor: beforeCursor.unicodeScalars.count)
        let previous = lastTab
        lastTab = state
        if result.candidates.isEmpty { return UInt8(CC_REFRESH_BEEP) }
        if let insertion = result.insertion {
            let replaced = String(beforeCursor.dropFirst(result.replaceFrom))
            el_deletestr(editLine, Int32(replaced.unicodeScalars.count))
            el_winsertstr(editLine, insertion.wide)
            // The next TAB on the completed text lists the candidates at once.
            let (before, after) = currentLine()
            lastTab = (line: before + after, cursor: before.unicodeScalars.count)
            return UInt8(CC_REFRESH)
        }
        guard let last = previous, last.line == state.line, last.cursor == state.cursor else {
            return UInt8(CC_REFRESH_BEEP)
        }
        let columns = TerminalInfo.current(descriptor: outputDescriptor).columns
        let listing = ColumnLayout.render(result.candidates.map(\.text), width: columns)
        writeOut(moveBelowInput() + "\r\n" + listing.replacingNewlines() + "\r\n")
        return UInt8(CC_REDISPLAY)
    }

    /// The escape that moves the cursor from where it is to the last row of the input.
    private func moveBelowInput() -> String {
        let (before, after) = currentLine()
        let columns = max(1, TerminalInfo.current(descriptor: outputDescriptor).columns)
        let promptWidth = TextWidth.of(visiblePrompt)
        let lastRow = (promptWidth + TextWidth.of(before) + TextWidth.of(after)) / columns
        let down = lastRow - (promptWidth + TextWidth.of(before)) / columns
        return down > 0 ? "\u{1B}[\(down)B" : ""
    }

    /// The line being edited, split at the cursor.
    private func currentLine() -> (String, String) {
        guard let info = el_wline(editLine)?.pointee else { return ("", "") }
        let before = Self.string(from: info.buffer, count: info.cursor - info.buffer)
        let after = Self.string(from: info.cursor, count: info.lastchar - info.cursor)
        return (before, after)
    }

    // MARK: - Ctrl-R

    /// Incremental search backwards through history. Our own, because libedit's indexes its
    /// key map with `(unsigned char)ch` and stops at many Cyrillic letters.
    private func searchHistory() -> UInt8 {
        let (before, after) = currentLine()
        let original = before + after
        let normalPrompt = promptText
        var query = ""
        var found: Int?
        var failed = false

        func show(prompt: String, line: String) {
            redrawKeepingLine(above: []) {
                setPrompt(prompt)
                replaceLine(with: line)
            }
        }

        func showSearch() {
            let label = failed ? "failing reverse-i-search" : "reverse-i-search"
            show(prompt: "(\(label))`\(query)': ", line: found.map { store.entries[$0] } ?? original)
        }

        /// Finds the newest entry below index `start` that contains the query (ignoring case).
        func search(below start: Int) {
            guard !query.isEmpty else { found = nil; failed = false; return }
            let needle = query.lowercased()
            if let index = store.entries[..<min(start, store.entries.count)].lastIndex(where: { $0.lowercased().contains(needle) }) {
                found = index
                failed = false
            } else {
                failed = true
            }
        }

        func finish(keeping keep: Bool) {
            show(prompt: normalPrompt, line: keep ? (found.map { store.entries[$0] } ?? original) : original)
        }

        showSearch()
        while true {
            var key: wchar_t = 0
            guard el_wgetc(editLine, &key) == 1 else {
                // Ctrl-C or end of input: abandon the search with the line as it was.
                finish(keeping: false)
                return UInt8(CC_REFRESH)
            }
            switch key {
            case 0x12:  // Ctrl-R: the next older match
                search(below: found ?? store.entries.count)
            case 0x07:  // Ctrl-G: cancel
                finish(keeping: false)
                return UInt8(CC_REFRESH)
            case 0x08, 0x7F:  // Backspace
                if !query.isEmpty { query.removeLast() }
                found = nil
                search(below: store.entries.count)
            case 0x0A, 0x0D:  // Enter: run the match (libedit's own newline handling ends the line)
                finish(keeping: true)
                el_wpush(editLine, "\n".wide)
                return UInt8(CC_REFRESH)
            case 0x00..<0x20:  // other control keys end the search and leave the match to edit
                finish(keeping: true)
                return UInt8(CC_REFRESH)
            default:
                if let scalar = Unicode.Scalar(UInt32(bitPattern: key)) { query.unicodeScalars.append(scalar) }
                search(below: found.map { $0 + 1 } ?? store.entries.count)
            }
            showSearch()
        }
    }

    private func replaceLine(with text: String) {
        guard let info = el_wline(editLine)?.pointee else { return }
        el_cursor(editLine, Int32(info.lastchar - info.cursor))
        el_deletestr(editLine, Int32(info.lastchar - info.buffer))
        if !text.isEmpty { el_winsertstr(editLine, text.wide) }
    }

    // MARK: - Helpers

    private func enterIntoLibedit(_ entry: String) {
        almanac_history_string(libeditHistory, historyEvent, H_ENTER, entry.wide)
    }

    private static func owner(of editLine: OpaquePointer?) -> LineEditor? {
        guard let editLine, let data = almanac_el_get_clientdata(editLine) else { return nil }
        return Unmanaged<LineEditor>.fromOpaque(data).takeUnretainedValue()
    }

    static func string(from pointer: UnsafePointer<wchar_t>, count: Int) -> String {
        var scalars = String.UnicodeScalarView()
        for index in 0..<max(0, count) {
            if let scalar = Unicode.Scalar(UInt32(bitPattern: pointer[index])) { scalars.append(scalar) }
        }
        return String(scalars)
    }

    private static func wideCopy(_ text: String) -> UnsafeMutablePointer<wchar_t> {
        let wide = text.wide
        let buffer = UnsafeMutablePointer<wchar_t>.allocate(capacity: wide.count)
        buffer.initialize(from: wide, count: wide.count)
        return buffer
    }
}

extension String {
    /// The text as a NUL-terminated wchar_t array for libedit's wide API.
    var wide: [wchar_t] { unicodeScalars.map { wchar_t(bitPattern: $0.value) } + [0] }

    /// Newlines as carriage return plus newline: the terminal is in raw mode at the prompt.
    func replacingNewlines() -> String {
        split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n")
    }
}

/// Turns bytes from standard input into Unicode scalars, one key at a time.
struct InputDecoder {
    enum Fill { case bytes, endOfFile, failed }

    private var bytes: [UInt8] = []
    private var start = 0

    /// Reads what is there without blocking: Ctrl-C can discard the input poll() just reported
    /// (and put the terminal back in line mode), and a blocking read would then hang.
    mutating func fill(from descriptor: Int32) -> Fill {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        let failure = errno
        _ = fcntl(descriptor, F_SETFL, flags)
        errno = failure
        if count > 0 {
            if start > 0 { bytes.removeFirst(start); start = 0 }
            bytes.append(contentsOf: chunk[0..<count])
            return .bytes
        }
        if count < 0, errno == EINTR || errno == EAGAIN { return .bytes }
        return count == 0 ? .endOfFile : .failed
    }

    /// The next whole scalar, or nil when more bytes are needed. Invalid bytes become U+FFFD.
    mutating func next() -> Unicode.Scalar? {
        guard start < bytes.count else { return nil }
        let lead = bytes[start]
        let length: Int
        switch lead {
        case 0..<0x80: start += 1; return Unicode.Scalar(lead)
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: start += 1; return "\u{FFFD}"
        }
        guard bytes.count - start >= length else { return nil }
        var decoder = UTF8()
        var iterator = bytes[start..<(start + length)].makeIterator()
        if case let .scalarValue(scalar) = decoder.decode(&iterator) {
            start += length
            return scalar
        }
        start += 1
        return "\u{FFFD}"
    }
}
