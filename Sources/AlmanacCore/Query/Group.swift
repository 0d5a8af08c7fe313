/// `group FIELD[, FIELD…] [AGG FIELD, …]`: records counted per value (per combination of
/// values), with aggregates; and the records of one group (drill-down).
public enum Group {
    /// A record with several list fields counts in every combination of their values; past
    /// this many for one record, grouping stops with an error rather than run for minutes.
    public static let maximumCombinations = 100_000

    /// One group: the values of the grouping fields, how many records have them, and the aggregates.
    public struct Row: Sendable, Equatable {
        /// Each field's value as written in the source; "" when missing or absent (the `<none>` group).
        public var values: [String]
        public var count: Int
        /// Whether each value is a number.
        public var numbers: [Bool]
        /// The aggregates, in the order asked.
        public var aggregates: [AggregateValue]

        public init(values: [String], count: Int, numbers: [Bool]? = nil, aggregates: [AggregateValue] = []) {
            self.values = values
            self.count = count
            self.numbers = numbers ?? values.map { _ in false }
            self.aggregates = aggregates
        }

        /// The value of `fields[index]` as people read it (`ValueText`): numbers grouped in
        /// thousands unless the field holds years or identifiers.
        public func text(at index: Int, field: String) -> String {
            numbers[index] ? ValueText.number(values[index], field: field) : values[index]
        }
    }

    /// Counts records per combination of the fields' values, largest first, equal counts by
    /// value (numbers, then text by code point, `<none>` last). A list field counts each of its
    /// values; numbers are named as written; a missing or absent value (`null`, `""`, `n/a`,
    /// `unknown`, `none`: see `ValueText`) groups as "".
    ///
    /// Values are numbered once (equal short strings share a node, so a node is a value) and
    /// groups are counted by their numbers; text is made only once per distinct value.
    ///
    /// `twoThreadsFrom`: the rows from which the common case numbers and counts on two threads.
    public static func run(_ results: ResultSet, by spec: GroupSpec, cancellation: Cancellation = .never,
                           twoThreadsFrom: Int = Group.twoThreadsFrom) throws -> Groups {
        let all = try results.datasets.map { dataset throws(CancelledError) in try dataset.fields(cancellation: cancellation) }
        let spec = ComputedValues.fields(of: spec, in: all)
        if try ComputedGroup.isComputed(spec, in: all, datasets: results.datasets, stepColumns: results.computed) { return try ComputedGroup.run(results, by: spec, cancellation: cancellation) }
        let fields = spec.fields
        var catalogs: [FieldCatalog] = []
        for field in fields + spec.aggregates.map(\.field) {
            catalogs = try FieldLookup.require(field, in: results.datasets, cancellation: cancellation)
        }
        let paths = results.datasets.map { dataset in fields.map { dataset.compile(FieldPath($0)) } }
        let columns = zip(catalogs, paths).map { catalog, paths in
            zip(fields, paths).map { $1.hasTwinSpellings ? nil : catalog.column($0) }
        }
        var values = ValueNumbering(mergesDocuments: results.spansDatasets)
        var aggregation = Aggregation(spec.aggregates, results: results, catalogs: catalogs, mergesDocuments: results.spansDatasets)
        // The common case: one dataset, one or two fields with columns. Number each column's
        // values once, then count packed pairs of numbers, with no allocation per record.
        if results.datasets.count == 1, fields.count <= 2, columns[0].allSatisfy({ $0 != nil }) {
            let dataset = results.datasets[0]
            let numbered = columns[0].enumerated().map { field, column in
                values.numbers(of: column!, in: dataset, path: paths[0][field], field: field, twoThreadsFrom: twoThreadsFrom)
            }
            // Each record's group, for the aggregates (read after counting, a field at a time).
            var groups = [Int32](repeating: 0, count: aggregation.isEmpty ? 0 : results.count)
            let second = numbered.count > 1 ? numbered[1] : []
            let counter = try results.items.withUnsafeBufferPointer { items throws(CancelledError) in
                try numbered[0].withUnsafeBufferPointer { first throws(CancelledError) in
                    try second.withUnsafeBufferPointer { second throws(CancelledError) in
                        try groups.withUnsafeMutableBufferPointer { groups throws(CancelledError) in
                            try GroupCounter.count(items, first: first, second: second, groups: groups, expected: results.count / 2,
                                                   twoThreadsFrom: twoThreadsFrom, cancellation: cancellation)
                        }
                    }
                }
            }
            if !aggregation.isEmpty {
                try aggregation.accumulate(.init(positions: nil, groups: groups, groupCount: counter.count), of: results,
                                           cancellation: cancellation)
            }
            // Equal counts are ordered by value: each field's values are ranked once per
            // dataset (the first group by a field pays it, as the first filter pays inference).
            let orders = numbered.indices.map { field in
                dataset.cached(CacheKey<[Int32]>.valueOrder(of: fields[field])) {
                    let ranks = values.ranks()
                    return numbered[field].map { ranks[Int($0)] }
                }
            }
            let tieKeys = counter.firstRows.map { row in
                orders.count == 1 ? UInt64(UInt32(bitPattern: orders[0][Int(row)]))
                    : UInt64(UInt32(bitPattern: orders[0][Int(row)])) << 32 | UInt64(UInt32(bitPattern: orders[1][Int(row)]))
            }
            return try finish(counter, values, aggregation, tieKeys: tieKeys, cancellation: cancellation)
        }
        var counter = GroupCounter(expected: results.count / 2)
        var combination: [Int32] = []
        // The records counted and their groups, for the aggregates.
        var members = Aggregation.Members(positions: [], groups: [], groupCount: 0)
        func counted(_ position: Int, in group: Int) {
            guard !aggregation.isEmpty else { return }
            members.positions!.append(Int32(position))
            members.groups.append(Int32(group))
        }
        for (position, item) in results.items.enumerated() {
            if position & 0x3FFF == 0 { try cancellation.checkpoint() }
            combination.removeAll(keepingCapacity: true)
            // Fields with several values (lists), by position: each value makes its own group.
            var lists: [(index: Int, values: [Int32])] = []
            for index in fields.indices {
                let found = numbers(of: item, field: index, results: results, paths: paths, columns: columns, values: &values)
                combination.append(found.first ?? values.empty)
                if found.count > 1 { lists.append((index, found)) }
            }
            if lists.isEmpty {
                counted(position, in: counter.add(combination))
                continue
            }
            let combinations = lists.reduce(1.0) { $0 * Double($1.values.count) }
            guard combinations <= Double(Self.maximumCombinations) else {
                throw QueryError.invalid("grouping by these list fields makes \(NumberFormat.grouped(combinations)) groups for one record "
                    + "(the limit is \(Self.maximumCombinations.grouped)) — group by fewer list fields")
            }
            var keys = [combination]
            for list in lists {
                keys = keys.flatMap { key in list.values.map { value in
                    var key = key
                    key[list.index] = value
                    return key
                } }
            }
            for key in keys { counted(position, in: counter.add(key)) }
        }
        if !aggregation.isEmpty {
            members.groupCount = counter.count
            try aggregation.accumulate(members, of: results, cancellation: cancellation)
        }
        return try finish(counter, values, aggregation, cancellation: cancellation)
    }

