import AlmanacCore

/// `quit` ends the session (a script stops at that line).
public enum QuitCommand: Command {
    public static let spec = CommandSpec(
        name: "quit", aliases: ["exit"],
        summary: "Leave almanac",
        usage: "quit",
        examples: ["quit"],
        discussion: "Ctrl-D on an empty line does the same. In a script, the lines after it are not run."
    )

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        try arguments.expect(count: 0...0)
        session.shouldQuit = true
        return nil
    }
}
