import AlmanacCore
import Foundation

/// `load NAME from URL` (`postgresql://…?table=TABLE`): the table is attached, not loaded — the catalog
/// knows it by name, its columns come from the database's catalog, and its rows stay there.
enum TableAttachment {
    /// Attaches the table the URL names as `name` (the table's own name when nil).
    static func attach(_ text: String, with engine: any TableEngine, as name: String?, in session: Session) throws -> CommandResult? {
        let name = try name ?? suggestedName(engine.tableName(in: text))
        let started = Date()
        let table = try engine.attach(text, as: name, cancellation: session.cancellation)
        session.catalog.attach(table, as: name)
        return summary(of: [(table, Date().timeIntervalSince(started))], in: session)
    }

    /// `load NAME` (or `load`) for attached tables: the catalog read again, on a new connection.
    static func reattach(_ names: [String], in session: Session) throws -> [(any AttachedTable, Double)] {
        try names.compactMap { name in
            guard let table = session.catalog.table(name) else { return nil }
            let started = Date()
            let fresh = try table.reattached(cancellation: session.cancellation)
            session.catalog.attach(fresh, as: name)
            return (fresh, Date().timeIntervalSince(started))
        }
    }

    /// A dataset name from a table's: `Orders 2024` → `orders_2024`.
    static func suggestedName(_ table: String) -> String {
        let cleaned = String(table.lowercased().map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" })
            .trimmingCharacters(in: CharacterSet(charactersIn: "_"))
        guard let first = cleaned.first, first.isLetter else { return "t_" + cleaned }
        return cleaned
    }

    /// One row per table attached, at the prompt or with --verbose.
    static func summary(of tables: [(any AttachedTable, Double)], in session: Session) -> CommandResult? {
        guard session.isInteractive || session.verbose, !tables.isEmpty else { return nil }
        let table = ResultTable(columns: [ResultColumn("name"), ResultColumn("where"), ResultColumn("columns", .integer),
                                          ResultColumn("estimated rows", .integer), ResultColumn("seconds", .decimal)],
                                rows: tables.map { table, seconds in
                                    [.text(table.name), .text(table.location), .integer(table.columnCount),
                                     .integer(table.estimatedRows), .decimal(seconds)]
                                })
        return CommandResult(table, prose: .lines(tables.map { line(for: $0, seconds: $1, in: session) }))
    }

    /// `big: PostgreSQL 127.0.0.1:5432/shop, table public.big · 6 columns · about 2,000,000 rows · attached in 9 ms`.
    static func line(for table: any AttachedTable, seconds: Double, in session: Session) -> String {
        let columns = table.columnCount
        var parts = ["\(table.name): \(table.system) \(table.location)", "\(columns) column\(columns == 1 ? "" : "s")"]
        if table.estimatedRows > 0 { parts.append("about \(table.estimatedRows.grouped) rows") }
        parts.append("attached in \(Duration.text(seconds))")
        var line = SafeText.escape(parts.joined(separator: " · "))
        if session.currentName != table.name { line += " — 'use \(table.name)' to explore it" }
        return line
    }
}
