/// The aggregates of `group … AGG FIELD, …`, accumulated per group as records are counted:
/// each record's values of each aggregated field are read once, then added to every group
/// the record counts in.
struct Aggregation: Sendable {
    private let aggregates: [Aggregate]
    private let paths: [[Dataset.CompiledPath]]
    /// Per dataset and aggregate: the field's column, when it has one.
    private let columns: [[ColumnView?]]
    /// Keeps the columns `columns` points into.
    private let catalogs: [FieldCatalog]
    private var accumulators: [Accumulator]
    /// (group, value number) pairs seen, per aggregate, for `distinct`.
    private var distinct: [WordTable]
    private var values: ValueNumbering
    /// The current record's values, all aggregates one after the other (`ends`).
    private var readings: [Reading] = []
    private var ends: [Int]
    /// What each distinct text value reads as (a number, or text), once.
    private var textNumbers: [Double?] = []

    /// One value of an aggregated field in one record: its number (NaN: none) and its value number.
    private struct Reading {
        var number: Double
        var identity: Int32
    }

    /// A column read without reference counting (the catalog keeps its arrays).
    private struct ColumnView: @unchecked Sendable {
        let kinds: UnsafePointer<UInt8>
        let words: UnsafePointer<UInt64>
    }

    init(_ aggregates: [Aggregate], results: ResultSet, catalogs: [FieldCatalog], mergesDocuments: Bool) {
        self.aggregates = aggregates
        self.catalogs = catalogs
        paths = results.datasets.map { dataset in aggregates.map { dataset.compile(FieldPath($0.field)) } }
        columns = zip(catalogs, paths).map { catalog, paths in
            zip(aggregates, paths).map { aggregate, path -> ColumnView? in
                guard !path.hasTwinSpellings, let column = catalog.column(aggregate.field), !column.kinds.isEmpty else { return nil }
                return ColumnView(kinds: column.kinds.withUnsafeBufferPointer { $0.baseAddress! },
                                  words: column.words.withUnsafeBufferPointer { $0.baseAddress! })
            }
        }
        accumulators = aggregates.map { _ in Accumulator() }
        distinct = aggregates.map { _ in WordTable() }
        values = ValueNumbering(mergesDocuments: mergesDocuments)
        ends = aggregates.map { _ in 0 }
    }

    var isEmpty: Bool { aggregates.isEmpty }

    /// Reads the aggregated fields of one record: only what each aggregate needs (presence
    /// for count, identity for distinct, numbers for sum and avg, numbers or text for min/max).
    mutating func read(_ item: ResultSet.Item, in results: ResultSet) {
        readings.removeAll(keepingCapacity: true)
        for index in aggregates.indices {
            defer { ends[index] = readings.count }
            let function = aggregates[index].function
            if let column = columns[item.dataset][index] {
                let kind = column.kinds[item.row]
                let word = column.words[item.row]
                switch kind {
                case FieldCatalog.Column.missing, JSONDocument.Kind.null.rawValue:
                    continue
                case JSONDocument.Kind.number.rawValue:
                    let identity = function == .distinct ? values.number(kind: kind, word: word, in: results.datasets[item.dataset],
                                                                         datasetIndex: item.dataset, path: paths[item.dataset][index],
                                                                         row: item.row, field: index) : 1
                    readings.append(Reading(number: Double(bitPattern: word), identity: identity))
                    continue
                case JSONDocument.Kind.string.rawValue:
                    // A string longer than the words for none is present: count needs no more.
                    if function == .count, JSONDocument.textRange(ofWord: word).count > 12 {
                        readings.append(Reading(number: .nan, identity: 1))
                        continue
                    }
                    let identity = values.number(kind: kind, word: word, in: results.datasets[item.dataset], datasetIndex: item.dataset,
                                                 path: paths[item.dataset][index], row: item.row, field: index)
                    guard identity != values.empty else { continue }
                    readings.append(Reading(number: function == .count || function == .distinct ? .nan : number(of: identity), identity: identity))
                    continue
                default:
                    break
                }
            }
            let dataset = results.datasets[item.dataset]
            dataset.forEachValue(of: paths[item.dataset][index], row: item.row) { value in
                let identity = values.number(for: value, in: dataset, datasetIndex: item.dataset)
                guard identity != values.empty else { return }
                let number = dataset.number(of: value) ?? (function == .count || function == .distinct ? .nan : number(of: identity))
                readings.append(Reading(number: number, identity: identity))
            }
        }
    }

