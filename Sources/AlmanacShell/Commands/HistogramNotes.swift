import AlmanacCore

/// What a histogram adds below its table about its own shape: a log scale's factor and the
/// values it has no place for, or that equal bins put most values in one.
enum HistogramNotes {
    static func notes(_ answer: HistogramAnswer, field: String) -> [String] {
        let histogram = answer.histogram
        let total = histogram.total
        if let factor = histogram.factor {
            var notes = ["log scale: each bound \(NumberFormat.grouped(factor, decimals: 2)) times the one before"]
            let left = answer.values - total
            if left > 0 {
                notes.append("\(left.grouped) \(left == 1 ? "value" : "values") of 0 or below \(left == 1 ? "has" : "have") no place on a log scale")
            }
            return notes
        }
        guard histogram.bins.count >= 3, let fullest = histogram.bins.indices.max(by: { histogram.bins[$0].count < histogram.bins[$1].count }),
              histogram.bins[fullest].count * 2 > total else { return [] }
        let bin = histogram.bins[fullest]
        var note = "\(bin.count.grouped) of \(total.grouped) values fall in one bin (\(histogram.text(bin.lower)) – \(histogram.text(bin.upper)))"
        if answer.kind == .number, answer.positiveValues * 2 > answer.values {
            note += ": 'histogram \(SafeText.escape(field)) log' spreads skewed values"
        }
        return [note]
    }
}
