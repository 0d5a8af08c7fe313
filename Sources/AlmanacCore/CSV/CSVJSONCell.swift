/// A CSV cell holding a JSON array or object, as almanac's own export writes a list (`["NOR",
/// "SWE"]`) or an object inside one: loaded as that value, so the reloaded file answers as the
/// records it came from (`filter borders = NOR`, `filter languages.iso639_1 = es`).
enum CSVJSONCell {
    /// Writes `cell` into `builder` as the array or object it spells, when it is exactly one
    /// (its first byte `[` or `{`, its last `]` or `}`, strict JSON between, no key twice in an
    /// object); false, with nothing written, otherwise (`[draft]` stays text).
    static func append(_ cell: UnsafeBufferPointer<UInt8>, into builder: inout JSONDocumentBuilder) -> Bool {
        guard let base = cell.baseAddress, cell.count >= 2, cell[cell.count - 1] | 0x20 == UInt8(ascii: "}") else { return false }
        let (nodes, repeated) = (builder.nodeCount, builder.repeatedKeys.count)
        var parser = JSONParser(base: base, count: cell.count, source: "", limits: JSONParser.Limits(), progress: nil, lines: LineTracker())
        var parsed = false
        do {
            _ = try parser.parseValue(into: &builder)
            parsed = parser.position == cell.count
        } catch {}
        // Its strings may be slices of a cell in the parser's scratch: their probes are made now.
        builder.resolvePending()
        // A repeated key's object is remembered by its place, which `settle` and `nest` move.
        if parsed, builder.repeatedKeys.count == repeated { return true }
        builder.nodeWords.removeLast(builder.nodeCount - nodes)
        builder.repeatedKeys.removeLast(builder.repeatedKeys.count - repeated)
        return false
    }
}
