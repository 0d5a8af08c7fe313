import AlmanacCore

/// `history` prints the numbered history; `history N` the last N entries.
public enum HistoryCommand: Command {
    public static let spec = CommandSpec(
        name: "history",
        summary: "Show the command history",
        usage: "history [N]",
        examples: ["history", "history 20"],
        discussion: """
        History lives in $ALMANAC_HISTORY, else $XDG_STATE_HOME/almanac/history \
        (~/.local/state/almanac/history). Lines starting with a space are not kept. \
        Up and Down recall, Ctrl-R searches backwards.
        """
    )

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        try arguments.expect(count: 0...1)
        let entries = session.history?.entries ?? HistoryStore(path: session.environment.historyPath).entries
        var shown = entries.indices
        if arguments.count == 1 {
            guard let last = Int(arguments[0]), last >= 0 else {
                throw arguments.usageError("N must be a whole number, not '\(SafeText.escape(arguments[0]))'")
            }
            shown = max(0, entries.count - last)..<entries.count
        }
        let first = shown.lowerBound
        var table = ResultTable(columns: [ResultColumn("number", .integer, grouped: false), ResultColumn("command")],
                                count: shown.count) { [.integer(first + $0 + 1), .text(entries[first + $0])] }
        table.showsHeader = false
        return CommandResult(table, emptyNote: "no history yet")
    }
}
