import AlmanacCore

/// A script's answer: the listing of a shaping command (`CommandRole.shapes`) is held, not
/// written, until it is known whether the command was the script's last. The next command
/// drops it; the end of the script (every `-c`, `-f` and piped line run) writes it. So a
/// script that shapes and then asks prints one answer, and one that ends in a filter still
/// prints the filter's listing. Piped input's end is unknown until end of file, so a shaping
/// line's listing waits for the next line or the end of input. `set echo on` writes every
/// listing at once, as the prompt does. A held listing is made only when written: a filter
/// on a million-row table followed by `count` never asks for the filter's page.
///
/// A drill-down (`group region; show #3`, as `save` writes one) shapes too: the group's
/// answer waits to see whether a drill-down follows — then the drill-down stands for both, so
/// a replayed session answers once — else it is written when the next command starts.
public final class ScriptAnswer {
    private var held: CommandResult?
    /// Where the held answer's command was, for an error in making its listing at the end.
    private var heldAt: (location: SourceLocation?, line: String?)
    /// A group's answer, until the next command shows whether it drills into it.
    private var groups: CommandResult?

    public init() {}

    /// Whether a listing is held.
    public var isHolding: Bool { held != nil }

    /// A command of `role` is about to run: what was held was not the script's last answer;
    /// a group's answer is, unless the command drills into it.
    func commandStarts(_ role: CommandRole?, drillsDown: Bool = false, in session: Session) {
        guard role != .steers else { return }
        held = nil
        if !drillsDown { write(&groups, in: session) }
    }

    /// Whether the answer of a command of `role` given `words` arguments would be held (its
    /// listing then made only if written): a shaping command or a drill-down, echo off.
    func holds(_ role: CommandRole, words: Int, groups isGroups: Bool = false, drillsDown: Bool = false, in session: Session) -> Bool {
        !session.settings.echo && !isGroups && (role.shapes(given: words) || drillsDown)
    }

    /// Writes `result` now, or holds it when a shaping command (or a drill-down, or a group a
    /// drill-down may follow) made it and echo is off.
    func deliver(_ result: CommandResult, role: CommandRole, words: Int, groups isGroups: Bool = false, drillsDown: Bool = false,
                 in session: Session, at location: SourceLocation? = nil, line: String? = nil) {
        if drillsDown { groups = nil }
        if holds(role, words: words, groups: isGroups, drillsDown: drillsDown, in: session) {
            held = result
            heldAt = (location, line)
        } else if isGroups, !session.settings.echo {
            groups = result
        } else {
            session.render(result)
        }
    }

    /// The script has ended: writes the answer of its last command, if it was held. Returns
    /// false when its listing, made now, failed (the error is reported where its command was).
    @discardableResult
    public func finish(in session: Session) -> Bool {
        write(&groups, in: session)
        return write(&held, in: session)
    }

    @discardableResult
    private func write(_ result: inout CommandResult?, in session: Session) -> Bool {
        guard var answer = result else { return true }
        result = nil
        session.output.beginCommand(cancellation: session.interruption.cancellationFromNow())
        defer {
            session.output.endCommand()
            session.output.flush()
        }
        if let page = answer.unmadePage {
            do {
                var listing = try session.listCurrent(page: page)
                // What the command added to its answer: a filter's empty note, a step's GeoJSON.
                listing.emptyNote = answer.emptyNote ?? listing.emptyNote
                listing.document = answer.document ?? listing.document
                if answer.geoJSONWhenMade { listing.document = try GeoAnswer.tableDocument(in: session) }
                answer = listing
            } catch {
                Executor(session: session).report(error, at: heldAt.location, line: heldAt.line)
                return false
            }
        }
        session.render(answer)
        return true
    }
}
