import Foundation

/// Computes a bound expression over rows of one dataset, a node at a time over whole columns
/// (DuckDB's expression executor): each node is one loop over arrays, never a tree walked per
/// record. Absent values propagate (NaN, nil); comparisons over a list are true when any
/// element matches.
public struct ExpressionEvaluator {
    let dataset: Dataset
    let catalog: FieldCatalog
    let rows: [Int]
    let cancellation: Cancellation
    /// The results' step columns (near's `distance`) and the dataset's place among the results.
    let stepColumns: [ComputedColumn]
    let datasetIndex: Int

    public init(dataset: Dataset, catalog: FieldCatalog, rows: [Int], cancellation: Cancellation = .never,
                stepColumns: [ComputedColumn] = [], datasetIndex: Int = 0) {
        self.dataset = dataset
        self.catalog = catalog
        self.rows = rows
        self.cancellation = cancellation
        self.stepColumns = stepColumns
        self.datasetIndex = datasetIndex
    }

    public func evaluate(_ bound: BoundExpression) throws -> ValueVector {
        try cancellation.checkpoint()
        let count = rows.count
        switch bound.kind {
        case let .number(value): return Self.constant(.number(value), type: bound.type, rows: count)
        case let .text(text): return Self.constant(.text(text), type: .text, rows: count)
        case let .boolean(value): return Self.constant(.boolean(value), type: .boolean, rows: count)
        case .null: return Self.constant(.null, type: .null, rows: count)
        case let .field(name, container):
            if let step = stepColumns.first(where: { $0.name == name }) {
                let values = rows.map { step.value(of: ResultSet.Item(dataset: datasetIndex, row: $0)) ?? .nan }
                return ValueVector(.numbers(values), type: .number)
            }
            return try FieldReader(dataset: dataset, catalog: catalog, rows: rows, cancellation: cancellation)
                .read(name, type: bound.type, container: container)
        case let .linked(path):
            return try LinkGather.values(path, rows: rows, cancellation: cancellation)
        case let .negate(inner):
            var vector = try evaluate(inner)
            vector.values = .numbers(vector.numbers.map { -$0 })
            return vector
        case let .arithmetic(op, left, right):
            return try arithmetic(op, try evaluate(left), try evaluate(right), type: bound.type)
        case let .comparison(op, left, right):
            let first = try evaluate(left)
            // Numbers against a number written in the expression: no column of copies of it.
            if case let .number(constant) = right.kind, first.offsets == nil, case let .numbers(values) = first.values {
                return ValueComparison.compare(op, values, constant)
            }
            return try ValueComparison.compare(op, first, try evaluate(right))
        case let .match(inner, regex, _):
            let vector = try evaluate(inner)
            var cache: [String: UInt8] = [:]
            let results = vector.texts.map { text -> UInt8 in
                guard let text else { return 0 }
                if let known = cache[text] { return known }
                let found: UInt8 = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil ? 1 : 0
                if cache.count < 100_000 { cache[text] = found }
                return found
            }
            return ValueComparison.any(ValueVector(.booleans(results), type: .boolean, offsets: vector.offsets))
        case let .legacy(field, op, value):
            let mask = try CompiledFilter(dataset: dataset, fields: catalog, rows: rows, cancellation: cancellation)
                .evaluate(.comparison(field: field, op: op, value: value))
            return ValueVector(.booleans(mask.map { $0 ? 1 : 0 }), type: .boolean)
        case let .isNull(inner, negated):
            let present: [Bool]
            if case let .field(name, true) = inner.kind {
                present = try FieldReader(dataset: dataset, catalog: catalog, rows: rows, cancellation: cancellation).presence(of: name)
            } else {
                let vector = try evaluate(inner)
                present = (0..<count).map { row in vector.range(of: row).contains(where: vector.isPresent) }
            }
            return ValueVector(.booleans(present.map { $0 != negated ? 0 : 1 }), type: .boolean)
        case let .and(left, right):
            let first = try evaluate(left).booleans
            // The right side only when some row is still undecided.
            guard first.contains(1) else { return ValueVector(.booleans(first.map { _ in 0 }), type: .boolean) }
            let second = try evaluate(right).booleans
            return ValueVector(.booleans(zip(first, second).map { $0 == 1 && $1 == 1 ? 1 : 0 }), type: .boolean)
        case let .or(left, right):
            let first = try evaluate(left).booleans
            guard first.contains(where: { $0 != 1 }) else { return ValueVector(.booleans(first), type: .boolean) }
            let second = try evaluate(right).booleans
            return ValueVector(.booleans(zip(first, second).map { $0 == 1 || $1 == 1 ? 1 : 0 }), type: .boolean)
        case let .not(inner):
            return ValueVector(.booleans(try evaluate(inner).booleans.map { $0 == 1 ? 0 : 1 }), type: .boolean)
        case let .call(function, arguments):
            return try FunctionCall(function: function, type: bound.type, rows: count)
                .run(try arguments.map { try evaluate($0) })
        case let .cast(inner):
            // A field of numbers written as text, read as text, is its text (`004`, not `4`).
            if case let .field(name, container) = inner.kind, inner.type.element == .number,
               !stepColumns.contains(where: { $0.name == name }) {
                return try FieldReader(dataset: dataset, catalog: catalog, rows: rows, cancellation: cancellation)
                    .read(name, type: inner.type.withElement(.text), container: container)
            }
            return Self.asText(try evaluate(inner))
        }
    }

