import AlmanacCore

/// `fields`: each field's type, how many records have it, and an example; then which field
/// names the records and which others search and `show` look at.
public enum FieldsCommand: Command {
    public static let spec = CommandSpec(
        name: "fields",
        summary: "List the fields of the dataset in use: type, how many records have it, an example, and which names the records",
        usage: "fields",
        examples: ["fields"]
    )

    public static func run(_ arguments: Arguments, in session: Session) throws {
        try arguments.expect(count: 0...0)
        let datasets = try session.datasetsInScope()
        let output = session.output
        for (index, dataset) in datasets.enumerated() {
            if datasets.count > 1 {
                if index > 0 { output.print() }
                output.print("\(dataset.name):")
            }
            let rows = dataset.fields.fields.map { field in
                [field.path + (field.isDerived ? " *" : ""), field.typeDescription, field.count.grouped, field.example ?? ""]
            }
            let table = Table(columns: [.init("field"), .init("type"), .init("records", alignRight: true), .init("example")], rows: rows)
            output.print(table.render(width: output.terminal.isTerminal ? output.terminal.columns : nil, color: session.usesColor))
            output.print(nameNote(dataset.layout))
        }
        if datasets.contains(where: { $0.fields.fields.contains(where: \.isDerived) }) {
            output.print("* computed by almanac from the source fields")
        }
    }

    /// `names the records: quote; search and show also look at author`.
    static func nameNote(_ layout: Layout) -> String {
        let others = layout.otherNameFields.isEmpty ? "" : "; search and show also look at \(layout.otherNameFields.joined(separator: ", "))"
        return SafeText.escape("names the records: \(layout.nameField)\(others)")
    }
}
