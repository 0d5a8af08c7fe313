import Foundation

/// A spec's values over the items of a result set, in the items' order: for sort keys, group
/// keys, aggregates, histogram and describe when the spec is an expression rather than a field.
public enum ComputedValues {
    /// The expression a spec is, or nil when it names a field of some dataset (the field's own
    /// code then reads it). A path across links (`homeworld.climate`) of one of `datasets` is an
    /// expression too. A spec that is neither is an unknown field.
    /// A step's column (near's `distance`) among `stepColumns` is an expression of one field.
    public static func expression(_ spec: String, in catalogs: [FieldCatalog], datasets: [Dataset],
                                  stepColumns: [ComputedColumn] = []) throws -> (expression: Expression, name: String)? {
        if let step = stepColumns.named(spec) {
            return (Expression(.field(step.name)), step.name)
        }
        if DatasetField.names(spec, in: catalogs) { return (Expression(.field(spec)), spec) }
        if catalogs.contains(where: { FieldLookup.field(spec, in: $0) != nil }) { return nil }
        if renamedField(spec, in: catalogs) != nil { return nil }
        let unknown = { () -> Error in QueryError.unknownField(spec, among: catalogs, of: datasets) }
        let parsed: (expression: Expression, name: String)
        do {
            parsed = try ComputedField.parse(spec)
        } catch {
            throw unknown()
        }
        if case let .field(name) = parsed.expression.node {
            guard try datasets.contains(where: { try LinkPath.resolve(name, from: $0) != nil }) else { throw unknown() }
        }
        return parsed
    }

    /// The field `FIELD as NAME` renames when FIELD is a field of one of `catalogs`: that field
    /// under another name, read by the field's own code (its types, its words for none, an
    /// object by its name), only shown under NAME. Nil for anything else.
    public static func renamedField(_ spec: String, in catalogs: [FieldCatalog]) -> String? {
        guard spec.range(of: " as ", options: .caseInsensitive) != nil,
              !catalogs.contains(where: { FieldLookup.field(spec, in: $0) != nil }),
              let parsed = try? ComputedField.parse(spec), let field = parsed.expression.fieldName, field != spec,
              catalogs.contains(where: { FieldLookup.field(field, in: $0) != nil }) else { return nil }
        return field
    }

    /// The field a spec that is no expression reads: itself, or the field it renames.
    public static func field(_ spec: String, in catalogs: [FieldCatalog]) -> String {
        renamedField(spec, in: catalogs) ?? spec
    }

    /// The spec with each renamed field (`region as r`) read as the field it renames.
    public static func fields(of spec: GroupSpec, in catalogs: [FieldCatalog]) -> GroupSpec {
        var read = spec
        read.fields = spec.fields.map { field($0, in: catalogs) }
        for index in read.aggregates.indices { read.aggregates[index].field = field(spec.aggregates[index].field, in: catalogs) }
        return read
    }

    /// The expression bound and computed for each item (each dataset's rows bound to its own fields).
    public static func evaluate(_ expression: Expression, over results: ResultSet, cancellation: Cancellation = .never) throws -> ValueVector {
        let catalogs = try results.datasets.map { dataset throws(CancelledError) in try dataset.fields(cancellation: cancellation) }
        if results.datasets.count == 1 {
            let dataset = results.datasets[0]
            let bound = try ExpressionBinder(DatasetFields(dataset, catalog: catalogs[0], stepColumns: results.computed)).bind(expression)
            return try ExpressionEvaluator(dataset: dataset, catalog: catalogs[0], rows: results.items.map(\.row), cancellation: cancellation,
                                           stepColumns: results.computed).evaluate(bound)
        }
        var parts: [ValueVector] = []
        let (rowsByDataset, positions) = results.rowsByDataset
        for (index, dataset) in results.datasets.enumerated() {
            let bound = try ExpressionBinder(DatasetFields(dataset, catalog: catalogs[index], others: catalogs, stepColumns: results.computed))
                .bind(expression)
            parts.append(try ExpressionEvaluator(dataset: dataset, catalog: catalogs[index], rows: rowsByDataset[index],
                                                 cancellation: cancellation, stepColumns: results.computed, datasetIndex: index).evaluate(bound))
        }
        return merge(parts, items: results.items, positions: positions)
    }

    /// Per-dataset vectors interleaved in the items' order; as text when their types differ.
    static func merge(_ parts: [ValueVector], items: [ResultSet.Item], positions: [Int]) -> ValueVector {
        let types = Set(parts.map(\.type).filter { $0 != .null }.map(\.description))
        let type = types.count == 1 ? parts.first { $0.type != .null }!.type : .text
        let converted = parts.map { part -> ValueVector in
            if part.type == type { return part }
            if type == .text || part.type == .null {
                var text = ExpressionEvaluator.asText(part)
                if part.type == .null, type != .text {
                    let empty: ValueVector.Values = type.element == .boolean ? .booleans([]) : .numbers([])
                    text = ExpressionEvaluator.gather(ValueVector(empty, type: type), Array(repeating: -1, count: part.count))
                    text.offsets = part.offsets
                }
                return text
            }
            return ExpressionEvaluator.asText(part)
        }
        let isList = converted.contains { $0.offsets != nil }
        var indices: [(part: Int, index: Int)] = []
        var offsets: [Int]? = isList ? [0] : nil
        for (position, item) in items.enumerated() {
            let part = converted[item.dataset]
            for index in part.range(of: positions[position]) { indices.append((item.dataset, index)) }
            offsets?.append(indices.count)
        }
        switch converted.first(where: { $0.type != .null })?.values ?? converted[0].values {
        case .numbers:
            let columns = converted.map(\.numbers)
            return ValueVector(.numbers(indices.map { columns[$0.part][$0.index] }), type: type, offsets: offsets)
        case .booleans:
            let columns = converted.map(\.booleans)
            return ValueVector(.booleans(indices.map { columns[$0.part][$0.index] }), type: type, offsets: offsets)
        case .texts:
            let columns = converted.map { ExpressionEvaluator.asText($0).texts }
            return ValueVector(.texts(indices.map { columns[$0.part][$0.index] }), type: type == .null ? .text : type, offsets: offsets)
        }
    }
}
