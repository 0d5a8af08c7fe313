/// Computes a link path over rows of its first dataset, over columns (never a walk per record):
/// gather each row's target rows through the link's index, compute the rest of the path on the
/// target dataset once per distinct target row, then scatter the values back — one value per
/// row, or a list per row when a record may lead to several.
enum LinkGather {
    /// The path's values for `rows` of its first dataset.
    static func values(_ path: LinkPath, rows: [Int], cancellation: Cancellation) throws -> ValueVector {
        try run(path, hop: 0, rows: rows, cancellation: cancellation) { target, targetRows in
            guard let field = path.field else {
                let names = target.names
                return ValueVector(.texts(targetRows.map { names[$0] }), type: .text)
            }
            let catalog = try target.fields(cancellation: cancellation)
            return try FieldReader(dataset: target, catalog: catalog, rows: targetRows, cancellation: cancellation)
                .read(field, type: path.fieldType, container: path.container)
        }
    }

    /// Whether each row has a linked value that matches `FIELD OP VALUE` as filters compare
    /// (any of them; for `!=` and `!~`, none of them).
    static func matches(_ path: LinkPath, _ op: FilterExpression.Operator, _ value: String, rows: [Int],
                        cancellation: Cancellation) throws -> [Bool] {
        let negated = op == .notEqual || op == .notContains
        let positive: FilterExpression.Operator = op == .notEqual ? .equal : op == .notContains ? .contains : op
        let found = try run(path, hop: 0, rows: rows, cancellation: cancellation) { target, targetRows in
            let catalog = try target.fields(cancellation: cancellation)
            let mask = try CompiledFilter(dataset: target, fields: catalog, rows: targetRows, cancellation: cancellation)
                .evaluate(.comparison(field: path.field ?? target.layout.nameField, op: positive, value: value))
            return ValueVector(.booleans(mask.map { $0 ? 1 : 0 }), type: .boolean)
        }
        var result = [Bool](repeating: false, count: rows.count)
        found.booleans.withUnsafeBufferPointer { flags in
            if let offsets = found.offsets {
                for row in result.indices { result[row] = flags[offsets[row]..<offsets[row + 1]].contains(1) != negated }
            } else {
                for row in result.indices { result[row] = (flags[row] == 1) != negated }
            }
        }
        return result
    }

    /// One crossing: the distinct targets of `rows`, the rest of the path computed over them,
    /// scattered back to `rows`.
    private static func run(_ path: LinkPath, hop: Int, rows: [Int], cancellation: Cancellation,
                            terminal: (Dataset, [Int]) throws -> ValueVector) throws -> ValueVector {
        let step = path.hops[hop]
        let index = step.index
        var position = [Int32](repeating: -1, count: step.target.count)
        var distinct: [Int] = []
        try index.offsets.withUnsafeBufferPointer { offsets in
            try index.targets.withUnsafeBufferPointer { targets in
                for (count, row) in rows.enumerated() {
                    if count & 0xFFFF == 0 { try cancellation.checkpoint() }
                    for slot in Int(offsets[row])..<Int(offsets[row + 1]) {
                        let target = Int(targets[slot])
                        if position[target] < 0 {
                            position[target] = Int32(distinct.count)
                            distinct.append(target)
                        }
                    }
                }
            }
        }
        let inner = hop + 1 < path.hops.count
            ? try run(path, hop: hop + 1, rows: distinct, cancellation: cancellation, terminal: terminal)
            : try terminal(step.target, distinct)
        return scatter(inner, to: rows, through: index, position: position, asList: path.isList)
    }

    /// Each row's targets' values: the one target's value (absent for none), or every present
    /// value of every target as the row's list.
    private static func scatter(_ inner: ValueVector, to rows: [Int], through index: LinkIndex, position: [Int32], asList: Bool) -> ValueVector {
        var indices: [Int] = []
        indices.reserveCapacity(rows.count)
        var offsets: [Int]? = asList ? [0] : nil
        offsets?.reserveCapacity(rows.count + 1)
        index.offsets.withUnsafeBufferPointer { starts in
            index.targets.withUnsafeBufferPointer { targets in
                for row in rows {
                    let slots = Int(starts[row])..<Int(starts[row + 1])
                    guard asList else {
                        indices.append(slots.isEmpty ? -1 : inner.range(of: Int(position[Int(targets[slots.lowerBound])])).first ?? -1)
                        continue
                    }
                    for slot in slots {
                        for value in inner.range(of: Int(position[Int(targets[slot])])) where inner.isPresent(value) { indices.append(value) }
                    }
                    offsets!.append(indices.count)
                }
            }
        }
        var result = ExpressionEvaluator.gather(ValueVector(inner.values, type: inner.type), indices)
        result.offsets = offsets
        return result
    }
}
