import AlmanacCore

/// `group FIELD[, FIELD…]` counts records per value (per combination), largest first.
public enum GroupCommand: Command {
    public static let spec = CommandSpec(
        name: "group",
        summary: "Count the results per value of one or more fields",
        usage: "group FIELD[, FIELD...]",
        examples: ["group region", "group countryTitle, cityTitle", "group classification"]
    )

    public static func complete(_ request: CompletionRequest, in session: Session) -> [CompletionCandidate] {
        CompletionSources.fields(request, in: session)
    }

    /// Each name between commas is a field; the commas are punctuation.
    public static func roles(of arguments: [Word], in session: Session) -> [ArgumentRole] {
        var roles: [ArgumentRole] = []
        for (index, word) in arguments.enumerated() {
            let characters = Array(word.text)
            var start = 0
            for offset in 0...characters.count where offset == characters.count || characters[offset] == "," {
                if offset > start { roles.append(ArgumentRole(word: index, characters: start..<offset, role: .field)) }
                if offset < characters.count { roles.append(ArgumentRole(word: index, characters: offset..<(offset + 1), role: .operator)) }
                start = offset + 1
            }
        }
        return roles
    }

    public static func run(_ arguments: Arguments, in session: Session) throws {
        let fields = arguments.text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
        guard !fields.isEmpty else { throw arguments.usageError("missing FIELD") }
        guard fields.count <= 16 else { throw arguments.usageError("at most 16 fields, not \(fields.count)") }
        let groups = try Ordering.group(try session.currentResults(), by: fields, cancellation: session.cancellation)
        let output = session.output
        switch session.settings.format {
        case .table:
            let rows = groups.map { group in
                fields.indices.map { group.values[$0].isEmpty ? "(none)" : group.text(at: $0, field: fields[$0]) } + [group.count.grouped]
            }
            let table = Table(columns: fields.map { Table.Column($0) } + [Table.Column("count", alignRight: true)], rows: rows)
            output.print(table.render(width: output.terminal.isTerminal ? output.terminal.columns : nil, color: session.usesColor))
        case .json, .ndjson:
            var lines: [String] = []
            for group in groups {
                var writer = JSONWriter()
                writer.append("{")
                for (field, value) in zip(fields, group.values) {
                    writer.writeString(field)
                    writer.append(":")
                    writer.writeString(value)
                    writer.append(",")
                }
                writer.append("\"count\":\(group.count)}")
                lines.append(String(decoding: writer.bytes, as: UTF8.self))
            }
            output.print(session.settings.format == .json ? "[\n  " + lines.joined(separator: ",\n  ") + "\n]" : lines.joined(separator: "\n"))
        case .csv, .tsv:
            let tab = session.settings.format == .tsv
            output.print((fields + ["count"]).map { RecordWriter.cell($0, tab: tab) }.joined(separator: tab ? "\t" : ","))
            for group in groups {
                output.print((group.values + [String(group.count)]).map { RecordWriter.cell($0, tab: tab) }.joined(separator: tab ? "\t" : ","))
            }
        }
    }
}
