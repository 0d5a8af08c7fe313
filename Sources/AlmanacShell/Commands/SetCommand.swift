import AlmanacCore

/// `set` lists the settings; `set NAME VALUE` changes one.
public enum SetCommand: Command {
    static let name = Parameter("NAME", .text(.settings), .optional)
    static let value = Parameter("VALUE", .text(.settingValues), .optional)

    public static let spec = CommandSpec(
        name: "set",
        summary: "Show or change a setting (\(SettingTable.standard.names.joined(separator: ", ")))",
        parameters: [name, value],
        examples: ["set", "set format json", "set format markdown", "set pagesize 20", "set color off", "set pager off",
                   "set hints off", "set expanded auto", "set timer on", "set echo on"],
        discussion: SettingTable.standard.discussion
    ).role(.shapes(answeringBelow: 2))

    public static func discussion(settings: SettingTable) -> String { settings.discussion }

    public static func roles(of arguments: [Word], in session: Session) -> [ArgumentRole] {
        let table = session.settingTable
        return arguments.enumerated().map { index, word in
            let known = index == 0 ? table.setting(word.text) != nil
                : index == 1 && (table.setting(arguments[0].text)?.choices.contains(word.text.lowercased()) ?? false)
            return known ? ArgumentRole(word: index, role: .keyword) : .literal(word, at: index)
        }
    }

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        let parsed = try arguments.parse()
        let table = session.settingTable
        guard let name = parsed[Self.name].first else {
            let width = (table.names.map(\.count).max() ?? 0) + 2
            let values = table.settings.map { $0.value(in: session.settings) }
            let lines = zip(table.names, values).map { TextWidth.pad($0, to: width) + $1 }
            let result = ResultTable(columns: table.names.map { ResultColumn($0) }, rows: [values.map { .text($0) }])
            return CommandResult(result, shape: .object, prose: .lines(lines))
        }
        // An unknown setting is pointed at; else a value it does not take.
        guard let setting = table.setting(name.text) else {
            throw ShellError.at(column: name.word.column, width: TextWidth.of(name.text), table.unknown(name.text))
        }
        guard let value = parsed[Self.value].first else {
            let shown = setting.value(in: session.settings)
            return .value(setting.name, .text(shown), text: shown)
        }
        do {
            try setting.set(value.text, in: &session.settings)
        } catch {
            throw ShellError.at(column: value.word.column, width: max(1, TextWidth.of(value.text)), error)
        }
        return nil
    }
}
