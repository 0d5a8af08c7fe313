import AlmanacCore

/// A script's answer: the listing of a shaping command (`CommandRole.shapes`) is held, not
/// written, until it is known whether the command was the script's last. The next command
/// drops it; the end of the script (every `-c`, `-f` and piped line run) writes it. So a
/// script that shapes and then asks prints one answer, and one that ends in a filter still
/// prints the filter's listing. Piped input's end is unknown until end of file, so a shaping
/// line's listing waits for the next line or the end of input. `set echo on` writes every
/// listing at once, as the prompt does.
///
/// A drill-down (`group region; show #3`, as `save` writes one) shapes too: the group's
/// answer waits to see whether a drill-down follows — then the drill-down stands for both, so
/// a replayed session answers once — else it is written when the next command starts.
public final class ScriptAnswer {
    private var held: CommandResult?
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

    /// Writes `result` now, or holds it when a shaping command (or a drill-down, or a group a
    /// drill-down may follow) made it and echo is off.
    func deliver(_ result: CommandResult, role: CommandRole, words: Int, groups isGroups: Bool = false, drillsDown: Bool = false,
                 in session: Session) {
        if drillsDown { groups = nil }
        if session.settings.echo {
            session.render(result)
        } else if isGroups {
            groups = result
        } else if role.shapes(given: words) || drillsDown {
            held = result
        } else {
            session.render(result)
        }
    }

    /// The script has ended: writes the answer of its last command, if it was held.
    public func finish(in session: Session) {
        write(&groups, in: session)
        write(&held, in: session)
    }

    private func write(_ result: inout CommandResult?, in session: Session) {
        guard let answer = result else { return }
        result = nil
        session.output.beginCommand(cancellation: session.interruption.cancellationFromNow())
        session.render(answer)
        session.output.endCommand()
        session.output.flush()
    }
}
