/// What a command's result is to a script: the answer to its question, or the listing of
/// results it has just shaped. At the prompt both are shown; a script (`-c`, `-f`, piped
/// input) asks one question, so there a shaping command is quiet unless it is the script's
/// last command (`ScriptAnswer`). Declared once, in each command's `CommandSpec`.
public enum CommandRole: Sendable, Equatable {
    /// page, count, show, group…: its result is always written.
    case answers
    /// use, filter, sort, columns, back, limit, set…: it changes the results or the settings.
    /// With fewer than `answeringBelow` words it asks instead (`use` alone says which dataset
    /// is in use, `set format` shows a setting), and answers.
    case shapes(answeringBelow: Int = 0)
    /// quit: steers the session, and is not a script's last command.
    case steers

    /// Whether a command of this role, given `words` arguments, shapes rather than answers.
    public func shapes(given words: Int) -> Bool {
        if case let .shapes(answeringBelow) = self { return words >= answeringBelow }
        return false
    }
}

extension CommandSpec {
    /// This declaration with `role`: `CommandSpec(…).role(.shapes())`.
    public func role(_ role: CommandRole) -> CommandSpec {
        var spec = self
        spec.role = role
        return spec
    }
}
