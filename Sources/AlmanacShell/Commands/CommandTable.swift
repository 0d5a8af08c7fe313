import AlmanacCore

/// Every command, looked up by name or alias without regard to case.
public struct CommandTable: Sendable {
    public let commands: [any Command.Type]
    private let byName: [String: any Command.Type]

    public init(_ commands: [any Command.Type]) {
        self.commands = commands
        var byName: [String: any Command.Type] = [:]
        for command in commands {
            for name in [command.spec.name] + command.spec.aliases {
                precondition(byName[name.lowercased()] == nil, "two commands are called \(name)")
                byName[name.lowercased()] = command
            }
        }
        self.byName = byName
    }

    /// The commands the shell ships with.
    public static let standard = CommandTable([
        HelpCommand.self,
        DatasetsCommand.self,
        UseCommand.self,
        LoadCommand.self,
        SearchCommand.self,
        FilterCommand.self,
        SortCommand.self,
        ColumnsCommand.self,
        LimitCommand.self,
        BackCommand.self,
        PageCommand.self,
        ShowCommand.self,
        GroupCommand.self,
        DescribeCommand.self,
        FieldsCommand.self,
        HistogramCommand.self,
        MapCommand.self,
        CountCommand.self,
        RandomCommand.self,
        ExportCommand.self,
        SaveCommand.self,
        WatchCommand.self,
        LinkCommand.self,
        TripCommand.self,
        PathCommand.self,
        ReachCommand.self,
        NearCommand.self,
        WithinCommand.self,
        OutsideCommand.self,
        SetCommand.self,
        HistoryCommand.self,
        EditCommand.self,
        AboutCommand.self,
        QuitCommand.self,
    ])

    public func lookup(_ name: String) -> (any Command.Type)? { byName[name.lowercased()] }

    /// The command `name` names, or an error that suggests the closest one.
    public func resolve(_ name: String) throws(ShellError) -> any Command.Type {
        if let command = lookup(name) { return command }
        throw .unknownCommand(name, suggestion: Suggestion.closest(to: name, among: allNames))
    }

    /// Names and aliases, for completion and suggestions.
    public var allNames: [String] { commands.flatMap { [$0.spec.name] + $0.spec.aliases } }
}
