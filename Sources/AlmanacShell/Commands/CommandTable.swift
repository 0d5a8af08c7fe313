import AlmanacCore

/// Every command, looked up by name or alias without regard to case.
public struct CommandTable: Sendable {
    /// A command and the names it answers to: its spec's name, then its aliases.
    public struct Entry: Sendable {
        public let names: [String]
        public let command: any Command.Type

        public init(_ names: [String], _ command: any Command.Type) {
            self.names = names
            self.command = command
        }
    }

    public let entries: [Entry]

    public var commands: [any Command.Type] { entries.map(\.command) }

    /// The commands, named by their specs.
    public init(_ commands: [any Command.Type]) {
        self.init(entries: commands.map { Entry(([$0.spec.name] + $0.spec.aliases).map { $0.lowercased() }, $0) })
        var seen: Set<String> = []
        for name in entries.flatMap(\.names) {
            precondition(seen.insert(name.lowercased()).inserted, "two commands are called \(name)")
        }
    }

    /// The commands under the names given, lowercase: no spec is made until its command is
    /// used (building all of them was a third of `almanac -c quit`'s instructions and page
    /// faults). `CommandTableTests` checks the names are the specs'.
    init(entries: [Entry]) { self.entries = entries }

    /// The commands the shell ships with: a line each, its spec's name and aliases in lowercase.
    public static let standard = CommandTable(entries: [
        Entry(["help", "?"], HelpCommand.self),
        Entry(["datasets"], DatasetsCommand.self),
        Entry(["use"], UseCommand.self),
        Entry(["load"], LoadCommand.self),
        Entry(["search"], SearchCommand.self),
        Entry(["filter"], FilterCommand.self),
        Entry(["sort"], SortCommand.self),
        Entry(["columns"], ColumnsCommand.self),
        Entry(["limit"], LimitCommand.self),
        Entry(["back"], BackCommand.self),
        Entry(["page"], PageCommand.self),
        Entry(["show"], ShowCommand.self),
        Entry(["why"], WhyCommand.self),
        Entry(["group"], GroupCommand.self),
        Entry(["describe"], DescribeCommand.self),
        Entry(["fields"], FieldsCommand.self),
        Entry(["histogram"], HistogramCommand.self),
        Entry(["map"], MapCommand.self),
        Entry(["count"], CountCommand.self),
        Entry(["random"], RandomCommand.self),
        Entry(["export"], ExportCommand.self),
        Entry(["save"], SaveCommand.self),
        Entry(["watch"], WatchCommand.self),
        Entry(["link"], LinkCommand.self),
        Entry(["trip"], TripCommand.self),
        Entry(["path"], PathCommand.self),
        Entry(["reach"], ReachCommand.self),
        Entry(["near"], NearCommand.self),
        Entry(["within"], WithinCommand.self),
        Entry(["outside"], OutsideCommand.self),
        Entry(["set"], SetCommand.self),
        Entry(["history"], HistoryCommand.self),
        Entry(["edit"], EditCommand.self),
        Entry(["about"], AboutCommand.self),
        Entry(["quit", "exit"], QuitCommand.self),
    ])

    public func lookup(_ name: String) -> (any Command.Type)? {
        let name = name.lowercased()
        return entries.first { $0.names.contains(name) }?.command
    }

    /// The command `name` names, or an error that suggests the closest one.
    public func resolve(_ name: String) throws(ShellError) -> any Command.Type {
        if let command = lookup(name) { return command }
        throw .unknownCommand(name, suggestion: Suggestion.closest(to: name, among: allNames))
    }

    /// The command `word` names, or the error pointed at the word (a caret at the prompt, its
    /// column in a script), wherever on the line it is (`watch 1 --count 2 wat`).
    public func resolve(_ word: Word) throws(ShellError) -> any Command.Type {
        do { return try resolve(word.text) } catch { throw error.pointing(at: [word]) }
    }

    /// Names and aliases, for completion and suggestions.
    public var allNames: [String] { entries.flatMap(\.names) }
}
