import AlmanacCore

/// `histogram FIELD [BINS]` counts the current results' numbers or dates into bins and draws a
/// bar for each; below the table, how many records have no value and what they had instead.
public enum HistogramCommand: Command {
    static let field = Parameter.field()
    static let bins = Parameter("BINS", .number(1...Histogram.maximumBins, or: []), .optional)

    public static let spec = CommandSpec(
        name: "histogram",
        summary: "Count a numeric or date field's values into bins, with a bar for each",
        parameters: [field, bins],
        examples: ["histogram population", "histogram area 10", "histogram average_lifespan", "histogram created",
                   "histogram point.latitude 20"],
        discussion: """
        Without BINS the bins have a round width chosen from the values (Freedman–Diaconis, at \
        least Sturges' count, at most \(Histogram.maximumDefaultBins)); dates are binned by year, \
        month or day as their range suggests. BINS (1 to \(Histogram.maximumBins)) fixes the count. \
        Numbers written as text ("180") count as numbers; records without a value are counted \
        below the table. A bin holds its lower bound; the last one holds both bounds.

          countries> histogram gini
          gini     count
          ───────  ─────  ────────────────────────────────────────
          20 – 30     15  ████████▌
          30 – 40     71  ████████████████████████████████████████
          40 – 50     40  ██████████████████████▌
          50 – 60     22  ████████████▍
          60 – 70      5  ██▉
          153 of 250 countries have a value; 97 have none
        """
    )

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        let parsed = try arguments.parse()
        let field = parsed[Self.field].first?.text ?? ""
        let bins = parsed[Self.bins].first?.number
        let results = try session.currentResults()
        let measured = try FieldMeasurements.read(field, from: results, cancellation: session.cancellation)
        let records = recordsNoun(results)
        guard !measured.values.isEmpty else {
            let texts = measured.otherValues.prefix(3).map { "'\(SafeText.escape($0.text))'" }
            throw ShellError.invalid("\(SafeText.escape(field)) has no numbers or dates in these \(results.count.grouped) \(records.plural)"
                + (texts.isEmpty ? "" : ": it holds text such as \(texts.joined(separator: ", ")) — 'group \(SafeText.escape(field))' counts those"))
        }
        let histogram = measured.histogram(bins: bins)
        let output = session.output
        // For programs: each bin's bounds and count. For people: a label, the count and a bar.
        let data = ResultTable(columns: [ResultColumn("lower"), ResultColumn("upper"), ResultColumn("count", .integer)],
                               rows: histogram.bins.map { [bound($0.lower, of: histogram), bound($0.upper, of: histogram), .integer($0.count)] })
        let labels = ResultTable(columns: [ResultColumn(field), ResultColumn("count", .integer)],
                                 rows: histogram.bins.map { [.text("\(histogram.text($0.lower)) – \(histogram.text($0.upper))"), .integer($0.count)] })
        let bars = BarColumn.appending(to: labels, quantities: histogram.bins.map { Double($0.count) }, context: session.renderContext)
        // Machine output stays data; people reading a pipe's standard error still learn what was left out.
        if session.settings.format.isMachineReadable, measured.recordsWithoutValue > 0 {
            output.message("note: " + summary(measured, records: records))
        }
        return CommandResult(data, prose: .table(bars), notes: [summary(measured, records: records)])
    }

    /// `30 of 37 species have a value; 7 have none (unknown 4, n/a 3)`.
    static func summary(_ measured: FieldMeasurements, records: (singular: String, plural: String)) -> String {
        let noun = measured.records == 1 ? records.singular : records.plural
        var text = "\(measured.recordsWithValue.grouped) of \(measured.records.grouped) \(noun) "
            + (measured.recordsWithValue == 1 ? "has" : "have") + " a value"
        if measured.values.count != measured.recordsWithValue {
            text += " (\(measured.values.count.grouped) values)"
        }
        text += "; \(measured.recordsWithoutValue.grouped) " + (measured.recordsWithoutValue == 1 ? "has" : "have") + " none"
        if !measured.otherValues.isEmpty {
            let shown = measured.otherValues.prefix(4).map { "\(SafeText.escape($0.text)) \($0.count.grouped)" }
            text += " (" + shown.joined(separator: ", ") + (measured.otherValues.count > 4 ? ", …" : "") + ")"
        }
        return text
    }

    /// What the results' records are called: `species`, or `records` across datasets.
    static func recordsNoun(_ results: ResultSet) -> (singular: String, plural: String) {
        results.datasets.count == 1 ? (results.datasets[0].model.singular, results.datasets[0].model.plural) : ("record", "records")
    }

    /// A bound for programs: the number, or the date in ISO 8601 (UTC).
    static func bound(_ value: Double, of histogram: Histogram) -> ResultValue {
        if case .date = histogram.scale { return .text(CalendarDate.iso8601(value)) }
        return .decimal(value)
    }
}
