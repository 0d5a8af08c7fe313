import Testing
@testable import AlmanacCore

/// A filter over a field's column (one kind and word per row) answers as the rules for one
/// record say, whatever mix of values the column holds: numbers against a number in a loop
/// per operator, the rest a row at a time remembering the last answer, in chunks of 65,536
/// rows, then the kept items gathered without a branch.
@Suite struct FilterColumnTests {
    /// What record `index` holds in `value`, and whether it has one.
    enum Value {
        case number(Double), numericText(Int), word(String), yes, null, absent

        var json: String? {
            switch self {
            case let .number(number): number == number.rounded() ? String(Int(number)) : String(number)
            case let .numericText(number): "\"\(number)\""
            case let .word(word): "\"\(word)\""
            case .yes: "true"
            case .null: "null"
            case .absent: nil
            }
        }
    }

    /// 70,000 records, past one chunk of rows, cycling through every kind of value, with runs
    /// of one value (a row repeating its neighbour's answer) in the middle.
    static let values: [Value] = (0..<70_000).map { index in
        if (40_000..<41_000).contains(index) { return .word("UNKNOWN") }
        if (41_000..<42_000).contains(index) { return .number(60) }
        switch index % 7 {
        case 0: return .number(Double(index % 101))
        case 1: return .number(Double(index % 100) + 0.5)
        case 2: return .numericText(index % 90)
        case 3: return .word(index % 2 == 0 ? "unknown" : "Unknown")
        case 4: return .yes
        case 5: return .null
        default: return .absent
        }
    }

    static let dataset: Dataset = {
        let records = values.enumerated().map { index, value in
            value.json.map { #"{"name": "r\#(index)", "value": \#($0)}"# } ?? #"{"name": "r\#(index)"}"#
        }
        return try! MapTests.generic("[" + records.joined(separator: ",\n") + "]")
    }()

    @Test("the field is read as a column: one kind and word per record, absent ones included")
    func theFieldHasAColumn() throws {
        let column = try #require(try Self.dataset.fields(cancellation: .never).column("value"))
        #expect(column.kinds.count == Self.values.count)
        #expect(column.kinds.filter { $0 == FieldCatalog.Column.missing }.count == Self.values.filter {
            if case .absent = $0 { true } else { false }
        }.count)
    }

    /// The names of the records for which `matches` holds, in order.
    static func expected(_ matches: (Value) -> Bool) -> [String] {
        values.enumerated().compactMap { index, value in matches(value) ? "r\(index)" : nil }
    }

    @Test("numbers and numeric text order against a number; words, true, null and no value never do",
          arguments: ["<", "<=", ">", ">=", "="])
    func orderingAgainstANumber(op: String) throws {
        let compare: (Double, Double) -> Bool = switch op {
        case "<": (<)
        case "<=": (<=)
        case ">": (>)
        case ">=": (>=)
        default: (==)
        }
        let wanted = Self.expected { value in
            switch value {
            case let .number(number): compare(number, 50)
            // Text that reads as a number orders as one; `=` compares it as text ("50" only).
            case let .numericText(number): op == "=" ? number == 50 : compare(Double(number), 50)
            default: false
            }
        }
        let found = names(try filter("value \(op) 50", Self.dataset))
        #expect(found.count == wanted.count)
        #expect(found == wanted)
    }

    @Test("!= 50 keeps every record whose value is not 50 (as a number or as text), those without a value too")
    func notEqualToANumber() throws {
        let wanted = Self.expected { value in
            switch value {
            case let .number(number): return number != 50
            case let .numericText(number): return number != 50
            default: return true
            }
        }
        #expect(names(try filter("value != 50", Self.dataset)) == wanted)
    }

    @Test("a column's numbers compared with a word are their text, as a record's: '5x' sorts among the digits, = \"\" matches none")
    func numbersAgainstAWord() throws {
        let text: (Value) -> String? = { value in
            switch value {
            case let .number(number): number == number.rounded() ? String(Int(number)) : String(number)
            case let .numericText(number): String(number)
            default: nil
            }
        }
        let words = { (text: String) in ExpressionTokens.words(of: text) }
        // Words, true and null are after "5x" (or no value): only numbers and numeric text are before it.
        let less = names(try Filter.run(FilterExpression.parse(FilterExpression.tokens(words("value < '5x'"))), on: .all([Self.dataset])))
        #expect(less == Self.expected { text($0).map { Array($0.utf8).lexicographicallyPrecedes(Array("5x".utf8)) } ?? false })
        #expect(less.count == 16_968)
        #expect(names(try Filter.run(FilterExpression.parse(FilterExpression.tokens(words("value = ''"))), on: .all([Self.dataset]))).isEmpty)
    }

    @Test("= and != a word ignore case, in runs of one value and alone")
    func equalToAWord() throws {
        let isUnknown: (Value) -> Bool = { value in
            if case let .word(word) = value { return word.lowercased() == "unknown" }
            return false
        }
        let equal = names(try filter("value = unknown", Self.dataset))
        #expect(equal == Self.expected(isUnknown))
        #expect(equal.count == 10_714)
        #expect(names(try filter("value != UNKNOWN", Self.dataset)) == Self.expected { !isUnknown($0) })
    }

    @Test("the gathered items are the masked ones, in order, for any count of them")
    func keptItemsAreTheMaskedOnes() {
        for count in [0, 1, 7, 8, 9, 64, 1_001] {
            let items = (0..<count).map { ResultSet.Item(dataset: $0 % 3, row: $0 * 5) }
            for pattern in 0..<4 {
                let mask = (0..<count).map { index in
                    switch pattern {
                    case 0: false
                    case 1: true
                    case 2: index % 3 == 1
                    default: (index * 7919) % 11 < 4
                    }
                }
                let kept = Filter.kept(items, where: mask)
                #expect(kept == zip(items, mask).filter(\.1).map(\.0), "count \(count), pattern \(pattern)")
            }
        }
    }
}
