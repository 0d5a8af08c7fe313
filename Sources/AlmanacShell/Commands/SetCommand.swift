/// `set` lists the settings; `set NAME VALUE` changes one.
public enum SetCommand: Command {
    public static let spec = CommandSpec(
        name: "set",
        summary: "Show or change a setting (format, pagesize, color, pager)",
        usage: "set [NAME [VALUE]]",
        examples: ["set", "set format json", "set pagesize 20", "set color off", "set pager off"],
        discussion: """
        format: table, json, csv, tsv or ndjson. pagesize: rows per page, or auto (the terminal's \
        height; everything when output is not a terminal). color: on or off. pager: on or off.
        """
    )

    public static func complete(_ request: CompletionRequest, in session: Session) -> [CompletionCandidate] {
        switch request.arguments.count {
        case 0: return request.matching(Settings.names)
        case 1: return request.matching(Settings.choices(for: request.arguments[0].text.lowercased()))
        default: return []
        }
    }

    public static func run(_ arguments: Arguments, in session: Session) throws {
        try arguments.expect(count: 0...2)
        switch arguments.count {
        case 0:
            for name in Settings.names {
                session.output.print(TextWidth.pad(name, to: 9) + (session.settings.value(of: name) ?? ""))
            }
        case 1:
            guard let value = session.settings.value(of: arguments[0].lowercased()) else {
                var probe = session.settings
                try probe.set(arguments[0], to: "")
                return
            }
            session.output.print(value)
        default:
            try session.settings.set(arguments[0], to: arguments[1])
        }
    }
}
