import AlmanacCore

/// `edit` opens the last command in `$VISUAL`, else `$EDITOR`, else `vi`, and runs what is
/// saved, one command per line (psql's `\e`, DuckDB's `.edit`). Ctrl-X Ctrl-E does the same
/// with the line being typed.
public enum EditCommand: Command {
    public static let spec = CommandSpec(
        name: "edit",
        summary: "Edit the last command in your editor, then run what you save",
        parameters: [],
        examples: ["edit"],
        discussion: """
        The editor is $VISUAL, else $EDITOR, else vi. Each saved line is a command (a line \
        ending in \\ continues on the next); an empty file runs nothing, and so does a line longer \
        than 1 MiB (the limit for a command line) or Ctrl-C while the file is read. Ctrl-X Ctrl-E at the \
        prompt edits the line being typed, or the last command when the line is empty.
        """
    )

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        _ = try arguments.parse()
        guard session.isInteractive, let history = session.history else {
            throw ShellError.invalid("edit needs the prompt (a terminal): in a script, write the commands in the script")
        }
        // The last command before this `edit`.
        let last = history.entries.last { entry in
            (try? Tokenizer.statements(in: entry))?.first?.words.first.map { session.commands.lookup($0.text) == EditCommand.self } != true
        }
        session.output.flush()
        switch ExternalEditor.edit(last ?? "") {
        case let .success(commands): session.editedCommands = commands
        case let .failure(error): throw error
        }
        return nil
    }
}
