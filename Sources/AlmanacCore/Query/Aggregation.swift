/// The aggregates of `group … AGG FIELD, …`, accumulated per group once the records are
/// counted: one aggregate at a time, its field's column read straight through (no per-record
/// look-up of columns, datasets or aggregates), each record added to the groups it counts in.
struct Aggregation: Sendable {
    private let aggregates: [Aggregate]
    private let paths: [[Dataset.CompiledPath]]
    /// Per aggregate and dataset: the field's column, when it has one.
    private let columns: [[ColumnView?]]
    /// Keeps the columns `columns` points into.
    private let catalogs: [FieldCatalog]
    private var accumulators: [Accumulator]
    private var values: ValueNumbering
    /// What each distinct text value reads as (a number, or text), once.
    private var textNumbers: [Double?] = []
    /// The text values written as galactic years (`19BBY`): a min, max or mean of them is shown so.
    private var galacticYears: Set<Int32> = []

    /// One value of an aggregated field in one record: its number (NaN: none) and its value number.
    private struct Reading {
        var number: Double
        var identity: Int32
    }

    /// A column read without reference counting (the catalog keeps its arrays).
    fileprivate struct ColumnView: @unchecked Sendable {
        let kinds: UnsafePointer<UInt8>
        let words: UnsafePointer<UInt64>
    }

    /// The records counted, and the group each counts in: the `position`th member is item
    /// `positions[position]` of the results (`position` itself when nil) in group `groups[position]`.
    struct Members {
        var positions: [Int32]?
        var groups: [Int32]
        var groupCount: Int
    }

    init(_ aggregates: [Aggregate], results: ResultSet, catalogs: [FieldCatalog], mergesDocuments: Bool) {
        self.aggregates = aggregates
        self.catalogs = catalogs
        let paths = results.datasets.map { dataset in aggregates.map { dataset.compile(FieldPath($0.field)) } }
        self.paths = paths
        columns = aggregates.indices.map { index in
            zip(catalogs, paths).map { catalog, paths -> ColumnView? in
                guard !paths[index].hasTwinSpellings, let column = catalog.column(aggregates[index].field), !column.kinds.isEmpty else { return nil }
                return ColumnView(kinds: column.kinds.withUnsafeBufferPointer { $0.baseAddress! },
                                  words: column.words.withUnsafeBufferPointer { $0.baseAddress! })
            }
        }
        accumulators = []
        values = ValueNumbering(mergesDocuments: mergesDocuments)
    }

    var isEmpty: Bool { aggregates.isEmpty }

    /// Adds every member record's values of each aggregated field to its group, reading only
    /// what each aggregate needs (presence for count, identity for distinct, numbers for sum
    /// and avg, numbers or text for min/max). Each group's values are added in record order.
    mutating func accumulate(_ members: Members, of results: ResultSet, cancellation: Cancellation) throws(CancelledError) {
        accumulators = aggregates.map { _ in Accumulator(groups: members.groupCount) }
        let positions = members.positions ?? []
        try results.items.withUnsafeBufferPointer { items throws(CancelledError) in
            try positions.withUnsafeBufferPointer { positions throws(CancelledError) in
                try members.groups.withUnsafeBufferPointer { groups throws(CancelledError) in
                    for index in aggregates.indices {
                        // Out of the array while self numbers values: one exclusive access each.
                        var accumulator = Accumulator(groups: 0)
                        swap(&accumulator, &accumulators[index])
                        defer { swap(&accumulator, &accumulators[index]) }
                        try accumulate(index, of: results, items: items, positions: members.positions == nil ? nil : positions, groups: groups,
                                       into: &accumulator, cancellation: cancellation)
                    }
                }
            }
        }
    }

