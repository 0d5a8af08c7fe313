import CGlibc

/// One `FIELD OP VALUE` over many rows.
struct FieldComparison {
    let dataset: Dataset
    let document: JSONDocument
    let path: Dataset.CompiledPath
    /// = or ~ (their negations flip the result: "no value matches").
    let op: FilterExpression.Operator
    let negated: Bool
    let foldedValue: [UInt8]
    let numberValue: Double?
    /// The value exactly, when a Double cannot tell it from its neighbours (`ExactNumber`).
    let exactValue: ExactNumber?
    /// The value as an instant, seconds since 1970 (UTC), when it is an ISO 8601 date.
    let dateValue: Double?
    /// The members that name an object the path ends on (`ObjectIdentity`): it compares by its name.
    let naming: [JSONDocument.Key]
    private var cache = ResultCache()
    private var scratch: [UInt8] = []

    init(dataset: Dataset, path: Dataset.CompiledPath, op: FilterExpression.Operator, value: String) {
        self.dataset = dataset
        self.document = dataset.document
        self.path = path
        self.negated = op == .notEqual || op == .notContains
        self.op = op == .notEqual ? .equal : (op == .notContains ? .contains : op)
        self.foldedValue = Array(Folding.fold(value).utf8)
        // `100BBY` and `1,000` are numbers as the data's text is (NumericText).
        self.numberValue = NumericText.literal(value)
        self.exactValue = numberValue.flatMap { ExactNumber.isAmbiguous($0) ? ExactNumber(value) : nil }
        // `2024-01-01`, `2024-01-01T01:00:00Z`: midnight UTC without a time, as date arithmetic reads it.
        self.dateValue = numberValue == nil ? CalendarDate.seconds(value) : nil
        self.naming = ObjectIdentity.keys(in: dataset.document)
    }

    mutating func run(_ rows: [Int], cancellation: Cancellation) throws(CancelledError) -> [Bool] {
        var mask = [Bool](repeating: false, count: rows.count)
        for (position, row) in rows.enumerated() {
            if position & 0x3FFF == 0 { try cancellation.checkpoint() }
            // The common case, a path that reaches one scalar, without closures.
            let matched: Bool
            switch dataset.scalar(of: path, row: row) {
            case .missing:
                matched = false
            case let .node(node):
                matched = test(node: node)
            case .several:
                var any = false
                dataset.forEachComparedValue(of: path, row: row, naming: naming) { value in
                    if !any, test(value) { any = true }
                }
                matched = any
            }
            mask[position] = matched != negated
        }
        return mask
    }

    /// The same over a field's column: one value per row, read in order.
    mutating func run(_ rows: [Int], column: FieldCatalog.Column, cancellation: Cancellation) throws(CancelledError) -> [Bool] {
        var mask = [Bool](repeating: false, count: rows.count)
        try column.kinds.withUnsafeBufferPointer { kinds throws(CancelledError) in
            try column.words.withUnsafeBufferPointer { words throws(CancelledError) in
                try rows.withUnsafeBufferPointer { rows throws(CancelledError) in
                    try mask.withUnsafeMutableBufferPointer { mask throws(CancelledError) in
                        let values = ColumnValues(rows: rows, kinds: kinds, words: words, mask: mask)
                        for start in stride(from: 0, to: rows.count, by: 0x10000) {
                            try cancellation.checkpoint()
                            run(values, start..<min(start + 0x10000, rows.count))
                        }
                    }
                }
            }
        }
        return mask
    }

    /// A column and the mask being written, read through pointers.
    private struct ColumnValues {
        let rows: UnsafeBufferPointer<Int>
        let kinds: UnsafeBufferPointer<UInt8>
        let words: UnsafeBufferPointer<UInt64>
        let mask: UnsafeMutableBufferPointer<Bool>
    }

    /// Numbers against a number (the usual filter of a numeric column) in a loop of their own
    /// per operator: no closure, no switch on the operator, per row. A column's numbers never
    /// need their literal (a value past 2⁵³ takes the rows' path, `needsLiteral`).
    private mutating func run(_ values: ColumnValues, _ positions: Range<Int>) {
        guard let wanted = numberValue, op == .equal || op.isOrdering else { return runEach(values, positions) }
        switch op {
        case .less: runNumbers(values, positions) { $0 < wanted }
        case .lessOrEqual: runNumbers(values, positions) { $0 <= wanted }
        case .greater: runNumbers(values, positions) { $0 > wanted }
        case .greaterOrEqual: runNumbers(values, positions) { $0 >= wanted }
        default: runNumbers(values, positions) { $0 == wanted }
        }
    }

