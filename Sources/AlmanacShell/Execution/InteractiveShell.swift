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
        let pagerCommand = Pager.command(environment: ProcessInfo.processInfo.environment)
        let editor = LineEditor(history: history, notifier: notifier) { [session] text in
            completer.complete(text, in: session)
        }
        var hints = HistoryHints(history.entries)
        let decorator = LineDecorator(session: session)
        if decorator.terminalCanDraw { editor.decorate = { decorator.decoration(of: $0, cursor: $1, hints: hints) } }
        editor.onFirstKeyWait = { [session] in session.startPendingLoads() }
        if !session.quiet {
            session.output.print("almanac \(AlmanacVersion.current) — type 'help' for commands, Ctrl-D to leave")
            session.output.flush()
        }
        while !session.shouldQuit {
            showMessages()
            switch editor.readLine(prompt: prompt()) {
            case let .line(text):
                let warnings = history.warnings.count
                if let entry = editor.remember(text) { hints.append(entry, context: session.currentName) }
                for warning in history.warnings.dropFirst(warnings) { session.output.message("warning: \(SafeText.escape(warning))") }
                session.output.refreshTerminal()
                session.output.pager = session.settings.pager ? pagerCommand : nil
                executor.run(line: text)
                if session.interruption.terminationRequested { return 0 }
            case .interrupted:
                continue
            case .endOfInput, .terminated:
                return 0
            }
        }
        return 0
    }

    private func showMessages() {
        for message in notifier.takeMessages() { session.output.message(SafeText.escapeLines(message)) }
    }

    private func prompt() -> String {
        let name = session.promptName
        guard session.settings.color, session.output.terminal.isTerminal else { return name + "> " }
        return "\u{1}\u{1B}[1;36m\u{1}\(name)\u{1}\u{1B}[0m\u{1}> "
    }
}