    /// Aggregate `index` of the members (`Members`, as buffers) into `accumulator`.
    private mutating func accumulate(_ index: Int, of results: ResultSet, items: UnsafeBufferPointer<ResultSet.Item>,
                                     positions: UnsafeBufferPointer<Int32>?, groups: UnsafeBufferPointer<Int32>,
                                     into accumulator: inout Accumulator, cancellation: Cancellation) throws(CancelledError) {
        let function = aggregates[index].function
        let views = columns[index]
        let paths = paths.map { $0[index] }
        let documents = results.datasets.map(\.document)
        var distinct = WordTable()
        var readings: [Reading] = []
        func one(_ position: Int) throws(CancelledError) {
            if position & 0xFFFF == 0 { try cancellation.checkpoint() }
            let item = items[positions.map { Int($0[position]) } ?? position]
            let group = Int(groups[position])
            if let column = views[item.dataset] {
                let kind = column.kinds[item.row]
                let word = column.words[item.row]
                switch kind {
                case FieldCatalog.Column.missing, JSONDocument.Kind.null.rawValue:
                    return
                case JSONDocument.Kind.number.rawValue:
                    let identity = function == .distinct
                        ? values.number(kind: kind, word: word, in: results.datasets[item.dataset], datasetIndex: item.dataset,
                                        path: paths[item.dataset], row: item.row, field: index)
                        : 1
                    accumulator.present[group] += 1
                    add(Reading(number: Double(bitPattern: word), identity: identity), function, group, &accumulator, &distinct)
                    return
                case JSONDocument.Kind.string.rawValue:
                    // A string longer than the words for none is present: count needs no more.
                    if function == .count, JSONDocument.textRange(ofWord: word).count > 12 {
                        accumulator.present[group] += 1
                        return
                    }
                    let identity = values.number(stringWord: word, in: documents[item.dataset], datasetIndex: item.dataset)
                    guard identity != values.empty else { return }
                    let number = function == .count || function == .distinct ? .nan : number(of: identity)
                    accumulator.present[group] += 1
                    add(Reading(number: number, identity: identity), function, group, &accumulator, &distinct)
                    return
                default:
                    break
                }
            }
            readings.removeAll(keepingCapacity: true)
            let dataset = results.datasets[item.dataset]
            dataset.forEachWholeValue(of: paths[item.dataset], row: item.row) { value in
                let identity = values.number(for: value, in: dataset, datasetIndex: item.dataset)
                guard identity != values.empty else { return }
                let number = dataset.number(of: value) ?? (function == .count || function == .distinct ? .nan : number(of: identity))
                readings.append(Reading(number: number, identity: identity))
            }
            guard !readings.isEmpty else { return }
            accumulator.present[group] += 1
            for reading in readings { add(reading, function, group, &accumulator, &distinct) }
        }
        // One dataset's column: runs of numbers are added in a tight loop, anything else below.
        let numberColumn = views.count == 1 && function != .distinct ? views[0] : nil
        var position = 0
        while position < groups.count {
            if let numberColumn {
                // A number read where identity 1 is a galactic year is marked as the loop below marks it.
                let marks = function != .count && function != .sum && galacticYears.contains(1)
                position = try accumulator.addNumbers(of: numberColumn, function, items: items, positions: positions, groups: groups,
                                                      from: position, marksGalactic: marks, cancellation: cancellation)
                guard position < groups.count else { break }
            }
            try one(position)
            position += 1
        }
    }

    /// The number a text value reads as (`"120"`), or NaN; decided once per distinct value.
    private mutating func number(of identity: Int32) -> Double {
        let index = Int(identity)
        while textNumbers.count <= index { textNumbers.append(nil) }
        if let known = textNumbers[index] { return known }
        let name = values.name(of: identity)
        let number = NumericText.value(of: name) ?? .nan
        if !number.isNaN, NumericText.isGalacticYear(name) { galacticYears.insert(identity) }
        textNumbers[index] = number
        return number
    }

    /// Adds one value of a record to group `group`'s totals.
    @inline(__always)
    private func add(_ reading: Reading, _ function: Aggregate.Function, _ group: Int, _ accumulator: inout Accumulator,
                     _ distinct: inout WordTable) {
        switch function {
        case .count:
            break
        case .distinct:
            let before = distinct.count
            _ = distinct.value(of: UInt64(UInt32(group)) << 32 | UInt64(UInt32(bitPattern: reading.identity))) { 0 }
            if distinct.count > before { accumulator.distinct[group] += 1 }
        case .sum, .avg:
            if !reading.number.isNaN { accumulator.add(reading.number, to: group) }
            if function == .avg, !galacticYears.isEmpty, galacticYears.contains(reading.identity) { accumulator.galactic = true }
        case .min, .max:
            if !reading.number.isNaN {
                accumulator.add(reading.number, to: group)
                if !galacticYears.isEmpty, galacticYears.contains(reading.identity) { accumulator.galactic = true }
            } else {
                accumulator.add(text: values.name(of: reading.identity), to: group)
            }
        }
    }

