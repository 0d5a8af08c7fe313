/// `group` where a key or an aggregate is an expression (`group year(created) as year`,
/// `group region avg(population / area) as density`): every key and aggregate computed over
/// the results as a vector once, then the groups counted per combination of key values, with
/// memory's group rules — numbers named plainly, a list counts each value, absent values
/// make the "" group, largest first and equal counts by value (numbers, text, none last).
enum ComputedGroup {
    /// One key value: its text ("" for none) and whether it is a number.
    struct Key: Hashable {
        var text: String
        var isNumber: Bool
    }

    /// Whether the spec needs this engine: a key or an aggregate that is no field.
    static func isComputed(_ spec: GroupSpec, in catalogs: [FieldCatalog], datasets: [Dataset], stepColumns: [ComputedColumn] = []) throws -> Bool {
        for field in spec.fields + spec.aggregates.map(\.field)
        where try ComputedValues.expression(field, in: catalogs, datasets: datasets, stepColumns: stepColumns) != nil {
            return true
        }
        return false
    }

    /// A spec's values over the results: its expression, or the field read as a vector.
    static func vector(_ spec: String, results: ResultSet, catalogs: [FieldCatalog], cancellation: Cancellation) throws -> ValueVector {
        let expression = try ComputedValues.expression(spec, in: catalogs, datasets: results.datasets, stepColumns: results.computed)?.expression ?? Expression(.field(spec))
        return try ComputedValues.evaluate(expression, over: results, cancellation: cancellation)
    }

    /// Each row's distinct key values of one vector (none: the "" key).
    static func keys(of vector: ValueVector, row: Int) -> [Key] {
        var keys: [Key] = []
        for index in vector.range(of: row) {
            guard let text = vector.text(at: index) else { continue }
            let key = Key(text: text, isNumber: vector.type == .number)
            if !keys.contains(key) { keys.append(key) }
        }
        return keys.isEmpty ? [Key(text: "", isNumber: false)] : keys
    }

    static func run(_ results: ResultSet, by spec: GroupSpec, cancellation: Cancellation) throws -> Groups {
        let catalogs = try results.datasets.map { dataset throws(CancelledError) in try dataset.fields(cancellation: cancellation) }
        let keyVectors = try spec.fields.map { try vector($0, results: results, catalogs: catalogs, cancellation: cancellation) }
        let aggregateVectors = try spec.aggregates.map { try vector($0.field, results: results, catalogs: catalogs, cancellation: cancellation) }
        let galactic = try spec.aggregates.map { try holdsGalacticYears($0, results: results, catalogs: catalogs, cancellation: cancellation) }
        if keyVectors.allSatisfy({ $0.offsets == nil }) {
            return try numbered(spec, keyVectors, aggregateVectors, galactic: galactic, rows: results.count, cancellation: cancellation)
        }
        var groups: [[Key]: Int] = [:]
        var keysOfGroup: [[Key]] = []
        var counts: [Int] = []
        var members: [[Int]] = []
        for row in 0..<results.count {
            if row & 0x3FFF == 0 { try cancellation.checkpoint() }
            var combinations: [[Key]] = [[]]
            for vector in keyVectors {
                let values = keys(of: vector, row: row)
                combinations = combinations.flatMap { prefix in values.map { prefix + [$0] } }
                guard combinations.count <= Group.maximumCombinations else {
                    throw QueryError.invalid("grouping by these list fields makes more than \(Group.maximumCombinations.grouped) groups for one record "
                        + "— group by fewer list fields")
                }
            }
            for combination in combinations {
                let group = groups.number(of: combination, next: counts.count) {
                    keysOfGroup.append(combination)
                    counts.append(0)
                    members.append([])
                }
                counts[group] += 1
                if !aggregateVectors.isEmpty { members[group].append(row) }
            }
        }
        let order = keysOfGroup.indices.sorted { a, b in
            counts[a] != counts[b] ? counts[a] > counts[b] : precedes(keysOfGroup[a], keysOfGroup[b])
        }
        let rows = order.map { group in
            Group.Row(values: keysOfGroup[group].map(\.text), count: counts[group], numbers: keysOfGroup[group].map(\.isNumber),
                      aggregates: spec.aggregates.indices.map { index in
                          written(aggregate(spec.aggregates[index].function, aggregateVectors[index], rows: members[group]),
                                  spec.aggregates[index].function, galactic: galactic[index])
                      })
        }
        return Groups(rows: rows)
    }