    @inline(__always)
    private mutating func runNumbers(_ values: ColumnValues, _ positions: Range<Int>, _ matches: (Double) -> Bool) {
        let number = JSONDocument.Kind.number.rawValue
        for position in positions {
            let row = values.rows[position]
            if values.kinds[row] == number {
                values.mask[position] = matches(Double(bitPattern: values.words[row])) != negated
            } else {
                values.mask[position] = test(kind: values.kinds[row], word: values.words[row]) != negated
            }
        }
    }

    /// Any other comparison, a row at a time. A row's answer depends on its kind and word
    /// alone, and neighbours often share them (the stations of a country, of a city).
    private mutating func runEach(_ values: ColumnValues, _ positions: Range<Int>) {
        var last: (kind: UInt8, word: UInt64, matched: Bool)?
        for position in positions {
            let row = values.rows[position]
            let (kind, word) = (values.kinds[row], values.words[row])
            if let last, last.kind == kind, last.word == word {
                values.mask[position] = last.matched
                continue
            }
            let matched = test(kind: kind, word: word) != negated
            last = (kind, word, matched)
            values.mask[position] = matched
        }
    }

    /// One row of a column: its kind and its word (a number's bits, a string's node word).
    private mutating func test(kind: UInt8, word: UInt64) -> Bool {
        switch kind {
        case FieldCatalog.Column.missing: false
        case JSONDocument.Kind.number.rawValue: compareNumber(Double(bitPattern: word)) { [] }
        case JSONDocument.Kind.string.rawValue: test(stringWord: word)
        case JSONDocument.Kind.true.rawValue: compareLiteral("true")
        case JSONDocument.Kind.false.rawValue: compareLiteral("false")
        default: compareNull()
        }
    }

    private mutating func test(_ value: FieldValue) -> Bool {
        switch value {
        case let .number(number):
            return compareNumber(number) { Array(NumberFormat.plain(number).utf8) }
        case let .text(text):
            var text = text
            scratch.removeAll(keepingCapacity: true)
            text.withUTF8 { Folding.appendFolded(utf8: $0, to: &scratch) }
            return compareFoldedScratch { text }
        case let .node(node):
            return test(node: node)
        }
    }

    @inline(__always)
    private mutating func test(node: Int) -> Bool {
        let word = document.node(node)
        switch JSONDocument.kind(ofWord: word) {
        case .number:
            let document = self.document
            return compareNumber(document.number(at: node)) { Array(document.arena[document.textRange(at: node)]) }
        case .string:
            return test(stringWord: word)
        case .true: return compareLiteral("true")
        case .false: return compareLiteral("false")
        case .null: return compareNull()
        case .array, .object: return false
        }
    }

    /// A string, given its node word (which holds where its text is in the arena).
    @inline(__always)
    private mutating func test(stringWord word: UInt64) -> Bool {
        if let known = cache[word] { return known }
        let range = JSONDocument.textRange(ofWord: word)
        scratch.removeAll(keepingCapacity: true)
        document.arena.withUnsafeBufferPointer { arena in
            Folding.appendFolded(utf8: UnsafeBufferPointer(rebasing: arena[range]), to: &scratch)
        }
        let document = self.document
        let result = compareFoldedScratch {
            document.arena.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
        }
        cache[word] = result
        return result
    }

    /// JSON null is the word "null" to `=` and `~` (`field = null`), and no value to `<`, `>`,
    /// `<=`, `>=`: neither more nor less than anything, as SQL's NULL.
    private mutating func compareNull() -> Bool {
        op.isOrdering ? false : compareLiteral("null")
    }

    private mutating func compareLiteral(_ text: String) -> Bool {
        scratch = Array(text.utf8)
        return compareFoldedScratch { text }
    }

