/// The numbers or dates one field holds across a result set: what a histogram counts.
///
/// A value is a JSON number, a number written as text (`"180"`, as SWAPI writes them) or an
/// ISO 8601 date (`"2014-12-10T13:52:11.567Z"`). The field is numeric or a date field by
/// which of the two most of its values are; anything else — `null`, `"unknown"`, `"n/a"`,
/// a value of the other kind — leaves the record without a value, and the texts met are
/// counted so a person can be told what they were.
public struct FieldMeasurements: Sendable {
    public enum Kind: Sendable, Equatable { case number, date }

    public var field: String
    public var kind: Kind
    /// Every value of that kind (several per record for a list field).
    public var values: [Double]
    public var records: Int
    public var recordsWithValue: Int
    /// Values that were neither, most frequent first: `("unknown", 12)`.
    public var otherValues: [(text: String, count: Int)]
    /// How the numbers were written: bins of galactic years are labelled `900BBY – 800BBY`.
    public var notation: NumberNotation = .plain

    public var recordsWithoutValue: Int { records - recordsWithValue }

    public static func read(_ field: String, from results: ResultSet, cancellation: Cancellation = .never) throws -> FieldMeasurements {
        let catalogs = try results.datasets.map { dataset throws(CancelledError) in try dataset.fields(cancellation: cancellation) }
        if let computed = try ComputedValues.expression(field, in: catalogs, datasets: results.datasets, stepColumns: results.computed) {
            return measured(field, try ComputedValues.evaluate(computed.expression, over: results, cancellation: cancellation))
        }
        // `area as a` measures area (its words for none counted as area's are).
        let read = ComputedValues.field(field, in: catalogs)
        try FieldLookup.require(read, in: results.datasets, cancellation: cancellation)
        let path = FieldPath(read)
        var numbers: [Double] = []
        var dates: [Double] = []
        numbers.reserveCapacity(results.count)
        // Per record, which kinds it had: bit 0 a number, bit 1 a date.
        var seen = [UInt8](repeating: 0, count: results.count)
        var others: [String: Int] = [:]
        var notation = NumberNotation.plain
        // One pass per dataset (a handful at most) keeps its document and path in hand.
        for (datasetIndex, dataset) in results.datasets.enumerated() {
            let compiled = dataset.compile(path)
            let document = dataset.document
            func take(_ node: Int, _ position: Int) {
                switch document.kind(at: node) {
                case .number:
                    numbers.append(document.number(at: node))
                    seen[position] |= 1
                case .string:
                    let range = document.textRange(at: node)
                    let date = document.arena.withUnsafeBufferPointer { CalendarDate.seconds(UnsafeBufferPointer(rebasing: $0[range])) }
                    if let date {
                        dates.append(date)
                        seen[position] |= 2
                    } else {
                        takeText(document.string(at: node), position)
                    }
                case .true: others["true", default: 0] += 1
                case .false: others["false", default: 0] += 1
                case .null, .array, .object: break
                }
            }
            func takeText(_ text: String, _ position: Int) {
                if let date = CalendarDate.seconds(text) {
                    dates.append(date)
                    seen[position] |= 2
                } else if let number = NumericText.value(of: text) {
                    numbers.append(number)
                    seen[position] |= 1
                    if notation == .plain { notation = .of(text) }
                } else {
                    others[text, default: 0] += 1
                }
            }
            for (position, item) in results.items.enumerated() where item.dataset == datasetIndex {
                if position & 0xFFFF == 0 { try cancellation.checkpoint() }
                switch dataset.scalar(of: compiled, row: item.row) {
                case .missing: break
                case let .node(node): take(node, position)
                case .several:
                    dataset.forEachValue(of: compiled, row: item.row) { value in
                        switch value {
                        case let .node(node): take(node, position)
                        case let .number(number):
                            numbers.append(number)
                            seen[position] |= 1
                        case let .text(text): takeText(text, position)
                        }
                    }
                }
            }
        }
        let kind: Kind = dates.count > numbers.count ? .date : .number
        let bit: UInt8 = kind == .date ? 2 : 1
        var withValue = 0
        for flags in seen where flags & bit != 0 { withValue += 1 }
        // The minority kind reads as "other" too: a date in a numeric field is not a number.
        if kind == .number, !dates.isEmpty { others["(dates)", default: 0] += dates.count }
        if kind == .date, !numbers.isEmpty { others["(numbers)", default: 0] += numbers.count }
        let sortedOthers = others.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { (text: $0.key, count: $0.value) }
        var measured = FieldMeasurements(field: field, kind: kind, values: kind == .date ? dates : numbers, records: results.count,
                                         recordsWithValue: withValue, otherValues: sortedOthers)
        measured.notation = kind == .number ? notation : .plain
        return measured
    }

    /// The distribution in one line of `width` characters (▁▂▃▄▅▆▇█), one per equal bin from the
    /// smallest value to the largest: what `describe` shows beside a numeric or date field.
    public func sparkline(width: Int = 12) -> String {
        values.isEmpty ? "" : Bars.sparkline(histogram(bins: max(1, width)).bins.map(\.count))
    }

    /// The histogram of these values: `bins` of them when asked, else as the values suggest.
    public func histogram(bins: Int? = nil) -> Histogram {
        guard kind == .number else { return Histogram.dates(values, bins: bins) }
        var histogram = Histogram.numbers(values, bins: bins)
        histogram.notation = notation
        return histogram
    }

    /// Geometric bins of the values above zero (`histogram FIELD log`).
    public func logarithmicHistogram(bins: Int? = nil) -> Histogram {
        var histogram = Histogram.logarithmic(values, bins: bins)
        histogram.notation = notation
        return histogram
    }

    /// A computed value's numbers or dates (`log10(population / area)`); text has none.
    static func measured(_ field: String, _ vector: ValueVector) -> FieldMeasurements {
        let kind: Kind = vector.type == .date ? .date : .number
        var values: [Double] = []
        var withValue = 0
        var others: [String: Int] = [:]
        for row in 0..<vector.rows {
            var has = false
            for index in vector.range(of: row) where vector.isPresent(index) {
                if case let .numbers(numbers) = vector.values {
                    values.append(numbers[index])
                    has = true
                } else if let text = vector.text(at: index) {
                    others[text, default: 0] += 1
                }
            }
            if has { withValue += 1 }
        }
        let sortedOthers = others.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { (text: $0.key, count: $0.value) }
        return FieldMeasurements(field: field, kind: kind, values: values, records: vector.rows, recordsWithValue: withValue,
                                 otherValues: sortedOthers)
    }
}
