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
            let text = arguments[0]
            let digits = text.first == "+" ? text.dropFirst() : Substring(text)
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw arguments.usageError(text.first == "-" && text.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }) && text.count > 1
                    ? "N is how many of the last lines to show: 0 or more, not \(SafeText.excerpt(text))"
                    : "N must be a whole number, not '\(SafeText.escape(text))'")
            }
            // More than there are (however many digits) shows them all.
            let last = Int(digits) ?? Int.max
            shown = max(0, entries.count - min(last, entries.count))..<entries.count
        }
        let first = shown.lowerBound
        var table = ResultTable(columns: [ResultColumn("number", .integer, grouped: false), ResultColumn("command")],
                                count: shown.count) { [.integer(first + $0 + 1), .text(entries[first + $0])] }
        table.showsHeader = false
        return CommandResult(table, emptyNote: "no history yet")
    }
}
