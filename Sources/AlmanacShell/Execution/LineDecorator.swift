import Foundation

/// What the prompt draws over the typed line: colours by what each word is, and the hint from
/// history, each when its setting is on and the terminal can show it.
final class LineDecorator {
    private let session: Session
    private let highlighter = Highlighter()
    /// A dumb terminal (or none named) gets no escapes at all.
    let terminalCanDraw: Bool
    /// The lines before this one of a command continued with `\`, joined: the line is
    /// coloured and hinted as the rest of that command.
    var continued = ""

    init(session: Session, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.session = session
        let term = environment["TERM"] ?? ""
        terminalCanDraw = !term.isEmpty && term != "dumb" && session.output.terminal.isTerminal
    }

    /// `hint` gives the rest of a history line that starts with its argument.
    func decoration(of line: String, cursor: Int, hint: (String) -> String?) -> LineDecoration {
        var decoration = LineDecoration()
        let settings = session.settings
        let offset = continued.count
        if settings.highlight, settings.color {
            decoration.styles = highlighter.spans(of: continued + line, cursor: offset + cursor, in: session).compactMap { span in
                guard let sgr = span.role.sgr, span.characters.upperBound > offset else { return nil }
                return ((max(0, span.characters.lowerBound - offset)..<(span.characters.upperBound - offset)), sgr)
            }
        }
        if settings.hints, cursor == line.count, !line.isEmpty {
            decoration.hint = hint(continued + line)
        }
        return decoration
    }
}