    private func compareNumber(_ number: Double, text: () -> [UInt8]) -> Bool {
        guard let wanted = numberValue, op != .contains else {
            // A number is no date: neither before nor after one.
            if dateValue != nil, op.isOrdering { return false }
            return Self.compareBytes(Array(Folding.fold(String(decoding: text(), as: UTF8.self)).utf8), foldedValue, op)
        }
        if number == wanted, let exactValue, let exact = ExactNumber(String(decoding: text(), as: UTF8.self)) {
            // One Double, maybe two numbers: the literals decide.
            return Self.compare(exact, exactValue, op)
        }
        return Self.compare(number, wanted, op)
    }

    private static func compare<Value: Comparable>(_ value: Value, _ wanted: Value, _ op: FilterExpression.Operator) -> Bool {
        switch op {
        case .equal: return value == wanted
        case .less: return value < wanted
        case .lessOrEqual: return value <= wanted
        case .greater: return value > wanted
        case .greaterOrEqual: return value >= wanted
        default: return false
        }
    }

    /// Compares the folded text in `scratch` with the value.
    private func compareFoldedScratch(original: () -> String) -> Bool {
        guard op.isOrdering else { return Self.compareBytes(scratch, foldedValue, op) }
        // Against a number, text orders only when it reads as one ("200" > 100, as SWAPI writes
        // numbers); words like "unknown" are neither more nor less than a number.
        if numberValue != nil {
            let text = original()
            guard let number = NumericText.value(of: text) else { return false }
            return compareNumber(number) { Array(text.utf8) }
        }
        // Against a date, text orders only when it reads as one, by its instant: at
        // `2023-12-31T23:59:59-02:00` it is 01:59:59 on 2024-01-01 in UTC, after `2024-01-01`.
        if let dateValue {
            guard let seconds = CalendarDate.seconds(original()) else { return false }
            return Self.compare(seconds, dateValue, op)
        }
        // The words for no value (`""`, `n/a`, `unknown`, `none`: ValueText) order against
        // nothing, as null does; `=` and `~` still read them as the words they are.
        if ValueText.mayBeAbsent(utf8: scratch), ValueText.isAbsent(original()) { return false }
        return Self.compareBytes(scratch, foldedValue, op)
    }

    static func compareBytes(_ text: [UInt8], _ wanted: [UInt8], _ op: FilterExpression.Operator) -> Bool {
        switch op {
        case .equal: return text == wanted
        case .contains:
            if wanted.isEmpty { return true }
            if text.count < wanted.count { return false }
            return text.withUnsafeBufferPointer { hay in
                wanted.withUnsafeBufferPointer { almanac_memmem(hay.baseAddress, hay.count, $0.baseAddress, $0.count) != nil }
            }
        case .less: return text.lexicographicallyPrecedes(wanted)
        case .lessOrEqual: return !wanted.lexicographicallyPrecedes(text)
        case .greater: return wanted.lexicographicallyPrecedes(text)
        case .greaterOrEqual: return !text.lexicographicallyPrecedes(wanted)
        default: return false
        }
    }
}

/// The remembered result of a comparison per distinct string node: a small direct-mapped
/// table, faster than a dictionary in a loop over every record.
struct ResultCache {
    private var keys = [UInt64](repeating: 0, count: WordHash.cacheSize)
    private var results = [UInt8](repeating: 0, count: WordHash.cacheSize)

    subscript(word: UInt64) -> Bool? {
        get {
            let slot = WordHash.cacheSlot(word)
            return results[slot] != 0 && keys[slot] == word ? results[slot] == 2 : nil
        }
        set {
            let slot = WordHash.cacheSlot(word)
            keys[slot] = word
            results[slot] = newValue.map { $0 ? 2 : 1 } ?? 0
        }
    }
}

extension Filter {
    /// The values `field` reaches in record `row` of `dataset`, each with whether it meets
    /// `op value` on its own (`!=`, `!~`: whether it is not equal, does not contain): which
    /// element of a list matched, as `why` says it.
    public static func values(of field: String, meeting op: FilterExpression.Operator, _ value: String, in dataset: Dataset,
                              row: Int) -> [(value: FieldValue, meets: Bool)] {
        let path = dataset.compile(FieldPath(field))
        var comparison = FieldComparison(dataset: dataset, path: path, op: op, value: value)
        return dataset.comparedValues(of: path, row: row).map { ($0, comparison.meets($0)) }
    }
}

extension FieldComparison {
    mutating func meets(_ value: FieldValue) -> Bool { test(value) != negated }
}
