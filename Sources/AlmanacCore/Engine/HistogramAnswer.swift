/// `histogram FIELD`'s answer, wherever the records live: the bins counted, and what the
/// summary below them says (how many records have a value, what the others held).
public struct HistogramAnswer: Sendable {
    /// Empty when there is nothing to bin (no values; dates on a log scale; nothing above 0).
    public var histogram: Histogram
    public var kind: FieldMeasurements.Kind
    /// The records asked about, and how many of them have a value of `kind`.
    public var records: Int
    public var recordsWithValue: Int
    /// The values of `kind` (several per record for a list), and how many are above 0.
    public var values: Int
    public var positiveValues: Int
    /// Values that were neither, most frequent first (at least the first five).
    public var otherValues: [(text: String, count: Int)]
    /// What the records are called: `country`, `countries`.
    public var noun: (singular: String, plural: String)

    public var recordsWithoutValue: Int { records - recordsWithValue }

    public init(histogram: Histogram, kind: FieldMeasurements.Kind, records: Int, recordsWithValue: Int, values: Int, positiveValues: Int,
                otherValues: [(text: String, count: Int)], noun: (singular: String, plural: String)) {
        self.histogram = histogram
        self.kind = kind
        self.records = records
        self.recordsWithValue = recordsWithValue
        self.values = values
        self.positiveValues = positiveValues
        self.otherValues = otherValues
        self.noun = noun
    }
}

extension FieldMeasurements {
    /// The answer of these measurements: bins drawn as `histogram(bins:)` or, `logarithmic`,
    /// `logarithmicHistogram(bins:)` draws them (none for dates on a log scale).
    public func answer(bins: Int?, logarithmic: Bool, noun: (singular: String, plural: String)) -> HistogramAnswer {
        let histogram = values.isEmpty || (logarithmic && kind == .date) ? Histogram.empty
            : logarithmic ? logarithmicHistogram(bins: bins) : self.histogram(bins: bins)
        return HistogramAnswer(histogram: histogram, kind: kind, records: records, recordsWithValue: recordsWithValue, values: values.count,
                               positiveValues: values.reduce(0) { $1 > 0 ? $0 + 1 : $0 }, otherValues: otherValues, noun: noun)
    }
}

extension ResultSet {
    /// What the records are called: `species`, or `records` across datasets.
    public var recordNoun: (singular: String, plural: String) {
        datasets.count == 1 ? (datasets[0].model.singular, datasets[0].model.plural) : ("record", "records")
    }
}
