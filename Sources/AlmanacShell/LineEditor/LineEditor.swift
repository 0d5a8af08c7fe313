#if canImport(Glibc)
import Glibc
#endif
import CLibEdit
import CShims

/// The prompt: libedit's wide-character editor with our history, completion, Ctrl-R, hints
/// and colours, and a read loop that also prints messages from background work above the line.
///
/// libedit draws into a memory stream (`almanac_capture`), not on the terminal: the shell
/// adds its decorations to what libedit drew and the terminal gets each key's redraw in one
/// write when the editor next waits for a key, so colours never flicker.
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
        /// Ctrl-X Ctrl-E: the commands saved in the editor (none for an empty file).
        case edited([String])
    }

    /// Called with the text before the cursor when TAB is pressed.
    public typealias CompletionHandler = (String) -> Completer.Result

    /// Called once, when the prompt has been drawn and the editor first waits for a key.
    public var onFirstKeyWait: (() -> Void)?

    /// What to draw over the line after each key: colours and a hint (nil: nothing). Called
    /// with the line and the cursor's offset in characters.
    public var decorate: ((_ line: String, _ cursor: Int) -> LineDecoration)?

    let editLine: OpaquePointer
    private let libeditHistory: OpaquePointer
    private let historyEvent = UnsafeMutablePointer<HistEventW>.allocate(capacity: 1)
    let store: HistoryStore
    private let notifier: Notifier
    let completion: CompletionHandler
    let outputDescriptor: Int32
    /// Where libedit and the decorations draw until the next flush.
    private let capture: OpaquePointer
    private var input = InputDecoder()

    var promptText = ""
    private var promptBuffer: UnsafeMutablePointer<wchar_t>
    /// Our functions' names and descriptions, which libedit points at.
    private var functionNames: [UnsafeMutablePointer<wchar_t>] = []
    var lastTab: (line: String, cursor: Int)?
    /// Whether the history file's entries are in libedit's recall list: they go in once the
    /// prompt is on the screen (ten thousand of them are 30 M instructions), before the first key.
    private var historyEntered = false
    private var seenInterrupts: UInt
    private var seenResizes: UInt

    /// What Ctrl-X Ctrl-E brought back, returned by `readLine` instead of the (emptied) line.
    var edited: Result<[String], ShellError>?

    /// Whether this key's decorations are drawn (libedit redraws after every key).
    var decorated = false
    /// Set while the line is not a command (Ctrl-R's search, a question).
    var decorationsSuspended = false
    /// The hint shown for `line`, which →, End, Ctrl-F and Alt-F accept.
    var shownHint: (line: String, hint: String)?
    /// Whether a hint is drawn after the cursor now (it is erased before libedit gets a key).
    var hintOnScreen = false
    /// What was drawn over the line for this key.
    var drawnDecoration: LineDecoration?
    /// Set when the notifier woke the read loop: the line's colours are worked out again.
    private var backgroundWorkEnded = false

    /// Sets up libedit on the process's terminal. The locale must already be UTF-8 (see `Locale.ensureUTF8`).
    public init(history store: HistoryStore, notifier: Notifier, completion: @escaping CompletionHandler) {
        self.store = store
        self.notifier = notifier
        self.completion = completion
        // libedit draws on the output only when it is a terminal; else the prompt goes to stderr.
        outputDescriptor = isatty(1) == 1 ? 1 : 2
        capture = almanac_capture_open()
        editLine = el_init_fd("almanac", almanac_stdin(), almanac_capture_stream(capture), almanac_stderr(), 0, outputDescriptor, 2)
        libeditHistory = history_winit()
        promptBuffer = Self.wideCopy("")
        seenInterrupts = almanac_signal_count(SIGINT)
        seenResizes = almanac_signal_count(SIGWINCH)

        almanac_history_int(libeditHistory, historyEvent, H_SETSIZE, Int32(HistoryStore.capacity))
        almanac_history_int(libeditHistory, historyEvent, H_SETUNIQUE, 1)

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
        bindKeys()
    }

    deinit {
        el_end(editLine)
        flushOutput()
        almanac_capture_close(capture)
        history_wend(libeditHistory)
        historyEvent.deallocate()
        promptBuffer.deallocate()
        functionNames.forEach { $0.deallocate() }
    }

    /// Our functions and the keys that call them.
    private func bindKeys() {
        func add(_ name: String, _ help: String, keys: [String], _ function: @escaping almanac_editor_fn) {
            // libedit keeps the name and help pointers (not copies) as long as it lives.
            let (kept, description) = (Self.wideCopy(name), Self.wideCopy(help))
            functionNames += [kept, description]
            almanac_el_add_function(editLine, kept, description, function)
            for key in keys { almanac_el_bind(editLine, key.wide, name.wide) }
        }
        add("almanac-complete", "Complete the word before the cursor", keys: ["^I"]) { editLine, _ in
            LineEditor.owner(of: editLine)?.completeWord() ?? UInt8(CC_ERROR)
        }
        add("almanac-search", "Search history backwards", keys: ["^R"]) { editLine, _ in
            LineEditor.owner(of: editLine)?.searchHistory() ?? UInt8(CC_ERROR)
        }
        // → and Ctrl-F, End and Ctrl-E accept the hint whole; Alt-F and Alt-→ its next word.
        add("almanac-forward", "Accept the hint, or move right", keys: ["^F", "\\e[C", "\\eOC"]) { editLine, _ in
            LineEditor.owner(of: editLine)?.acceptHint(.whole, orMove: .character) ?? UInt8(CC_ERROR)
        }
        add("almanac-end", "Accept the hint, or go to the end of the line",
            keys: ["^E", "\\e[F", "\\eOF", "\\e[4~", "\\e[8~"]) { editLine, _ in
            LineEditor.owner(of: editLine)?.acceptHint(.whole, orMove: .endOfLine) ?? UInt8(CC_ERROR)
        }
        add("almanac-edit", "Edit the line (or the last command) in $VISUAL or $EDITOR, then run it", keys: ["^X^E"]) { editLine, _ in
            LineEditor.owner(of: editLine)?.editInEditor() ?? UInt8(CC_ERROR)
        }
        add("almanac-forward-word", "Accept the hint's next word, or move to the end of the next word",
            keys: ["\\ef", "\\eF", "\\e[1;3C", "\\e\\e[C"]) { editLine, _ in
            LineEditor.owner(of: editLine)?.acceptHint(.word, orMove: .word) ?? UInt8(CC_ERROR)
        }
    }

    /// Reads one line at `prompt`. `prompt` may hold colour escapes between `\u{1}` markers.
    public func readLine(prompt: String) -> Event {
        setPrompt(prompt)
        lastTab = nil
        edited = nil
        shownHint = nil
        hintOnScreen = false
        decorated = false
        // A Ctrl-C that cancelled the last command was handled there; it must not also clear
        // the new line.
        seenInterrupts = almanac_signal_count(SIGINT)
        var count: Int32 = 0
        let line = el_wgets(editLine, &count)
        defer { flushOutput() }
        if let edited {
            switch edited {
            case let .success(commands): return .edited(commands)
            case let .failure(error):
                writeOut(SafeText.escapeLines(error.description).replacingNewlines() + "\r\n")
                return .edited([])
            }
        }
        guard let line, count > 0 else {
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
    /// Returns the entry when it was stored (not empty, private or a repeat).
    @discardableResult
    public func remember(_ line: String) -> String? {
        var entry = Substring(line)
        while entry.last?.isWhitespace == true { entry.removeLast() }
        guard store.add(String(entry)) else { return nil }
        // Entered with the rest when they have not gone in yet (the store has it now).
        guard historyEntered else { return String(entry) }
        enterIntoLibedit(String(entry))
        return String(entry)
    }

    // MARK: - Reading keys

    /// libedit's read function: waits on standard input and the notifier's pipe, so messages
    /// and signals are handled while the user types. Before waiting it draws the decorations
    /// and sends the terminal everything drawn since the last key; before handing libedit a
    /// key it erases the hint, which libedit does not know is there.
    private func readCharacter(into character: UnsafeMutablePointer<wchar_t>?) -> Int32 {
        while true {
            if let scalar = input.next() {
                eraseHint()
                decorated = false
                character?.pointee = wchar_t(bitPattern: scalar.value)
                return 1
            }
            if notifierSaysTerminate() { eraseHint(); errno = EINTR; return -1 }
            let interrupts = almanac_signal_count(SIGINT)
            if interrupts != seenInterrupts {
                seenInterrupts = interrupts
                eraseHint()
                errno = EINTR
                return -1
            }
            let resizes = almanac_signal_count(SIGWINCH)
            if resizes != seenResizes {
                seenResizes = resizes
                redrawKeepingLine(above: [])
            }
            if notifier.hasMessages { redrawKeepingLine(above: notifier.takeMessages()) }
            decorateIfNeeded(again: backgroundWorkEnded)
            backgroundWorkEnded = false
            flushOutput()

            enterHistoryIfNeeded()
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
            if descriptors[1].revents != 0 {
                notifier.drain()
                // A load (or its fields) finished: names in the line may be known now.
                backgroundWorkEnded = true
            }
            if descriptors[0].revents != 0 {
                switch input.fill(from: 0) {
                case .bytes: continue
                case .endOfFile: eraseHint(); return 0
                case .failed: eraseHint(); return -1
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
    func redrawKeepingLine(above messages: [String], after change: () -> Void = {}) {
        var text = "\r"
        let rows = cursorPosition().row
        if rows > 0 { text += "\u{1B}[\(rows)A" }
        text += "\u{1B}[J"
        let columns = TerminalInfo.current(descriptor: outputDescriptor).columns
        for message in messages { text += Prose.message(SafeText.escapeLines(message), width: columns).replacingNewlines() + "\r\n" }
        change()
        writeOut(text)
        hintOnScreen = false
        decorated = false
        almanac_el_refresh(editLine)
    }

    var visiblePrompt: String {
        // The text between \u{1} markers is escape sequences that take no room.
        var visible = ""
        var inEscape = false
        for character in promptText {
            if character == "\u{1}" { inEscape.toggle() } else if !inEscape { visible.append(character) }
        }
        return visible
    }

    func setPrompt(_ prompt: String) {
        promptText = prompt
        promptBuffer.deallocate()
        promptBuffer = Self.wideCopy(prompt)
    }

    /// Adds `text` to what the terminal gets at the next flush, after what libedit drew.
    func writeOut(_ text: String) {
        fputs(text, almanac_capture_stream(capture))
    }

    /// Sends the terminal everything drawn since the last flush, in one write.
    func flushOutput() {
        if almanac_capture_pending(capture) > 0 { almanac_capture_flush(capture, outputDescriptor) }
    }

    /// The line being edited, split at the cursor.
    func currentLine() -> (String, String) {
        guard let info = el_wline(editLine)?.pointee else { return ("", "") }
        let before = Self.string(from: info.buffer, count: info.cursor - info.buffer)
        let after = Self.string(from: info.cursor, count: info.lastchar - info.cursor)
        return (before, after)
    }

    func replaceLine(with text: String) {
        guard let info = el_wline(editLine)?.pointee else { return }
        el_cursor(editLine, Int32(info.lastchar - info.cursor))
        el_deletestr(editLine, Int32(info.lastchar - info.buffer))
        if !text.isEmpty { el_winsertstr(editLine, text.wide) }
    }

    // MARK: - Helpers

    private func enterHistoryIfNeeded() {
        guard !historyEntered else { return }
        historyEntered = true
        for entry in store.entries { enterIntoLibedit(entry) }
    }

    private func enterIntoLibedit(_ entry: String) {
        almanac_history_string(libeditHistory, historyEvent, H_ENTER, entry.wide)
    }

    static func owner(of editLine: OpaquePointer?) -> LineEditor? {
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
    var wide: [wchar_t] {
        // One array, filled in place: ten thousand history lines go through here (a map and
        // `+ [0]` cost three times as much).
        var result: [wchar_t] = []
        result.reserveCapacity(utf8.count + 1)
        for scalar in unicodeScalars { result.append(wchar_t(bitPattern: scalar.value)) }
        result.append(0)
        return result
    }

    /// Newlines as carriage return plus newline: the terminal is in raw mode at the prompt.
    func replacingNewlines() -> String {
        split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n")
    }
}
