/// A value a step computed for each record of its results (`near`'s distance in km, `reach`'s
/// distance in borders), carried with the results: filter and sort keep it (they keep the
/// records), the listing shows it as a column, `sort` and `columns` name it, exports write it
/// beside the record's own fields. Values are kept per dataset by row, so any reordering or
/// narrowing of the items keeps each record's value.
public struct ComputedColumn: Sendable {
    public enum Kind: Sendable, Equatable {
        /// Written with `places` decimals (`12.3`).
        case decimal(places: Int)
        case integer
    }

    /// The names steps give their columns (near, outside, reach: `distance`): a listing's
    /// columns may name them before such a step runs.
    public static let stepNames = ["distance"]

    public let name: String
    public let kind: Kind
    /// What the values measure, for help and legends (`km`, `borders`).
    public let unit: String
    /// Per dataset of the results: its rows' values.
    private let values: [Values]

    /// One dataset's values: by row when most rows have one (NaN where none), else the rows
    /// that have one, sorted, beside their values — so a step that found 12 of 400,000 records
    /// keeps 12 values, and `back`'s history stays small.
    private enum Values: Sendable {
        case dense([Double])
        case sparse(rows: [Int32], values: [Double])

        func value(of row: Int) -> Double? {
            switch self {
            case let .dense(values):
                guard row < values.count, !values[row].isNaN else { return nil }
                return values[row]
            case let .sparse(rows, values):
                var low = 0
                var high = rows.count
                while low < high {
                    let middle = (low + high) / 2
                    if Int(rows[middle]) < row { low = middle + 1 } else { high = middle }
                }
                return low < rows.count && Int(rows[low]) == row ? values[low] : nil
            }
        }
    }

    /// `values`: per dataset (as the results' `datasets`), a row and its value.
    public init(name: String, kind: Kind, unit: String, datasetSizes: [Int], values: [(item: ResultSet.Item, value: Double)]) {
        var perDataset = [[(row: Int, value: Double)]](repeating: [], count: datasetSizes.count)
        for (item, value) in values where item.dataset < datasetSizes.count && item.row < datasetSizes[item.dataset] {
            perDataset[item.dataset].append((item.row, value))
        }
        self.values = perDataset.enumerated().map { dataset, found in
            let size = datasetSizes[dataset]
            if found.count * 3 >= size * 2 {
                var dense = [Double](repeating: .nan, count: size)
                for (row, value) in found { dense[row] = value }
                return .dense(dense)
            }
            let sorted = found.sorted { $0.row < $1.row }
            return .sparse(rows: sorted.map { Int32($0.row) }, values: sorted.map(\.value))
        }
        self.name = name
        self.kind = kind
        self.unit = unit
    }

    /// The value of a record, nil when it has none.
    @inline(__always)
    public func value(of item: ResultSet.Item) -> Double? {
        guard item.dataset < values.count else { return nil }
        return values[item.dataset].value(of: item.row)
    }

    /// The value as a result cell.
    public func cell(of item: ResultSet.Item) -> ResultValue {
        guard let text = text(of: item) else { return .absent }
        // A literal keeps its decimals: 12.0 km reads as 12.0, in a table and in JSON.
        return .literal(text)
    }

    /// How the value reads in text (CSV, a GeoJSON property): `12.3`, `2`.
    public func text(of item: ResultSet.Item) -> String? {
        guard let value = value(of: item) else { return nil }
        switch kind {
        case .integer: return String(Int(value))
        case let .decimal(places): return NumberFormat.fixed(value, decimals: places)
        }
    }
}

extension ComputedColumn {
    /// A filter's condition on a computed column is on a number: `distance < 10`.
    public static func validate(_ op: FilterExpression.Operator, _ value: String, field: String) throws {
        guard op != .contains, op != .notContains else {
            throw QueryError.invalid("\(field) is a number; ~ and !~ compare text — use <, <=, >, >=, = or !=")
        }
        guard Double(value) != nil else { throw QueryError.typeMismatch(field: field, type: "number", message: "'\(value)' is not a number") }
    }

    /// Whether each row of `dataset` meets `op value`; rows without a value never do (nor their negation).
    func matches(_ op: FilterExpression.Operator, _ value: String, rows: [Int], dataset: Int) -> [Bool] {
        guard let number = Double(value) else { return [Bool](repeating: false, count: rows.count) }
        return rows.map { row in
            guard let own = self.value(of: ResultSet.Item(dataset: dataset, row: row)) else { return false }
            switch op {
            case .equal: return own == number
            case .notEqual: return own != number
            case .less: return own < number
            case .lessOrEqual: return own <= number
            case .greater: return own > number
            case .greaterOrEqual: return own >= number
            case .contains, .notContains: return false
            }
        }
    }
}

extension Array where Element == ComputedColumn {
    /// The column called `name` (ignoring case), if there is one.
    func named(_ name: String) -> ComputedColumn? {
        let lowered = name.lowercased()
        return first { $0.name.lowercased() == lowered }
    }
}

extension ResultSet {
    /// The computed column called `name` (ignoring case), if the results carry one.
    public func computedColumn(_ name: String) -> ComputedColumn? { computed.named(name) }
}