    /// Whether each row satisfies a condition (absent is false).
    public func mask(_ bound: BoundExpression) throws -> [Bool] {
        try evaluate(bound).booleans.map { $0 == 1 }
    }

    enum Constant {
        case number(Double), text(String), boolean(Bool), null
    }

    static func constant(_ value: Constant, type: ValueType, rows: Int) -> ValueVector {
        switch value {
        case let .number(number): ValueVector(.numbers(Array(repeating: number, count: rows)), type: type)
        case let .text(text): ValueVector(.texts(Array(repeating: text, count: rows)), type: .text)
        case let .boolean(flag): ValueVector(.booleans(Array(repeating: flag ? 1 : 0, count: rows)), type: .boolean)
        case .null: ValueVector(.texts(Array(repeating: nil, count: rows)), type: .null)
        }
    }

    /// Numbers as plain text, dates as ISO 8601, booleans as words.
    static func asText(_ vector: ValueVector) -> ValueVector {
        switch vector.values {
        case .texts: return vector
        case .numbers, .booleans:
            return ValueVector(.texts((0..<vector.count).map { vector.text(at: $0) }), type: .text, offsets: vector.offsets)
        }
    }

    private func arithmetic(_ op: ArithmeticOperator, _ left: ValueVector, _ right: ValueVector, type: ValueType) throws -> ValueVector {
        let (a, b, offsets) = Self.align(left, right)
        if op == .concatenate {
            let first = Self.asText(a).texts
            let second = Self.asText(b).texts
            let joined = zip(first, second).map { x, y -> String? in
                guard let x, let y else { return nil }
                return x + y
            }
            return ValueVector(.texts(joined), type: .text, offsets: offsets)
        }
        var first = a.numbers
        let second = b.numbers
        let element = type.element
        let dayScale = CalendarDate.secondsPerDay
        first.withUnsafeMutableBufferPointer { result in
            second.withUnsafeBufferPointer { second in
                switch op {
                case .add:
                    if a.type == .date, b.type != .date {
                        for index in result.indices { result[index] = ExpressionFunction.finite(result[index] + second[index] * dayScale) }
                    } else if b.type == .date, a.type != .date {
                        for index in result.indices { result[index] = ExpressionFunction.finite(result[index] * dayScale + second[index]) }
                    } else {
                        for index in result.indices { result[index] = ExpressionFunction.finite(result[index] + second[index]) }
                    }
                case .subtract:
                    if a.type == .date, b.type == .date {
                        for index in result.indices { result[index] = ExpressionFunction.finite((result[index] - second[index]) / dayScale) }
                    } else if a.type == .date {
                        for index in result.indices { result[index] = ExpressionFunction.finite(result[index] - second[index] * dayScale) }
                    } else {
                        for index in result.indices { result[index] = ExpressionFunction.finite(result[index] - second[index]) }
                    }
                case .multiply:
                    for index in result.indices { result[index] = ExpressionFunction.finite(result[index] * second[index]) }
                case .divide:
                    for index in result.indices {
                        result[index] = second[index] == 0 ? .nan : ExpressionFunction.finite(result[index] / second[index])
                    }
                case .remainder:
                    for index in result.indices {
                        result[index] = second[index] == 0 ? .nan : ExpressionFunction.finite(DecimalRemainder.of(result[index], second[index]))
                    }
                case .concatenate:
                    break
                }
            }
        }
        return ValueVector(.numbers(first), type: element, offsets: offsets)
    }

    /// Two vectors value for value: a scalar beside a list repeats for each of the row's elements.
    static func align(_ left: ValueVector, _ right: ValueVector) -> (ValueVector, ValueVector, [Int]?) {
        switch (left.offsets, right.offsets) {
        case (nil, nil): return (left, right, nil)
        case let (offsets?, nil): return (left, expand(right, to: offsets), offsets)
        case let (nil, offsets?): return (expand(left, to: offsets), right, offsets)
        case let (offsets?, other?):
            if offsets == other { return (left, right, offsets) }
            return (left, expand(firsts(right), to: offsets), offsets)
        }
    }

    /// Each row's value repeated for each element of that row in `offsets`.
    static func expand(_ vector: ValueVector, to offsets: [Int]) -> ValueVector {
        let total = offsets.last ?? 0
        var indices: [Int] = []
        indices.reserveCapacity(total)
        for row in 0..<(offsets.count - 1) {
            for _ in offsets[row]..<offsets[row + 1] { indices.append(row) }
        }
        return gather(vector, indices)
    }

    /// A list's first value per row (absent for none).
    static func firsts(_ vector: ValueVector) -> ValueVector {
        guard let offsets = vector.offsets else { return vector }
        var picked = gather(ValueVector(vector.values, type: vector.type), (0..<(offsets.count - 1)).map { offsets[$0] < offsets[$0 + 1] ? offsets[$0] : -1 })
        picked.offsets = nil
        return picked
    }

    /// The values at `indices` (-1: absent).
    static func gather(_ vector: ValueVector, _ indices: [Int]) -> ValueVector {
        switch vector.values {
        case let .numbers(numbers): ValueVector(.numbers(indices.map { $0 < 0 ? .nan : numbers[$0] }), type: vector.type)
        case let .texts(texts): ValueVector(.texts(indices.map { $0 < 0 ? nil : texts[$0] }), type: vector.type)
        case let .booleans(booleans): ValueVector(.booleans(indices.map { $0 < 0 ? ValueVector.absent : booleans[$0] }), type: vector.type)
        }
    }
}
