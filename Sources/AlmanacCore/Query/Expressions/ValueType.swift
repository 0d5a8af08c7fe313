/// What an expression computes: the binder decides it before anything runs, so `name / 2`
/// is refused with a caret under `name`, never discovered a million rows in.
public indirect enum ValueType: Sendable, Equatable, CustomStringConvertible {
    case number
    case text
    /// Seconds since 1970 (UTC); shown and compared as dates.
    case date
    case boolean
    /// A path that ends at an object (`milestone`): it can be null or not; comparisons reach its members.
    case object
    /// The literal `null`: any type.
    case null
    case list(ValueType)

    public var description: String {
        switch self {
        case .number: "number"
        case .text: "text"
        case .date: "date"
        case .boolean: "boolean"
        case .object: "object"
        case .null: "null"
        case let .list(element): "list of \(element)"
        }
    }

    /// The type of one value: a list's element, or itself.
    public var element: ValueType {
        if case let .list(element) = self { return element }
        return self
    }

    public var isList: Bool {
        if case .list = self { return true }
        return false
    }

    /// `'name' is text`, `'borders' is a list of text`, `'area' is a number`.
    public var withArticle: String {
        switch self {
        case .number: "a number"
        case .date: "a date"
        case .boolean: "a boolean"
        case .object: "an object"
        case .list: "a \(description)"
        case .text, .null: description
        }
    }

    /// The same shape (list or not) with another element type.
    func withElement(_ element: ValueType) -> ValueType { isList ? .list(element) : element }
}

/// Values computed for many rows at once: one array per expression node, not a tree walked
/// per record. Numbers and dates are Doubles with NaN for absent (division by zero, an
/// absent operand, text that reads as no number); text is optional Strings; booleans are
/// 0, 1 or `absent`. A list keeps its elements flat, with each row's range in `offsets`
/// (Arrow's layout), so an operation on a list is one loop over its elements.
public struct ValueVector: Sendable {
    public enum Values: Sendable {
        case numbers([Double])
        case texts([String?])
        case booleans([UInt8])
    }

    public static let absent: UInt8 = 2

    public var values: Values
    /// The type of each value (a list's element type).
    public var type: ValueType
    /// For lists: rows + 1 offsets into the values; row i holds `offsets[i]..<offsets[i+1]`.
    public var offsets: [Int]?

    public init(_ values: Values, type: ValueType, offsets: [Int]? = nil) {
        self.values = values
        self.type = type
        self.offsets = offsets
    }

    /// Rows (not elements).
    public var rows: Int { offsets.map { $0.count - 1 } ?? count }

    /// Values (elements, for a list).
    public var count: Int {
        switch values {
        case let .numbers(numbers): numbers.count
        case let .texts(texts): texts.count
        case let .booleans(booleans): booleans.count
        }
    }

    /// The values as numbers; values of another kind (a field absent from this dataset, typed
    /// null) are absent.
    public var numbers: [Double] {
        if case let .numbers(numbers) = values { return numbers }
        return Array(repeating: .nan, count: count)
    }

    public var texts: [String?] {
        if case let .texts(texts) = values { return texts }
        return Array(repeating: nil, count: count)
    }

    public var booleans: [UInt8] {
        if case let .booleans(booleans) = values { return booleans }
        return Array(repeating: Self.absent, count: count)
    }

    /// Whether value `index` is present.
    public func isPresent(_ index: Int) -> Bool {
        switch values {
        case let .numbers(numbers): !numbers[index].isNaN
        case let .texts(texts): texts[index] != nil
        case let .booleans(booleans): booleans[index] != Self.absent
        }
    }

    /// The values of row `row`: one for a scalar, the elements for a list.
    public func range(of row: Int) -> Range<Int> {
        guard let offsets else { return row..<(row + 1) }
        return offsets[row]..<offsets[row + 1]
    }

    /// Value `index` as people read it: numbers plain (`27.5`), dates as ISO 8601, nil when absent.
    public func text(at index: Int) -> String? {
        switch values {
        case let .numbers(numbers):
            let number = numbers[index]
            if number.isNaN { return nil }
            return type == .date ? CalendarDate.iso8601(number) : NumberFormat.plain(number)
        case let .texts(texts): return texts[index]
        case let .booleans(booleans): return booleans[index] == Self.absent ? nil : (booleans[index] == 1 ? "true" : "false")
        }
    }
}
