import AlmanacCore

/// `history` prints the numbered history; `history N` the last N entries.
public enum HistoryCommand: Command {
    static let count = Parameter("N", .number(Int.min...Int.max, or: []), .optional)

    public static let spec = CommandSpec(
        name: "history",
        summary: "Show the command history",
        parameters: [count],
        examples: ["history", "history 20"],
        discussion: """
        History lives in $ALMANAC_HISTORY, else $XDG_STATE_HOME/almanac/history \
        (~/.local/state/almanac/history). Lines starting with a space are not kept. \
        Up and Down recall, Ctrl-R searches backwards.
        """
    )

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        let given = try arguments.parse()[count].first
        let entries = session.history?.entries ?? HistoryStore(path: session.environment.historyPath).entries
        var shown = entries.indices
        if let given, let last = given.number {
            guard last >= 0 else {
                throw arguments.usageError("N is how many of the last lines to show: 0 or more, not \(SafeText.excerpt(given.text))", at: given.word)
            }
            // More than there are (however many digits) shows them all.
            shown = max(0, entries.count - min(last, entries.count))..<entries.count
        }
        let first = shown.lowerBound
        var table = ResultTable(columns: [ResultColumn("number", .integer, grouped: false), ResultColumn("command")],
                                count: shown.count) { [.integer(first + $0 + 1), .text(entries[first + $0])] }
        table.showsHeader = false
        return CommandResult(table, emptyNote: "no history yet")
    }
}
