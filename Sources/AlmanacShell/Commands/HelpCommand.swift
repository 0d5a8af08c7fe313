/// `help` lists the commands; `help NAME` shows one command's usage and examples.
public enum HelpCommand: Command {
    public static let spec = CommandSpec(
        name: "help", aliases: ["?"],
        summary: "List the commands, or show how to use one",
        usage: "help [COMMAND]",
        examples: ["help", "help set"]
    )

    public static func complete(_ request: CompletionRequest, in session: Session) -> [CompletionCandidate] {
        guard request.arguments.isEmpty else { return [] }
        return request.matching(session.commands.commands.map { $0.spec.name })
    }

    public static func roles(of arguments: [Word], in session: Session) -> [ArgumentRole] {
        arguments.indices.map { ArgumentRole(word: $0, role: $0 == 0 && session.commands.lookup(arguments[0].text) != nil ? .command : .plain) }
    }

    public static func run(_ arguments: Arguments, in session: Session) throws {
        try arguments.expect(count: 0...1)
        let output = session.output
        guard arguments.count == 1 else {
            let width = session.commands.commands.map { $0.spec.name.count }.max() ?? 0
            output.print("Commands (help COMMAND for details):")
            for command in session.commands.commands {
                output.print("  " + TextWidth.pad(command.spec.name, to: width) + "  " + command.spec.summary)
            }
            output.print()
            output.print("Separate commands with ';'. Quote words with \"...\" or '...'. '#' starts a comment.")
            return
        }
        let command = try session.commands.resolve(arguments[0])
        let spec = command.spec
        output.print("usage: \(spec.usage)")
        output.print()
        output.print(spec.summary + ".")
        if !spec.discussion.isEmpty {
            output.print()
            output.print(spec.discussion)
        }
        if !spec.aliases.isEmpty { output.print("\nAlso: \(spec.aliases.joined(separator: ", "))") }
        if !spec.examples.isEmpty {
            output.print()
            output.print("Examples:")
            for example in spec.examples { output.print("  \(example)") }
        }
    }
}