    /// Whether an aggregated field (not an expression) holds galactic years (`19BBY`) among the
    /// results: then its min, max and mean are written as one (`896BBY`), as `Aggregation`
    /// writes a field's when the keys are fields.
    static func holdsGalacticYears(_ aggregate: Aggregate, results: ResultSet, catalogs: [FieldCatalog],
                                   cancellation: Cancellation) throws -> Bool {
        guard [.min, .max, .avg].contains(aggregate.function),
              try ComputedValues.expression(aggregate.field, in: catalogs, datasets: results.datasets, stepColumns: results.computed) == nil
        else { return false }
        let field = ComputedValues.renamedField(aggregate.field, in: catalogs) ?? aggregate.field
        guard catalogs.contains(where: { FieldLookup.field(field, in: $0)?.kinds.contains(.string) == true }) else { return false }
        let paths = results.datasets.map { $0.compile(FieldPath(field)) }
        for (position, item) in results.items.enumerated() {
            if position & 0xFFFF == 0 { try cancellation.checkpoint() }
            let dataset = results.datasets[item.dataset]
            var found = false
            dataset.forEachWholeValue(of: paths[item.dataset], row: item.row) { value in
                if !found, dataset.number(of: value) == nil, NumericText.isGalacticYear(dataset.text(of: value)) { found = true }
            }
            if found { return true }
        }
        return false
    }

    /// A min, max or mean of galactic years written as one, to three decimals.
    static func written(_ value: AggregateValue, _ function: Aggregate.Function, galactic: Bool) -> AggregateValue {
        guard galactic, function == .min || function == .max || function == .avg, case let .number(number) = value,
              let year = NumberNotation.galacticYear.text((number * 1000).rounded() / 1000) else { return value }
        return .text(year)
    }

    /// The common case, one value per row for every key: each key's values numbered once (a
    /// number by its bits, text by itself), rows counted by their numbers, the aggregates read
    /// straight through per group; text is made once per distinct value.
    static func numbered(_ spec: GroupSpec, _ keyVectors: [ValueVector], _ aggregateVectors: [ValueVector], galactic: [Bool], rows: Int,
                         cancellation: Cancellation) throws -> Groups {
        var keysOfValue: [[Key]] = []
        var numbers: [[Int32]] = []
        for vector in keyVectors {
            var ids = [Int32](repeating: 0, count: rows)
            var keys: [Key] = [Key(text: "", isNumber: false)]
            switch vector.values {
            case let .numbers(values):
                var known: [UInt64: Int32] = [:]
                for row in 0..<rows {
                    let value = values[row]
                    if value.isNaN { continue }
                    let bits = (value == 0 ? 0 : value).bitPattern
                    if let id = known[bits] { ids[row] = id; continue }
                    let id = Int32(keys.count)
                    known[bits] = id
                    keys.append(Key(text: vector.text(at: row)!, isNumber: vector.type == .number))
                    ids[row] = id
                }
            default:
                var known: [String: Int32] = [:]
                for row in 0..<rows {
                    guard let text = vector.text(at: row) else { continue }
                    if let id = known[text] { ids[row] = id; continue }
                    let id = Int32(keys.count)
                    known[text] = id
                    keys.append(Key(text: text, isNumber: false))
                    ids[row] = id
                }
            }
            keysOfValue.append(keys)
            numbers.append(ids)
            try cancellation.checkpoint()
        }
        // Each row's group.
        var groupOf = [Int32](repeating: 0, count: rows)
        var combinations: [[Int32]] = []
        var counts: [Int] = []
        if numbers.count == 1 {
            var groupOfValue = [Int32](repeating: -1, count: keysOfValue[0].count)
            for row in 0..<rows {
                let value = Int(numbers[0][row])
                if groupOfValue[value] < 0 {
                    groupOfValue[value] = Int32(counts.count)
                    combinations.append([Int32(value)])
                    counts.append(0)
                }
                let group = groupOfValue[value]
                counts[Int(group)] += 1
                groupOf[row] = group
            }
        } else {
            var known: [[Int32]: Int32] = [:]
            var key = [Int32](repeating: 0, count: numbers.count)
            for row in 0..<rows {
                for index in numbers.indices { key[index] = numbers[index][row] }
                let group: Int32
                if let found = known[key] {
                    group = found
                } else {
                    group = Int32(counts.count)
                    known[key] = group
                    combinations.append(key)
                    counts.append(0)
                }
                counts[Int(group)] += 1
                groupOf[row] = group
            }
        }
        try cancellation.checkpoint()
        let keysOfGroup = combinations.map { combination in combination.enumerated().map { keysOfValue[$0.offset][Int($0.element)] } }
        let aggregates = spec.aggregates.indices.map { index in
            accumulate(spec.aggregates[index].function, aggregateVectors[index], groupOf: groupOf, groups: counts.count)
                .map { written($0, spec.aggregates[index].function, galactic: galactic[index]) }
        }
        let order = keysOfGroup.indices.sorted { a, b in
            counts[a] != counts[b] ? counts[a] > counts[b] : precedes(keysOfGroup[a], keysOfGroup[b])
        }
        return Groups(rows: order.map { group in
            Group.Row(values: keysOfGroup[group].map(\.text), count: counts[group], numbers: keysOfGroup[group].map(\.isNumber),
                      aggregates: aggregates.map { $0[group] })
        })
    }

