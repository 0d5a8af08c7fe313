import AlmanacCore

/// `histogram FIELD [log] [BINS]` counts the current results' numbers or dates into bins (of
/// equal width, or growing by a constant factor) and draws a bar for each; below the table, how
/// many records have no value and what they had instead.
public enum HistogramCommand: Command {
    static let field = Parameter.field()
    static let logarithmic = Parameter.flag("log")
    static let bins = Parameter("BINS", .number(1...Histogram.maximumBins, or: []), .optional)

    public static let spec = CommandSpec(
        name: "histogram",
        summary: "Count a numeric or date field's values into bins, with a bar for each",
        parameters: [field, logarithmic, bins],
        examples: ["histogram population", "histogram population log", "histogram area 10", "histogram area log 8",
                   "histogram average_lifespan", "histogram created", "histogram point.latitude 20", "histogram log10(population / area) 8"],
        discussion: """
        Without BINS the bins have a round width chosen from the values (Freedman–Diaconis, at \
        least Sturges' count, at most \(Histogram.maximumDefaultBins)); dates are binned by year, \
        month or day as their range suggests. BINS (1 to \(Histogram.maximumBins)) fixes the count. \
        Numbers written as text ("180") count as numbers, and SWAPI's galactic years (19BBY, 4ABY) \
        as signed years, labelled as written; records without a value are counted \
        below the table. A bin holds its lower bound; the last one holds both bounds. When most \
        values fall in one bin the histogram says so. log makes bins that grow by a constant \
        factor, for skewed values such as populations: without BINS a power of ten each (10 – 100, \
        100 – 1,000, …; split further when there are few decades), with BINS that many from the \
        smallest value to the largest; values of 0 or below have no place on it and are counted \
        below the table. FIELD may be an expression (histogram log10(population / area) 8): help \
        expressions. On an attached PostgreSQL table the database bins its own rows (statistics, \
        then a count per bin), never sending them: the same bins as the records in memory.

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
        let (field, logarithmic, bins) = try Self.fieldAndBins(arguments, in: session)
        // Wherever the records are: a table's database bins its own rows.
        var answer = try session.results().histogram(field, bins: bins, logarithmic: logarithmic, cancellation: session.cancellation)
        // Bounds of years read as the years do (2023 – 2024), whoever binned them.
        answer.histogram.groupsThousands = ComputedField.groupsThousands(field)
        // A named expression (`population / area as density`) is called by its name, as `columns` shows it.
        let title = ComputedField.title(of: field)
        let records = answer.noun
        guard answer.values > 0 else {
            let texts = answer.otherValues.prefix(3).map { "'\(SafeText.escape($0.text))'" }
            throw ShellError.invalid("\(SafeText.escape(title)) has no numbers or dates in these \(answer.records.grouped) \(records.plural)"
                + (texts.isEmpty ? "" : ": it holds text such as \(texts.joined(separator: ", ")) — 'group \(SafeText.escape(title))' counts those"))
        }
        if logarithmic, answer.kind == .date {
            throw ShellError.invalid("\(SafeText.escape(title)) holds dates: log bins are for numbers (histogram \(SafeText.escape(title)) bins dates by year, month or day)")
        }
        let histogram = answer.histogram
        guard !histogram.bins.isEmpty else {
            throw ShellError.invalid("\(SafeText.escape(title)) has no values above 0 in these \(answer.records.grouped) \(records.plural): a log scale has no place for them")
        }
        let output = session.output
        // For programs: each bin's bounds and count. For people: a label, the count and a bar.
        let data = ResultTable(columns: [ResultColumn("lower"), ResultColumn("upper"), ResultColumn("count", .integer)],
                               rows: histogram.bins.map { [bound($0.lower, of: histogram), bound($0.upper, of: histogram), .integer($0.count)] })
        let labels = ResultTable(columns: [ResultColumn(title), ResultColumn("count", .integer)],
                                 rows: histogram.bins.map { [.text("\(histogram.text($0.lower)) – \(histogram.text($0.upper))"), .integer($0.count)] })
        let bars = BarColumn.appending(to: labels, quantities: histogram.bins.map { Double($0.count) }, context: session.renderContext)
        // Machine output stays data; people reading a pipe's standard error still learn what was left out.
        if session.settings.format.isMachineReadable, answer.recordsWithoutValue > 0 {
            output.message("note: " + summary(answer))
        }
        session.lastSummary = ShownSummary(data, rows: "bin")
        return CommandResult(data, prose: .table(bars), notes: [summary(answer)] + HistogramNotes.notes(answer, field: title))
    }

    /// The field or expression, whether its bins grow by a factor (`log`), and how many:
    /// `log10(population / area) 8` is an expression and 8.
    static func fieldAndBins(_ arguments: Arguments, in session: Session) throws -> (String, logarithmic: Bool, bins: Int?) {
        guard ExpressionWords.areComputed(arguments.words) else {
            let parsed = try arguments.parse()
            let field = parsed[Self.field].first?.text ?? ""
            let names = ExpressionWords.names(in: session)
            return (names[field]?.spec ?? field, parsed.has(Self.logarithmic), parsed[Self.bins].first?.number)
        }
        var words = arguments.words
        var bins: Int?
        // `log` after the expression (before BINS) asks for bins that grow by a factor.
        var logarithmic = false
        if let place = words.lastIndex(where: { !$0.isQuoted && $0.text.lowercased() == "log" }), place >= 1, place >= words.count - 2 {
            logarithmic = true
            words.remove(at: place)
        }
        if words.count > 1, let last = words.last, !last.isQuoted, let number = Int(last.text),
           (try? ExpressionList.parse(ExpressionWords.tokens(Array(words.dropLast())), names: false)) != nil {
            guard (1...Histogram.maximumBins).contains(number) else {
                throw arguments.usageError("BINS must be a whole number from 1 to \(Histogram.maximumBins), not '\(last.text)'", at: last)
            }
            bins = number
            words.removeLast()
        }
        let items = try ExpressionWords.items(Arguments(words, spec: arguments.spec), names: false)
        guard items.count == 1 else {
            throw ExpressionWords.pointed(ExpressionError.syntax("histogram takes one expression", at: items[1].span), in: words,
                                          arguments: arguments)
        }
        let names = ExpressionWords.names(in: session)
        try ExpressionWords.check([items[0].expression], names: names, in: session, words: words)
        return (ExpressionWords.resolving(items[0], names: names), logarithmic, bins)
    }

    /// `30 of 37 species have a value; 7 have none (unknown 4, n/a 3)`.
    static func summary(_ answer: HistogramAnswer) -> String {
        let noun = answer.records == 1 ? answer.noun.singular : answer.noun.plural
        var text = "\(answer.recordsWithValue.grouped) of \(answer.records.grouped) \(noun) "
            + (answer.recordsWithValue == 1 ? "has" : "have") + " a value"
        if answer.values != answer.recordsWithValue {
            text += " (\(answer.values.grouped) values)"
        }
        text += "; \(answer.recordsWithoutValue.grouped) " + (answer.recordsWithoutValue == 1 ? "has" : "have") + " none"
        if !answer.otherValues.isEmpty {
            let shown = answer.otherValues.prefix(4).map { "\(SafeText.escape($0.text)) \($0.count.grouped)" }
            text += " (" + shown.joined(separator: ", ") + (answer.otherValues.count > 4 ? ", …" : "") + ")"
        }
        return text
    }

    /// What the results' records are called: `species`, or `records` across datasets.
    static func recordsNoun(_ results: ResultSet) -> (singular: String, plural: String) {
        results.recordNoun
    }

    /// A bound for programs: the number, or the date in ISO 8601 (UTC).
    static func bound(_ value: Double, of histogram: Histogram) -> ResultValue {
        if case .date = histogram.scale { return .text(CalendarDate.iso8601(value)) }
        if histogram.notation != .plain { return .text(histogram.text(value)) }
        return .decimal(value)
    }
}
