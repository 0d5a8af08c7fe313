import Foundation

/// What the prompt draws over the typed line: colours by what each word is, and the hint from
/// history, each when its setting is on and the terminal can show it.
final class LineDecorator {
    private let session: Session
    private let highlighter = Highlighter()
    /// A dumb terminal (or none named) gets no escapes at all.
    let terminalCanDraw: Bool

    init(session: Session, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.session = session
        let term = environment["TERM"] ?? ""
        terminalCanDraw = !term.isEmpty && term != "dumb" && session.output.terminal.isTerminal
    }

    func decoration(of line: String, cursor: Int, hints: HistoryHints) -> LineDecoration {
        var decoration = LineDecoration()
        let settings = session.settings
        if settings.highlight, settings.color {
            decoration.styles = highlighter.spans(of: line, cursor: cursor, in: session).compactMap { span in
                span.role.sgr.map { (span.characters, $0) }
            }
        }
        if settings.hints, cursor == line.count {
            decoration.hint = hints.hint(for: line, context: session.currentName)
        }
        return decoration
    }
}
