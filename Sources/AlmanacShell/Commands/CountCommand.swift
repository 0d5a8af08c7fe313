import AlmanacCore

/// `count` prints how many records the current result set holds.
public enum CountCommand: Command {
    public static let spec = CommandSpec(
        name: "count",
        summary: "Count the records of the current results",
        parameters: [],
        examples: ["count"]
    )

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        _ = try arguments.parse()
        // Counted again: a table may have changed since. Every record of a dataset is counted
        // without reading a field, so without waiting for the datasets it links into (a
        // script's `use stations` then `count` used to load countries too, a fifth of its time).
        var source = try session.results(readingFields: false)
        let count = try source.count(fresh: true, cancellation: session.cancellation)
        if session.source != nil { session.keep(source) }
        return .value("count", .integer(count), kind: .integer, text: String(count))
    }
}
