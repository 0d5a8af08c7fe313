import AlmanacCore

/// The computed columns of results (`ComputedColumn`: near's distance) beside a record written
/// whole: as extra members at the end of its JSON object, as extra cells after its own in CSV.
enum ComputedFields {
    /// The names of the computed columns the rows' results carry.
    static func names(_ records: RecordRows) -> [String] { records.results.computed.map(\.name) }

    /// Their values for a row, as cells.
    static func cells(_ records: RecordRows, row: Int) -> [ResultValue] {
        let item = records.item(row)
        return records.results.computed.map { $0.cell(of: item) }
    }

    /// A record's JSON object (as `JSONWriter` wrote it, at `indent`) with the computed
    /// members added before its closing brace.
    static func appended(to object: String, _ records: RecordRows, row: Int, indent: Int, pretty: Bool) -> String {
        let columns = records.results.computed
        guard !columns.isEmpty, object.hasSuffix("}"), object.hasPrefix("{") else { return object }
        var body = String(object.dropLast())
        while body.last == " " || body.last == "\n" { body.removeLast() }
        let empty = body == "{"
        let item = records.item(row)
        var members: [String] = []
        for column in columns {
            var writer = JSONWriter()
            writer.writeString(column.name)
            writer.append(pretty ? ": " : ":")
            ResultText.write(column.cell(of: item), to: &writer)
            members.append(String(decoding: writer.bytes, as: UTF8.self))
        }
        guard pretty else { return body + (empty ? "" : ",") + members.joined(separator: ",") + "}" }
        let inner = "\n" + String(repeating: "  ", count: indent + 1)
        return body + (empty ? "" : ",") + inner + members.joined(separator: "," + inner) + "\n" + String(repeating: "  ", count: indent) + "}"
    }
}