    /// The aggregates of group `group`, in the order asked.
    func values(of group: Int) -> [AggregateValue] {
        aggregates.indices.map { index in
            guard index < accumulators.count, group < accumulators[index].present.count else {
                return aggregates[index].function == .count ? .number(0) : .none
            }
            return accumulators[index].value(aggregates[index].function, group: group)
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
    /// Galactic years were among the numbers: a min, max or mean is written as one (896BBY).
    var galactic = false

    init(groups: Int) {
        present = Array(repeating: 0, count: groups)
        numbers = Array(repeating: 0, count: groups)
        sums = Array(repeating: 0, count: groups)
        minimums = Array(repeating: .infinity, count: groups)
        maximums = Array(repeating: -.infinity, count: groups)
        distinct = Array(repeating: 0, count: groups)
    }

    mutating func add(_ number: Double, to group: Int) {
        numbers[group] += 1
        sums[group] += number
        minimums[group] = Swift.min(minimums[group], number)
        maximums[group] = Swift.max(maximums[group], number)
    }

    /// From member `start` on, while their rows hold numbers (not NaN) or nothing: each number
    /// added to its member's group as `add` adds it, straight from the column's words. A run of
    /// members in one group (records come in runs: a country's cities) is totalled in
    /// registers, from the group's totals so far and in the same order, so every sum is the
    /// one `add` makes. Returns the first member whose row holds anything else, or the end.
    mutating func addNumbers(of column: Aggregation.ColumnView, _ function: Aggregate.Function, items: UnsafeBufferPointer<ResultSet.Item>,
                             positions: UnsafeBufferPointer<Int32>?, groups: UnsafeBufferPointer<Int32>, from start: Int,
                             marksGalactic: Bool, cancellation: Cancellation) throws(CancelledError) -> Int {
        let (number, missing, null) = (JSONDocument.Kind.number.rawValue, FieldCatalog.Column.missing, JSONDocument.Kind.null.rawValue)
        let counts = function == .count
        var added = false
        defer { if added, marksGalactic { galactic = true } }
        var run = Run()
        defer { run.store(into: &self) }
        for position in start..<groups.count {
            if position & 0xFFFF == 0 { try cancellation.checkpoint() }
            let row = items[positions.map { Int($0[position]) } ?? position].row
            let kind = column.kinds[row]
            guard kind == number else {
                if kind == missing || kind == null { continue }
                return position
            }
            let value = Double(bitPattern: column.words[row])
            guard !value.isNaN else { return position }
            let group = Int(groups[position])
            if group != run.group {
                run.store(into: &self)
                run = Run(group, of: self)
            }
            run.present += 1
            guard !counts else { continue }
            added = true
            run.numbers += 1
            run.sum += value
            run.minimum = Swift.min(run.minimum, value)
            run.maximum = Swift.max(run.maximum, value)
        }
        return groups.count
    }

    /// One group's totals while its members come one after another.
    private struct Run {
        var group = -1
        var present = 0
        var numbers = 0
        var sum = 0.0
        var minimum = 0.0
        var maximum = 0.0

        init() {}

        init(_ group: Int, of accumulator: Accumulator) {
            self.group = group
            present = accumulator.present[group]
            numbers = accumulator.numbers[group]
            sum = accumulator.sums[group]
            minimum = accumulator.minimums[group]
            maximum = accumulator.maximums[group]
        }

        func store(into accumulator: inout Accumulator) {
            guard group >= 0 else { return }
            accumulator.present[group] = present
            accumulator.numbers[group] = numbers
            accumulator.sums[group] = sum
            accumulator.minimums[group] = minimum
            accumulator.maximums[group] = maximum
        }
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
        ComputedGroup.written(plainValue(function, group: group), function, galactic: galactic)
    }

    private func plainValue(_ function: Aggregate.Function, group: Int) -> AggregateValue {
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
