import CGlibc
import Foundation

/// A comparison over two vectors of one type, value for value: numbers and dates numerically,
/// text folded (no case, no accents) as filters compare it, booleans false before true. An
/// absent side is false; over a list, a row is true when any element is.
enum ValueComparison {
    static func compare(_ op: ComparisonOperator, _ left: ValueVector, _ right: ValueVector) throws -> ValueVector {
        let (a, b, offsets) = ExpressionEvaluator.align(left, right)
        var results = [UInt8](repeating: 0, count: a.count)
        switch (a.values, b.values) {
        case let (.numbers(first), .numbers(second)):
            first.withUnsafeBufferPointer { first in
                second.withUnsafeBufferPointer { second in
                    results.withUnsafeMutableBufferPointer { results in
                        switch op {
                        case .equal: for index in results.indices { results[index] = first[index] == second[index] ? 1 : 0 }
                        case .less: for index in results.indices { results[index] = first[index] < second[index] ? 1 : 0 }
                        case .lessOrEqual: for index in results.indices { results[index] = first[index] <= second[index] ? 1 : 0 }
                        case .greater: for index in results.indices { results[index] = first[index] > second[index] ? 1 : 0 }
                        case .greaterOrEqual: for index in results.indices { results[index] = first[index] >= second[index] ? 1 : 0 }
                        default: break
                        }
                    }
                }
            }
        case let (.booleans(first), .booleans(second)):
            for index in results.indices where first[index] != ValueVector.absent && second[index] != ValueVector.absent {
                results[index] = ordered(Int(first[index]) - Int(second[index]), op) ? 1 : 0
            }
        default:
            let first = ExpressionEvaluator.asText(a).texts
            let second = ExpressionEvaluator.asText(b).texts
            var folded = FoldCache()
            for index in results.indices {
                guard let x = first[index], let y = second[index] else { continue }
                let left = folded.fold(x)
                let right = folded.fold(y)
                let matched: Bool
                switch op {
                case .contains:
                    matched = right.isEmpty || left.withUnsafeBufferPointer { hay in
                        right.withUnsafeBufferPointer { almanac_memmem(hay.baseAddress, hay.count, $0.baseAddress, $0.count) != nil }
                    }
                case .equal: matched = left == right
                default:
                    let order = left.lexicographicallyPrecedes(right) ? -1 : (left == right ? 0 : 1)
                    matched = ordered(order, op)
                }
                results[index] = matched ? 1 : 0
            }
        }
        return any(ValueVector(.booleans(results), type: .boolean, offsets: offsets))
    }

    /// Numbers against one number.
    static func compare(_ op: ComparisonOperator, _ values: [Double], _ constant: Double) -> ValueVector {
        var results = [UInt8](repeating: 0, count: values.count)
        values.withUnsafeBufferPointer { values in
            results.withUnsafeMutableBufferPointer { results in
                switch op {
                case .equal: for index in results.indices { results[index] = values[index] == constant ? 1 : 0 }
                case .less: for index in results.indices { results[index] = values[index] < constant ? 1 : 0 }
                case .lessOrEqual: for index in results.indices { results[index] = values[index] <= constant ? 1 : 0 }
                case .greater: for index in results.indices { results[index] = values[index] > constant ? 1 : 0 }
                case .greaterOrEqual: for index in results.indices { results[index] = values[index] >= constant ? 1 : 0 }
                default: break
                }
            }
        }
        return ValueVector(.booleans(results), type: .boolean)
    }

    private static func ordered(_ order: Int, _ op: ComparisonOperator) -> Bool {
        switch op {
        case .equal: order == 0
        case .less: order < 0
        case .lessOrEqual: order <= 0
        case .greater: order > 0
        case .greaterOrEqual: order >= 0
        default: false
        }
    }

    /// A list's results reduced to one per row: true when any element is.
    static func any(_ vector: ValueVector) -> ValueVector {
        guard let offsets = vector.offsets else { return vector }
        let booleans = vector.booleans
        let rows = (0..<(offsets.count - 1)).map { row -> UInt8 in
            booleans[offsets[row]..<offsets[row + 1]].contains(1) ? 1 : 0
        }
        return ValueVector(.booleans(rows), type: .boolean)
    }

    /// Folded UTF-8 of recent texts (the same value is folded once).
    struct FoldCache {
        private var known: [String: [UInt8]] = [:]

        mutating func fold(_ text: String) -> [UInt8] {
            if let folded = known[text] { return folded }
            var output: [UInt8] = []
            var copy = text
            copy.withUTF8 { Folding.appendFolded(utf8: $0, to: &output) }
            if known.count < 65_536 { known[text] = output }
            return output
        }
    }
}

/// A function over its arguments' vectors, value for value (a list argument's elements each).
struct FunctionCall {
    let function: ExpressionFunction
    let type: ValueType
    let rows: Int