    /// The number a text value reads as (`"120"`), or NaN; decided once per distinct value.
    private mutating func number(of identity: Int32) -> Double {
        let index = Int(identity)
        while textNumbers.count <= index { textNumbers.append(nil) }
        if let known = textNumbers[index] { return known }
        let number = NumericText.value(of: values.name(of: identity)) ?? .nan
        textNumbers[index] = number
        return number
    }

    /// Adds the record last read to group `group`.
    mutating func add(to group: Int) {
        var start = 0
        for index in aggregates.indices {
            let end = ends[index]
            defer { start = end }
            while accumulators[index].present.count <= group { accumulators[index].grow() }
            guard end > start else { continue }
            accumulators[index].present[group] += 1
            let function = aggregates[index].function
            for reading in readings[start..<end] {
                switch function {
                case .count:
                    break
                case .distinct:
                    let before = distinct[index].count
                    _ = distinct[index].value(of: UInt64(UInt32(group)) << 32 | UInt64(UInt32(bitPattern: reading.identity))) { 0 }
                    if distinct[index].count > before { accumulators[index].distinct[group] += 1 }
                case .sum, .avg:
                    if !reading.number.isNaN { accumulators[index].add(reading.number, to: group) }
                case .min, .max:
                    if !reading.number.isNaN {
                        accumulators[index].add(reading.number, to: group)
                    } else {
                        accumulators[index].add(text: values.name(of: reading.identity), to: group)
                    }
                }
            }
        }
    }

    /// The aggregates of group `group`, in the order asked.
    func values(of group: Int) -> [AggregateValue] {
        aggregates.indices.map { index in
            let accumulator = accumulators[index]
            guard group < accumulator.present.count else { return aggregates[index].function == .count ? .number(0) : .none }
            return accumulator.value(aggregates[index].function, group: group)
        }
    }
}

/// Per-group running totals of one aggregated field.
private struct Accumulator: Sendable {
    var present: [Int] = []
    var numbers: [Int] = []
    var sums: [Double] = []
    var minimums: [Double] = []
    var maximums: [Double] = []
    var distinct: [Int] = []
    var minimumTexts: [Int: String] = [:]
    var maximumTexts: [Int: String] = [:]

    mutating func grow() {
        present.append(0)
        numbers.append(0)
        sums.append(0)
        minimums.append(.infinity)
        maximums.append(-.infinity)
        distinct.append(0)
    }

    mutating func add(_ number: Double, to group: Int) {
        numbers[group] += 1
        sums[group] += number
        minimums[group] = Swift.min(minimums[group], number)
        maximums[group] = Swift.max(maximums[group], number)
    }

    /// Text orders as `sort` orders it: folded, then by code point.
    mutating func add(text: String, to group: Int) {
        func before(_ one: String, _ other: String) -> Bool {
            let (left, right) = (Folding.fold(one), Folding.fold(other))
            return left != right ? left.utf8.lexicographicallyPrecedes(right.utf8) : one.utf8.lexicographicallyPrecedes(other.utf8)
        }
        if minimumTexts[group].map({ before(text, $0) }) ?? true { minimumTexts[group] = text }
        if maximumTexts[group].map({ before($0, text) }) ?? true { maximumTexts[group] = text }
    }

    func value(_ function: Aggregate.Function, group: Int) -> AggregateValue {
        switch function {
        case .count: return .number(Double(present[group]))
        case .distinct: return .number(Double(distinct[group]))
        case .sum: return numbers[group] > 0 ? .number(sums[group]) : .none
        case .avg: return numbers[group] > 0 ? .number(sums[group] / Double(numbers[group])) : .none
        case .min: return numbers[group] > 0 ? .number(minimums[group]) : minimumTexts[group].map(AggregateValue.text) ?? .none
        case .max: return numbers[group] > 0 ? .number(maximums[group]) : maximumTexts[group].map(AggregateValue.text) ?? .none
        }
    }
}

/// What an aggregate came to for one group: a number, a text (`min` of names), or nothing to aggregate.
public enum AggregateValue: Sendable, Equatable {
    case number(Double)
    case text(String)
    case none

    /// An aggregate as a database sends it, as text: a number where it reads as one.
    public init(text: String?) {
        guard let text else { self = .none; return }
        guard let number = Double(text), number.isFinite else { self = .text(text); return }
        self = .number(number)
    }
}