    /// One aggregate for every group at once: numbers summed and compared in one pass over the
    /// rows (each group's in row order); text and distinct values per group as the general path reads them.
    static func accumulate(_ function: Aggregate.Function, _ vector: ValueVector, groupOf: [Int32], groups: Int) -> [AggregateValue] {
        if vector.offsets == nil, case let .numbers(values) = vector.values, function != .distinct {
            var present = [Int](repeating: 0, count: groups)
            var sums = [Double](repeating: 0, count: groups)
            var minimums = [Double](repeating: .infinity, count: groups)
            var maximums = [Double](repeating: -.infinity, count: groups)
            for row in groupOf.indices {
                let value = values[row]
                if value.isNaN { continue }
                let group = Int(groupOf[row])
                present[group] += 1
                sums[group] += value
                minimums[group] = Swift.min(minimums[group], value)
                maximums[group] = Swift.max(maximums[group], value)
            }
            return (0..<groups).map { group in
                guard present[group] > 0 || function == .count else { return .none }
                switch function {
                case .count: return .number(Double(present[group]))
                case .sum: return .number(sums[group])
                case .avg: return .number(sums[group] / Double(present[group]))
                case .min, .max:
                    let value = function == .min ? minimums[group] : maximums[group]
                    return vector.type == .date ? .text(CalendarDate.iso8601(value)) : .number(value)
                case .distinct: return .none
                }
            }
        }
        var members = [[Int]](repeating: [], count: groups)
        for row in groupOf.indices { members[Int(groupOf[row])].append(row) }
        return members.map { aggregate(function, vector, rows: $0) }
    }

    /// Equal counts by value: numbers (numerically), then text folded and by code point, none last.
    static func precedes(_ left: [Key], _ right: [Key]) -> Bool {
        for (a, b) in zip(left, right) where a != b {
            if a.text.isEmpty != b.text.isEmpty { return b.text.isEmpty }
            if a.isNumber != b.isNumber { return a.isNumber }
            if a.isNumber, let x = Double(a.text), let y = Double(b.text), x != y { return x < y }
            let (x, y) = (Folding.fold(a.text), Folding.fold(b.text))
            if x != y { return x.utf8.lexicographicallyPrecedes(y.utf8) }
            return a.text.utf8.lexicographicallyPrecedes(b.text.utf8)
        }
        return false
    }

    /// One aggregate over the present values of a group's rows (every value of a list).
    static func aggregate(_ function: Aggregate.Function, _ vector: ValueVector, rows: [Int]) -> AggregateValue {
        var present = 0
        var numbers: [Double] = []
        var texts: [String] = []
        var distinct = Set<String>()
        for row in rows {
            var any = false
            for index in vector.range(of: row) where vector.isPresent(index) {
                any = true
                switch vector.values {
                case let .numbers(values): numbers.append(values[index])
                default: texts.append(vector.text(at: index)!)
                }
                if function == .distinct { distinct.insert(vector.text(at: index)!) }
            }
            if any { present += 1 }
        }
        switch function {
        case .count: return .number(Double(present))
        case .distinct: return .number(Double(distinct.count))
        case .sum: return numbers.isEmpty ? .none : .number(numbers.reduce(0, +))
        case .avg: return numbers.isEmpty ? .none : .number(numbers.reduce(0, +) / Double(numbers.count))
        case .min, .max:
            if !numbers.isEmpty {
                let value = function == .min ? numbers.min()! : numbers.max()!
                return vector.type == .date ? .text(CalendarDate.iso8601(value)) : .number(value)
            }
            let ordered = texts.sorted { a, b in
                let (x, y) = (Folding.fold(a), Folding.fold(b))
                return x != y ? x.utf8.lexicographicallyPrecedes(y.utf8) : a.utf8.lexicographicallyPrecedes(b.utf8)
            }
            return (function == .min ? ordered.first : ordered.last).map(AggregateValue.text) ?? .none
        }
    }

    /// The records in the group whose key values are `row`'s (`show #N`).
    static func members(of row: Group.Row, by spec: GroupSpec, in results: ResultSet, cancellation: Cancellation) throws -> ResultSet {
        let catalogs = try results.datasets.map { dataset throws(CancelledError) in try dataset.fields(cancellation: cancellation) }
        let vectors = try spec.fields.map { try vector($0, results: results, catalogs: catalogs, cancellation: cancellation) }
        let wanted = zip(row.values, row.numbers).map { Key(text: $0, isNumber: $0.isEmpty ? false : $1) }
        var kept: [ResultSet.Item] = []
        for (position, item) in results.items.enumerated() {
            if zip(vectors, wanted).allSatisfy({ keys(of: $0, row: position).contains($1) }) { kept.append(item) }
        }
        return results.with(kept)
    }
}