    /// The distinct value numbers of grouping field `index` in one record (none: empty).
    private static func numbers(of item: ResultSet.Item, field index: Int, results: ResultSet, paths: [[Dataset.CompiledPath]],
                                columns: [[FieldCatalog.Column?]], values: inout ValueNumbering) -> [Int32] {
        let dataset = results.datasets[item.dataset]
        let path = paths[item.dataset][index]
        if let column = columns[item.dataset][index] {
            return [values.number(kind: column.kinds[item.row], word: column.words[item.row], in: dataset,
                                  datasetIndex: item.dataset, path: path, row: item.row, field: index)]
        }
        switch dataset.scalar(of: path, row: item.row) {
        case .missing:
            return []
        case let .node(node):
            return [values.number(for: .node(node), in: dataset, datasetIndex: item.dataset)]
        case .several:
            var found: [Int32] = []
            dataset.forEachWholeValue(of: path, row: item.row) { value in
                let number = values.number(for: value, in: dataset, datasetIndex: item.dataset)
                if !found.contains(number) { found.append(number) }
            }
            return found
        }
    }

    /// The counted groups, largest first; equal counts by value (`tieKeys`: each group's value
    /// ranks packed in a word, when already known).
    private static func finish(_ counter: GroupCounter, _ values: ValueNumbering, _ aggregation: Aggregation,
                               tieKeys: [UInt64]? = nil, cancellation: Cancellation) throws -> Groups {
        let counts = counter.counts
        var order = Array(0..<counter.count)
        let ranks = tieKeys == nil ? values.ranks() : []
        if let keys = tieKeys ?? (counter.count > 0 && counter.rankKey(at: 0, ranks: ranks) != nil
            ? (0..<counter.count).map { counter.rankKey(at: $0, ranks: ranks)! } : nil) {
            order.sort { a, b in counts[a] != counts[b] ? counts[a] > counts[b] : keys[a] < keys[b] }
        } else {
            let keys = (0..<counter.count).map { counter.key(at: $0).map { ranks[Int($0)] } }
            order.sort { a, b in counts[a] != counts[b] ? counts[a] > counts[b] : keys[a].lexicographicallyPrecedes(keys[b]) }
        }
        try cancellation.checkpoint()
        return Groups(counter: counter, values: values, aggregation: aggregation, order: order)
    }

