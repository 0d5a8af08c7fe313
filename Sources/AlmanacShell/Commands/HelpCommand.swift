import AlmanacCore

/// `help` lists the commands; `help NAME` shows one command's usage and examples.
public enum HelpCommand: Command {
    static let command = Parameter("COMMAND", .text(.commands, or: ["keys"]), .optional, hidden: ["expressions"])

    public static let spec = CommandSpec(
        name: "help", aliases: ["?"],
        summary: "List the commands, or show how to use one (help keys: the keys at the prompt; help expressions: computed values)",
        parameters: [command],
        examples: ["help", "help set", "help keys", "help expressions"]
    )

    public static func roles(of arguments: [Word], in session: Session) -> [ArgumentRole] {
        arguments.indices.map { ArgumentRole(word: $0, role: $0 == 0 && session.commands.lookup(arguments[0].text) != nil ? .command : .plain) }
    }

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        let given = try arguments.parse()[Self.command].first
        var lines: [String] = []
        guard let given else {
            let commands = session.commands.commands
            let width = commands.map { $0.spec.name.count }.max() ?? 0
            lines.append("Commands (help COMMAND for details):")
            for command in commands {
                lines.append("  " + TextWidth.pad(command.spec.name, to: width) + "  " + command.spec.summary)
            }
            lines.append("")
            lines.append("Separate commands with ';'. Quote words with \"...\" or '...'. '#' starts a comment. "
                + "A line ending in \\ continues on the next. Keys at the prompt (hints, colours, Ctrl-X Ctrl-E): help keys. "
                + "Computed values wherever a field goes (population / area, length(name)): help expressions.")
            let table = ResultTable(columns: [ResultColumn("command"), ResultColumn("summary"), ResultColumn("usage")],
                                    rows: commands.map { [.text($0.spec.name), .text($0.spec.summary), .text($0.spec.usage)] })
            return CommandResult(table, prose: .lines(lines))
        }
        if given.text.lowercased() == "expressions" {
            let table = ResultTable(columns: [ResultColumn("function"), ResultColumn("summary")],
                                    rows: ExpressionHelp.functions.map { [.text($0.usage), .text($0.summary)] })
            return CommandResult(table, prose: .lines(ExpressionHelp.lines))
        }
        if given.text.lowercased() == "keys" {
            let keys = PromptKeys.all
            // Keys wider than the column get a line of their own: the text keeps its room.
            let width = keys.map { TextWidth.of($0.keys) }.filter { $0 <= PromptKeys.column }.max() ?? 0
            lines.append("Keys at the prompt:")
            for key in keys {
                if TextWidth.of(key.keys) > width { lines.append("  " + key.keys) }
                lines.append("  " + TextWidth.pad(TextWidth.of(key.keys) > width ? "" : key.keys, to: width) + "  " + key.meaning)
            }
            lines += ["", PromptKeys.colours]
            let table = ResultTable(columns: [ResultColumn("keys"), ResultColumn("what")], rows: keys.map { [.text($0.keys), .text($0.meaning)] })
            return CommandResult(table, prose: .lines(lines))
        }
        let command: any Command.Type
        do {
            command = try session.commands.resolve(given.text)
        } catch {
            throw ShellError.at(column: given.word.column, width: TextWidth.of(given.text), error)
        }
        var spec = command.spec
        spec.discussion = command.discussion(settings: session.settingTable)
        lines.append("usage: \(spec.usage)")
        lines.append("")
        lines.append(spec.summary + ".")
        if !spec.discussion.isEmpty {
            lines.append("")
            lines += discussionLines(spec.discussion, width: session.renderContext.width)
        }
        if !spec.aliases.isEmpty { lines += ["", "Also: \(spec.aliases.joined(separator: ", "))"] }
        if !spec.examples.isEmpty {
            lines.append("")
            lines.append("Examples:")
            for example in spec.examples { lines.append("  \(example)") }
        }
        let table = ResultTable(
            columns: [ResultColumn("command"), ResultColumn("usage"), ResultColumn("summary"), ResultColumn("discussion"),
                      ResultColumn("aliases", .list), ResultColumn("examples", .list)],
            rows: [[.text(spec.name), .text(spec.usage), .text(spec.summary), spec.discussion.isEmpty ? .absent : .text(spec.discussion),
                    .list(spec.aliases.map { .text($0) }), .list(spec.examples.map { .text($0) })]])
        return CommandResult(table, shape: .object, prose: .lines(lines))
    }

    /// The discussion line by line. Its picture of a command's output (from a `  DATASET> COMMAND`
    /// line to the end, as `HelpPictureTests` reads it) is cut at the terminal's width, never
    /// wrapped: a wrapped picture is no picture.
    static func discussionLines(_ discussion: String, width: Int?) -> [String] {
        var inPicture = false
        return discussion.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            if line.hasPrefix("  "), line.contains("> ") { inPicture = true }
            guard inPicture, let width else { return String(line) }
            return TextWidth.truncate(String(line), to: width)
        }
    }
}
