/// What a detail view shows, as data: a title and sections of labelled values. Sections with
/// nothing in them are dropped, so a country without a Gini or borders simply has no such line.
public struct RecordDetail: Sendable, Equatable {
    public var title: String
    public var sections: [Section]

    public struct Section: Sendable, Equatable {
        public var title: String
        public var rows: [Row]
        /// Running text shown before the rows (a species' description).
        public var paragraph: String?

        public init(_ title: String, rows: [Row] = [], paragraph: String? = nil) {
            self.title = title
            self.rows = rows.filter { !$0.value.isEmpty || $0.opensGroup }
            self.paragraph = paragraph.flatMap { $0.isEmpty ? nil : $0 }
        }

        public var isEmpty: Bool { rows.isEmpty && paragraph == nil }
    }

    public struct Row: Sendable, Equatable {
        public var label: String
        public var value: String
        /// How deep in a tree the row is (a nested object's members are one deeper).
        public var depth: Int
        /// A label without a value, heading the deeper rows after it (a nested object's key).
        public var opensGroup: Bool

        public init(_ label: String, _ value: String?, depth: Int = 0) {
            self.label = label
            self.value = value ?? ""
            self.depth = depth
            self.opensGroup = false
        }

        /// A heading of the rows one deeper that follow it.
        public static func group(_ label: String, depth: Int) -> Row {
            var row = Row(label, nil, depth: depth)
            row.opensGroup = true
            return row
        }
    }

    public init(title: String, sections: [Section]) {
        self.title = title
        self.sections = sections.filter { !$0.isEmpty }
    }

    /// Every field of the record, one row each: the view of generic datasets. A nested object,
    /// or a list of objects, is a section of its own below, its members one a line, deeper
    /// ones indented as a tree; what has no value is left out, and so is an empty section.
    public static func fields(of dataset: Dataset, row: Int) -> RecordDetail {
        let record = dataset.record(row)
        var rows: [Row] = []
        var nested: [Section] = []
        for member in record.members {
            let tree = Self.tree(of: member.value, depth: 0)
            if let tree {
                nested.append(Section(member.key, rows: tree))
            } else {
                rows.append(Row(member.key, ValueText.text(of: member.value, field: member.key)))
            }
        }
        return RecordDetail(title: dataset.name(of: row), sections: [Section("Fields", rows: rows)] + nested)
    }

    /// The rows of an object, or of a list holding objects, at `depth`; nil for other values
    /// (which fit one row). Groups with nothing in them are left out.
    static func tree(of value: JSONValue, depth: Int) -> [Row]? {
        switch value.kind {
        case .object:
            var rows: [Row] = []
            for member in value.members {
                if let inner = tree(of: member.value, depth: depth + 1) {
                    if !inner.isEmpty { rows += [Row.group(member.key, depth: depth)] + inner }
                } else if let text = ValueText.text(of: member.value, field: member.key) {
                    rows.append(Row(member.key, text, depth: depth))
                }
            }
            return rows
        case .array:
            let elements = value.array ?? []
            guard elements.contains(where: { $0.kind == .object }) else { return nil }
            var rows: [Row] = []
            for (index, element) in elements.enumerated() {
                let label = "[\(index + 1)]"
                if let inner = tree(of: element, depth: depth + 1) {
                    if !inner.isEmpty { rows += [Row.group(label, depth: depth)] + inner }
                } else if let text = ValueText.text(of: element, field: label) {
                    rows.append(Row(label, text, depth: depth))
                }
            }
            return rows
        default:
            return nil
        }
    }
}
