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
            self.rows = rows.filter { !$0.value.isEmpty }
            self.paragraph = paragraph.flatMap { $0.isEmpty ? nil : $0 }
        }

        public var isEmpty: Bool { rows.isEmpty && paragraph == nil }
    }

    public struct Row: Sendable, Equatable {
        public var label: String
        public var value: String
        public init(_ label: String, _ value: String?) {
            self.label = label
            self.value = value ?? ""
        }
    }

    public init(title: String, sections: [Section]) {
        self.title = title
        self.sections = sections.filter { !$0.isEmpty }
    }

    /// Every field of the record, one row each: the view of generic datasets.
    public static func fields(of dataset: Dataset, row: Int) -> RecordDetail {
        let record = dataset.record(row)
        let rows = record.members.map { member in
            RecordDetail.Row(member.key, ValueText.text(of: member.value, field: member.key))
        }
        return RecordDetail(title: dataset.name(of: row), sections: [Section("Fields", rows: rows)])
    }
}
