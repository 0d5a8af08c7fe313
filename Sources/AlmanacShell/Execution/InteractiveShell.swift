#if canImport(Glibc)
import Glibc
#endif
import AlmanacCore
import Foundation

/// The prompt loop: read a line, remember it, run it, show what arrived meanwhile.
final class InteractiveShell {
    private let session: Session
    private let notifier: Notifier
    private let executor: Executor

    init(session: Session, notifier: Notifier) {
        self.session = session
        self.notifier = notifier
        self.executor = Executor(session: session)
    }

    /// Runs until Ctrl-D, `quit` or a termination signal. Returns the exit status.
    func run() -> Int32 {
        let history = session.history ?? HistoryStore(path: session.environment.historyPath)
        session.history = history
        for warning in history.warnings { session.output.message("warning: \(SafeText.escape(warning))") }
        let completer = Completer()
        let editor = LineEditor(history: history, notifier: notifier) { [session] text in
            completer.complete(text, in: session)
        }
        if decorator.terminalCanDraw {
            editor.decorate = { [unowned self] line, cursor in
                decorator.decoration(of: line, cursor: cursor) { hint(for: $0) }
            }
        }
        editor.onFirstKeyWait = { [unowned self] in
            session.startPendingLoads()
            // While the person reads the prompt, not when the first key arrives.
            if decorator.terminalCanDraw, session.settings.hints { makeHints() }
        }
        if !session.quiet {
            session.output.print("almanac \(AlmanacVersion.current) — type 'help' for commands, Ctrl-D to leave")
            session.output.flush()
        }
        // Keys typed while a command runs (a Ctrl-D too) wait for the next prompt. The line
        // editor takes the terminal over from typeahead's modes: put back to canonical mode in
        // between, a Ctrl-D typed just then would be an end of file, read at the prompt as NUL.
        var typeahead: Typeahead?
        defer { typeahead?.end() }
        while !session.shouldQuit {
            showMessages()
            typeahead?.handOver()
            switch readCommand(with: editor) {
            case let .line(text):
                typeahead = Typeahead()
                run(text, editor: editor)
            case let .edited(commands):
                typeahead = Typeahead()
                // Shown as if typed at the prompt, so the screen says what ran.
                for command in commands where !session.shouldQuit && !session.interruption.terminationRequested {
                    session.output.print(prompt(colored: false) + SafeText.escape(PasswordRedaction.shown(command)))
                    session.output.flush()
                    run(command, editor: editor)
                }
            case .interrupted:
                continue
            case .endOfInput, .terminated:
                return 0
            }
            if session.interruption.terminationRequested { return 0 }
        }
        return 0
    }

    /// Made once the first prompt is drawn (or at the first key that wants a hint), not before
    /// it: replaying ten thousand history lines is work the prompt should not wait for.
    private var hints: HistoryHints?
    /// Whether the session said once that history keeps lines without their passwords.
    private var toldAboutRedaction = false
    private lazy var decorator = LineDecorator(session: session)
    private let pagerCommand = Pager.command(environment: ProcessInfo.processInfo.environment)

    /// One command: a line, and the lines that continue it (`\` at the end) read at `...> `.
    private func readCommand(with editor: LineEditor) -> LineEditor.Event {
        var event = editor.readLine(prompt: prompt())
        defer { decorator.continued = "" }
        while case let .line(text) = event, LineContinuation.continues(text) {
            decorator.continued = String(text.dropLast()) + " "
            switch editor.readLine(prompt: LineContinuation.prompt) {
            case let .line(next): event = .line(LineContinuation.join(text, next))
            case let other: return other
            }
        }
        return event
    }

    /// Remembers `text` (one history entry, whatever lines it was typed on), runs it, then runs
    /// what `edit` asked for.
    private func run(_ text: String, editor: LineEditor) {
        let history = editor.store
        let warnings = history.warnings.count
        // Without passwords: history is a file, and hints show its lines.
        // Until hints are made, the history file's lines are all they need.
        let remembered = PasswordRedaction.line(text)
        if let entry = editor.remember(remembered) { hints?.append(entry, context: session.currentName) }
        if remembered != text, !toldAboutRedaction {
            toldAboutRedaction = true
            session.output.message("note: history keeps lines without their passwords (~/.pgpass or PGPASSWORD can give one)")
        }
        for warning in history.warnings.dropFirst(warnings) { session.output.message("warning: \(SafeText.escape(warning))") }
        session.output.refreshTerminal()
        session.output.pager = session.settings.pager ? pagerCommand : nil
        executor.run(line: text)
        let edited = session.editedCommands
        session.editedCommands = []
        for command in edited where !session.shouldQuit && !session.interruption.terminationRequested {
            session.output.print(prompt(colored: false) + SafeText.escape(PasswordRedaction.shown(command)))
            session.output.flush()
            run(command, editor: editor)
        }
    }

    private func hint(for typed: String) -> String? {
        makeHints()
        return hints?.hint(for: typed, context: session.currentName)
    }

    private func makeHints() {
        if hints == nil { hints = HistoryHints(session.history?.entries ?? []) }
    }

    private func showMessages() {
        for message in notifier.takeMessages() { session.output.message(SafeText.escapeLines(message)) }
    }

    private func prompt(colored: Bool = true) -> String {
        let name = session.promptName
        guard colored, session.settings.color, session.output.terminal.isTerminal else { return name + "> " }
        return "\u{1}\u{1B}[1;36m\u{1}\(name)\u{1}\u{1B}[0m\u{1}> "
    }
}