    /// The records of `results` in the group whose values are `row.values` (as `run` named
    /// them, by the fields of `spec`): what `show #N` after a group lists.
    public static func members(of row: Row, by spec: GroupSpec, in results: ResultSet, cancellation: Cancellation = .never) throws -> ResultSet {
        let all = try results.datasets.map { dataset throws(CancelledError) in try dataset.fields(cancellation: cancellation) }
        let spec = ComputedValues.fields(of: spec, in: all)
        if try ComputedGroup.isComputed(GroupSpec(fields: spec.fields), in: all, datasets: results.datasets, stepColumns: results.computed) {
            return try ComputedGroup.members(of: row, by: spec, in: results, cancellation: cancellation)
        }
        let catalogs = try spec.fields.map { try FieldLookup.require($0, in: results.datasets, cancellation: cancellation) }.last ?? []
        let paths = results.datasets.map { dataset in spec.fields.map { dataset.compile(FieldPath($0)) } }
        let columns = zip(catalogs, paths).map { catalog, paths in
            zip(spec.fields, paths).map { $1.hasTwinSpellings ? nil : catalog.column($0) }
        }
        var values = ValueNumbering(mergesDocuments: results.spansDatasets)
        // Whether each value number is the group's value of each field, decided once per number.
        var matches = spec.fields.map { _ in [Int32: Bool]() }
        var kept: [ResultSet.Item] = []
        for (position, item) in results.items.enumerated() {
            if position & 0x3FFF == 0 { try cancellation.checkpoint() }
            var member = true
            for index in spec.fields.indices where member {
                let found = numbers(of: item, field: index, results: results, paths: paths, columns: columns, values: &values)
                if row.values[index].isEmpty {
                    member = found.isEmpty || found.contains(values.empty)
                    continue
                }
                member = found.contains { number in
                    if let known = matches[index][number] { return known }
                    let equal = number != values.empty && values.name(of: number) == row.values[index]
                        && values.isNumber(number) == row.numbers[index]
                    matches[index][number] = equal
                    return equal
                }
            }
            if member { kept.append(item) }
        }
        return results.with(kept)
    }
}

/// The groups, largest first. Their texts are made when read, so counting a quarter of a
/// million groups does not first allocate a quarter of a million arrays of strings.
public struct Groups: RandomAccessCollection, Sendable {
    private let counter: GroupCounter
    private let values: ValueNumbering
    private let aggregation: Aggregation
    private let order: [Int]
    /// Groups of computed keys, made whole (`ComputedGroup`).
    private let rows: [Group.Row]?

    init(counter: GroupCounter, values: ValueNumbering, aggregation: Aggregation, order: [Int]) {
        self.counter = counter
        self.values = values
        self.aggregation = aggregation
        self.order = order
        rows = nil
    }

    init(rows: [Group.Row]) {
        counter = GroupCounter(expected: 0)
        values = ValueNumbering(mergesDocuments: false)
        aggregation = Aggregation([], results: ResultSet(datasets: [], items: []), catalogs: [], mergesDocuments: false)
        order = []
        self.rows = rows
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { rows?.count ?? order.count }

    public subscript(position: Int) -> Group.Row {
        if let rows { return rows[position] }
        let index = order[position]
        let key = counter.key(at: index)
        return Group.Row(values: key.map { values.name(of: $0) }, count: counter.counts[index],
                         numbers: key.map { values.isNumber($0) }, aggregates: aggregation.values(of: index))
    }
}


extension CacheKey where Value == [Int32] {
    /// Per row, the rank of the row's value of `field` among the field's values (how `group`
    /// orders equal counts).
    static func valueOrder(of field: String) -> CacheKey { CacheKey("value-order:" + field) }
}
