import AlmanacCore

/// A script's answer: the listing of a shaping command (`CommandRole.shapes`) is held, not
/// written, until it is known whether the command was the script's last. The next command
/// drops it; the end of the script (every `-c`, `-f` and piped line run) writes it. So a
/// script that shapes and then asks prints one answer, and one that ends in a filter still
/// prints the filter's listing. Piped input's end is unknown until end of file, so a shaping
/// line's listing waits for the next line or the end of input. `set echo on` writes every
/// listing at once, as the prompt does.
public final class ScriptAnswer {
    private var held: CommandResult?

    public init() {}

    /// Whether a listing is held.
    public var isHolding: Bool { held != nil }

    /// A command of `role` is about to run: what was held was not the script's last answer.
    func commandStarts(_ role: CommandRole?) {
        if role != .steers { held = nil }
    }

    /// Writes `result` now, or holds it when a shaping command made it and echo is off.
    func deliver(_ result: CommandResult, role: CommandRole, words: Int, in session: Session) {
        if role.shapes(given: words), !session.settings.echo {
            held = result
        } else {
            session.render(result)
        }
    }

    /// The script has ended: writes the listing of its last command, if it was held.
    public func finish(in session: Session) {
        guard let result = held else { return }
        held = nil
        session.output.beginCommand(cancellation: session.interruption.cancellationFromNow())
        session.render(result)
        session.output.endCommand()
        session.output.flush()
    }
}
