import AlmanacCore

/// `set` lists the settings; `set NAME VALUE` changes one.
public enum SetCommand: Command {
    public static let spec = CommandSpec(
        name: "set",
        summary: "Show or change a setting (format, pagesize, color, pager, hints, highlight, maxpages, maxbytes, expanded, timer, echo)",
        parameters: [Parameter("NAME", .text(.settings), .optional), Parameter("VALUE", .text(.settingValues), .optional)],
        examples: ["set", "set format json", "set format markdown", "set pagesize 20", "set color off", "set pager off",
                   "set hints off", "set expanded auto", "set timer on", "set echo on"],
        discussion: """
        format: table, expanded, json, ndjson, csv, tsv or markdown. pagesize: rows per page, from 1 to \
        1,000,000, or auto (the terminal's height; everything when output is not a terminal). color: on \
        or off. pager: on or off. hints: on or off (the rest of a matching history line, dimmed after the \
        cursor). highlight: on or off (colours as you type; off without colour). maxpages: how many pages \
        a load from a URL follows (1000); maxbytes: how much it reads in all (1G; sizes like 64M). \
        expanded: on (one line per field for each record), off, or auto (expanded when a table is wider \
        than the terminal). timer: on prints each command's time on standard error. echo: on lists \
        the results in a script after every command that shapes them, not only the last (--echo).
        """
    ).role(.shapes(answeringBelow: 2))

    public static func roles(of arguments: [Word], in session: Session) -> [ArgumentRole] {
        arguments.enumerated().map { index, word in
            let known = index == 0 ? Settings.names.contains(word.text.lowercased())
                : index == 1 && Settings.choices(for: arguments[0].text.lowercased()).contains(word.text.lowercased())
            return known ? ArgumentRole(word: index, role: .keyword) : .literal(word, at: index)
        }
    }

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        let parsed = try arguments.parse()
        guard let name = parsed[0].first else {
            let width = (Settings.names.map(\.count).max() ?? 0) + 2
            let values = Settings.names.map { session.settings.value(of: $0) ?? "" }
            let lines = zip(Settings.names, values).map { TextWidth.pad($0, to: width) + $1 }
            let table = ResultTable(columns: Settings.names.map { ResultColumn($0) }, rows: [values.map { .text($0) }])
            return CommandResult(table, shape: .object, prose: .lines(lines))
        }
        // An unknown setting is pointed at; else a value it does not take.
        guard Settings.names.contains(name.text.lowercased()) else {
            var probe = session.settings
            do {
                try probe.set(name.text, to: "")
            } catch {
                throw ShellError.at(column: name.word.column, width: TextWidth.of(name.text), error)
            }
            return nil
        }
        guard let value = parsed[1].first else {
            let shown = session.settings.value(of: name.text.lowercased()) ?? ""
            return .value(name.text.lowercased(), .text(shown), text: shown)
        }
        do {
            try session.settings.set(name.text, to: value.text)
        } catch {
            throw ShellError.at(column: value.word.column, width: max(1, TextWidth.of(value.text)), error)
        }
        return nil
    }
}