    func run(_ arguments: [ValueVector]) throws -> ValueVector {
        let element = type.element
        switch function.name {
        case "count":
            guard let argument = arguments.first else { return ExpressionEvaluator.constant(.number(0), type: .number, rows: rows) }
            let counts = (0..<argument.rows).map { row in Double(argument.range(of: row).filter(argument.isPresent).count) }
            return ValueVector(.numbers(counts), type: .number)
        case "coalesce":
            return coalesce(arguments)
        case "today":
            let now = Date().timeIntervalSince1970
            return ExpressionEvaluator.constant(.number((now / CalendarDate.secondsPerDay).rounded(.down) * CalendarDate.secondsPerDay),
                                                type: .date, rows: rows)
        default:
            break
        }
        var aligned = arguments
        let offsets = arguments.compactMap(\.offsets).first
        if let offsets {
            aligned = arguments.map { $0.offsets == nil ? ExpressionEvaluator.expand($0, to: offsets) : $0 }
        }
        let count = aligned.first?.count ?? rows
        switch function.implementation {
        case let .number(body):
            return ValueVector(.numbers(aligned[0].numbers.map { $0.isNaN ? .nan : ExpressionFunction.finite(body($0)) }), type: element, offsets: offsets)
        case let .numbers2(body):
            let (x, y) = (aligned[0].numbers, aligned[1].numbers)
            return ValueVector(.numbers((0..<count).map { x[$0].isNaN || y[$0].isNaN ? .nan : ExpressionFunction.finite(body(x[$0], y[$0])) }),
                               type: element, offsets: offsets)
        case let .numbers(body):
            let columns = aligned.map(\.numbers)
            let values = (0..<count).map { index -> Double in
                let numbers = columns.map { $0[index] }
                return numbers.contains(where: \.isNaN) ? .nan : ExpressionFunction.finite(body(numbers))
            }
            return ValueVector(.numbers(values), type: element, offsets: offsets)
        case let .text(body):
            return ValueVector(.texts(aligned[0].texts.map { $0.flatMap(body) }), type: element, offsets: offsets)
        case let .textToNumber(body):
            return ValueVector(.numbers(aligned[0].texts.map { $0.map(body) ?? .nan }), type: element, offsets: offsets)
        case let .textAndNumbers(body):
            let texts = aligned[0].texts
            let numbers = aligned.dropFirst().map(\.numbers)
            return ValueVector(.texts((0..<count).map { index in texts[index].flatMap { body($0, numbers.map { $0[index] }) } }),
                               type: element, offsets: offsets)
        case let .texts(body):
            let columns = aligned.map(\.texts)
            return ValueVector(.texts((0..<count).map { index in
                let texts = columns.compactMap { $0[index] }
                return texts.count == columns.count ? body(texts) : nil
            }), type: element, offsets: offsets)
        case let .dateToNumber(body):
            return ValueVector(.numbers(aligned[0].numbers.map { $0.isNaN ? .nan : body($0) }), type: element, offsets: offsets)
        case .special:
            return ExpressionEvaluator.constant(.null, type: .null, rows: rows)
        }
    }

    /// The first present value of each row.
    private func coalesce(_ arguments: [ValueVector]) -> ValueVector {
        var aligned = arguments
        let offsets = arguments.compactMap(\.offsets).first
        if let offsets { aligned = arguments.map { $0.offsets == nil ? ExpressionEvaluator.expand($0, to: offsets) : ExpressionEvaluator.align($0, ValueVector(.numbers(Array(repeating: 0, count: offsets.last ?? 0)), type: .number, offsets: offsets)).0 } }
        let count = aligned.first?.count ?? rows
        var indices = [Int](repeating: -1, count: count)
        var source = [Int](repeating: 0, count: count)
        for index in 0..<count {
            for (argument, vector) in aligned.enumerated() where vector.type != .null && vector.isPresent(index) {
                indices[index] = index
                source[index] = argument
                break
            }
        }
        switch type.element {
        case .number, .date:
            let columns = aligned.map(\.numbers)
            return ValueVector(.numbers((0..<count).map { indices[$0] < 0 ? .nan : columns[source[$0]][$0] }), type: type.element, offsets: offsets)
        case .boolean:
            let columns = aligned.map(\.booleans)
            return ValueVector(.booleans((0..<count).map { indices[$0] < 0 ? ValueVector.absent : columns[source[$0]][$0] }), type: .boolean, offsets: offsets)
        default:
            let columns = aligned.map { ExpressionEvaluator.asText($0).texts }
            return ValueVector(.texts((0..<count).map { indices[$0] < 0 ? nil : columns[source[$0]][$0] }), type: .text, offsets: offsets)
        }
    }
}
