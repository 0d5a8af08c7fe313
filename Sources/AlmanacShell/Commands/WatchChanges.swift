import AlmanacCore
import Foundation

/// What changed between two runs of a watched command: rows that came and went, and the
/// numbers that changed in rows that stayed. A row is known by its values that are not
/// numbers (a group's name, a record's fields); a row of numbers alone (`count`) is one row.
struct WatchSnapshot: Equatable {
    /// Each row's identity, in order, with its numbers by column.
    private(set) var rows: [(identity: String, numbers: [(column: String, value: String)])] = []

    init(_ result: CommandResult?) {
        guard let table = result?.table else { return }
        for index in 0..<table.count {
            let cells = table.row(index)
            var identity: [String] = []
            var numbers: [(String, String)] = []
            for (column, cell) in zip(table.columns, cells) {
                if Self.isNumber(cell) {
                    numbers.append((column.name, ResultText.plain(cell)))
                } else {
                    identity.append(ResultText.plain(cell))
                }
            }
            rows.append((identity.joined(separator: " · "), numbers))
        }
    }

    private static func isNumber(_ cell: ResultValue) -> Bool {
        switch cell {
        case .integer, .decimal, .literal: true
        case let .source(value): value.number != nil
        default: false
        }
    }

    static func == (left: WatchSnapshot, right: WatchSnapshot) -> Bool {
        left.rows.elementsEqual(right.rows) { $0.identity == $1.identity && $0.numbers.elementsEqual($1.numbers) { $0 == $1 } }
    }

    /// Lines that say what changed since `previous`: a summary, then up to `limit` details;
    /// none when nothing did.
    func changes(since previous: WatchSnapshot, limit: Int) -> [String] {
        let before = Dictionary(previous.rows.map { ($0.identity, $0.numbers) }, uniquingKeysWith: { first, _ in first })
        let now = Dictionary(rows.map { ($0.identity, $0.numbers) }, uniquingKeysWith: { first, _ in first })
        var details: [String] = []
        var added = 0, removed = 0, changed = 0
        for row in rows where before[row.identity] == nil {
            added += 1
            details.append("+ " + Self.describe(row.identity, row.numbers))
        }
        for row in previous.rows where now[row.identity] == nil {
            removed += 1
            details.append("- " + Self.describe(row.identity, row.numbers))
        }
        for row in rows {
            guard let old = before[row.identity] else { continue }
            let differences = zip(old, row.numbers).filter { $0.0.column == $0.1.column && $0.0.value != $0.1.value }
            guard !differences.isEmpty else { continue }
            changed += 1
            let name = row.identity.isEmpty ? "" : row.identity + ": "
            details.append("~ " + name + differences.map { "\($0.0.column) \($0.0.value) → \($0.1.value)\(Self.delta($0.0.value, $0.1.value))" }
                .joined(separator: ", "))
        }
        guard added + removed + changed > 0 else { return [] }
        var parts: [String] = []
        if added > 0 { parts.append("\(added) new") }
        if removed > 0 { parts.append("\(removed) removed") }
        if changed > 0 { parts.append("\(changed) changed") }
        var lines = [parts.joined(separator: ", ")]
        lines += details.prefix(limit)
        if details.count > limit { lines.append("… \(details.count - limit) more") }
        return lines
    }

    private static func describe(_ identity: String, _ numbers: [(column: String, value: String)]) -> String {
        ([identity] + numbers.map { "\($0.column) \($0.value)" }).filter { !$0.isEmpty }.joined(separator: ", ")
    }

    /// ` (+2)` between two numbers; nothing when either is not one. Subtracted as the decimals
    /// shown, not as binary doubles: 24 → 23.8 is -0.2, not -0.1999999999999993.
    private static func delta(_ old: String, _ new: String) -> String {
        guard Double(old) != nil, Double(new) != nil else { return "" }
        if let old = Decimal(string: old, locale: Self.posix), let new = Decimal(string: new, locale: Self.posix) {
            let difference = new - old
            return " (" + (difference > 0 ? "+" : "") + "\(difference)" + ")"
        }
        let difference = (Double(new) ?? 0) - (Double(old) ?? 0)
        return " (" + (difference > 0 ? "+" : "") + NumberFormat.plain(difference) + ")"
    }

    private static let posix = Locale(identifier: "en_US_POSIX")
}
