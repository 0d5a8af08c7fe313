import AlmanacCore

/// `quit` ends the session (a script stops at that line).
public enum QuitCommand: Command {
    public static let spec = CommandSpec(
        name: "quit", aliases: ["exit"],
        summary: "Leave almanac",
        parameters: [],
        examples: ["quit"],
        discussion: "Ctrl-D on an empty line does the same. In a script, the lines after it are not run."
    ).role(.steers)

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        _ = try arguments.parse()
        session.shouldQuit = true
        return nil
    }
}
