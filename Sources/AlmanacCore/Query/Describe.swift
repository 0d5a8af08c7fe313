/// `describe [FIELD…]`: what each field of the results holds — type, present and absent
/// counts, distinct values; for numbers and dates min, max, mean and quartiles; for text its
/// most common values (DuckDB's SUMMARIZE, VisiData's describe sheet).
public enum Describe {
    /// One profile per field of each dataset of `results` (its catalog's fields when `fields`
    /// is empty), in the datasets' order. `twoThreadsFrom`: the values (rows × fields) from
    /// which the fields are profiled on two threads (`DescribeOnTwoThreads`).
    public static func run(_ results: ResultSet, fields requested: [String] = [], common: Int = 5,
                           cancellation: Cancellation = .never,
                           twoThreadsFrom: Int = Describe.twoThreadsFrom) throws -> [(dataset: String, profile: FieldProfile)] {
        let all = try results.datasets.map { dataset throws(CancelledError) in try dataset.fields(cancellation: cancellation) }
        var computed: [String: Expression] = [:]
        // `area as a`: the field's own profile, titled a.
        var renamed: [String: String] = [:]
        for field in requested {
            if let expression = try ComputedValues.expression(field, in: all, datasets: results.datasets, stepColumns: results.computed) { computed[field] = expression.expression; continue }
            renamed[field] = ComputedValues.renamedField(field, in: all)
            try FieldLookup.require(renamed[field] ?? field, in: results.datasets, cancellation: cancellation)
        }
        var jobs: [FieldJob] = []
        for (index, dataset) in results.datasets.enumerated() {
            let catalog = try dataset.fields(cancellation: cancellation)
            let rows = results.spansDatasets ? results.items.filter { $0.dataset == index }.map(\.row) : results.items.map(\.row)
            let fields = requested.isEmpty ? catalog.fields.map(\.path)
                : requested.filter { computed[$0] != nil || FieldLookup.field(renamed[$0] ?? $0, in: catalog) != nil }
            jobs += fields.map { spec in
                FieldJob(dataset: index, field: renamed[spec] ?? spec, rows: rows, catalog: catalog, computed: computed[spec],
                         title: renamed[spec] == nil ? nil : ComputedField.title(of: spec))
            }
        }
        let profiles = try profiles(of: jobs, twoThreadsFrom: twoThreadsFrom) { job throws in
            try cancellation.checkpoint()
            let dataset = results.datasets[job.dataset]
            if let expression = job.computed {
                let own = results.with(results.items.filter { $0.dataset == job.dataset })
                let vector = try ComputedValues.evaluate(expression, over: own, cancellation: cancellation)
                return profile(ComputedField.title(of: job.field), vector, common: common)
            }
            var profile = try profileOf(job.field, rows: job.rows, in: dataset, catalog: job.catalog, common: common, cancellation: cancellation)
            if let title = job.title { profile.field = title }
            return profile
        }
        return zip(jobs, profiles).map { (results.datasets[$0.dataset].name, $1) }
    }

    /// What one value is, decided once per distinct value.
    private enum Reading {
        case number(Double)
        case date(Double)
        case text
    }

    /// What one field's values come to: present values, numbers as they come, and per
    /// distinct value (numbered by `values`) its count. What each distinct value reads as is
    /// decided after the rows (`readDistinct`), in one tight loop over the values' bytes.
    private struct Tally {
        var values = ValueNumbering()
        var counts: [Int] = [0]
        var numbers: [Double] = []
        var present = 0
        /// Numbers past 2⁵³ by their literals: one Double may be several of them (`ExactNumber`).
        var exact: Set<ExactNumber> = []

        mutating func take(_ number: Int32) {
            let index = Int(number)
            while counts.count <= index { counts.append(0) }
            counts[index] += 1
        }

        /// Numbers written as galactic years (`19BBY`) were met.
        var galactic = false

        /// Each distinct value's reading; its numbers and dates added as many times as it occurs.
        mutating func readDistinct() -> (readings: [Reading], dates: [Double], texts: Int) {
            var readings = [Reading](repeating: .text, count: counts.count)
            var dates: [Double] = []
            var texts = 0
            var numbers = self.numbers
            self.numbers = []
            var galactic = self.galactic
            var exact = self.exact
            let (counts, values) = (self.counts, self.values)
            values.forEachText { number, bytes in
                let count = Int(number) < counts.count ? counts[Int(number)] : 0
                guard count > 0 else { return }
                let isNumber = values.isNumber(number)
                let reading = read(bytes, isNumber: isNumber)
                readings[Int(number)] = reading
                switch reading {
                case let .number(value):
                    numbers.append(contentsOf: repeatElement(value, count: count))
                    if !galactic, !isNumber { galactic = NumericText.isGalacticYear(utf8: bytes) }
                    if ExactNumber.isAmbiguous(value), let literal = ExactNumber(String(decoding: bytes, as: UTF8.self)) {
                        exact.insert(literal)
                    }
                case let .date(seconds): dates.append(contentsOf: repeatElement(seconds, count: count))
                case .text: texts += count
                }
            }
            (self.numbers, self.galactic, self.exact) = (numbers, galactic, exact)
            return (readings, dates, texts)
        }
    }

    private static func profileOf(_ field: String, rows: [Int], in sharedDataset: Dataset, catalog: FieldCatalog, common: Int,
                                  cancellation: Cancellation) throws -> FieldProfile {
        // Both of describe's threads read the one dataset and document per row: held unretained
        // (the caller keeps them alive), their reference counts do not bounce between the cores.
        unowned(unsafe) let dataset = sharedDataset
        unowned(unsafe) let document = sharedDataset.document
        let path = dataset.compile(FieldPath(field))
        let column = path.hasTwinSpellings ? nil : catalog.column(field)
        var tally = Tally()
        if let column, let counted = try ColumnTally.count(column, rows: rows, in: dataset, path: path, into: &tally.values,
                                                             cancellation: cancellation) {
            (tally.counts, tally.numbers, tally.present, tally.exact) = (counted.counts, counted.numbers, counted.present, counted.exact)
        } else if let column {
            // Numbers need no names: they are told apart once sorted.
            tally.numbers.reserveCapacity(rows.count)
            try column.kinds.withUnsafeBufferPointer { kinds throws(CancelledError) in
                try column.words.withUnsafeBufferPointer { words throws(CancelledError) in
                    for (position, row) in rows.enumerated() {
                        if position & 0xFFFF == 0 { try cancellation.checkpoint() }
                        let kind = kinds[row]
                        if kind == JSONDocument.Kind.number.rawValue {
                            tally.present += 1
                            let value = Double(bitPattern: words[row])
                            tally.numbers.append(value)
                            if ExactNumber.isAmbiguous(value), case let .node(node) = dataset.scalar(of: path, row: row),
                               let exact = ExactNumber(document.string(at: node)) {
                                tally.exact.insert(exact)
                            }
                            continue
                        }
                        let number = tally.values.number(kind: kind, word: words[row], in: dataset, datasetIndex: 0, path: path, row: row, field: 0)
                        if number != tally.values.empty {
                            tally.present += 1
                            tally.take(number)
                        }
                    }
                }
            }
        } else {
            for (position, row) in rows.enumerated() {
                if position & 0xFFFF == 0 { try cancellation.checkpoint() }
                var hasValue = false
                dataset.forEachWholeValue(of: path, row: row) { value in
                    if case let .number(number) = value {
                        hasValue = true
                        return tally.numbers.append(number)
                    }
                    if case let .node(node) = value, document.kind(at: node) == .number {
                        hasValue = true
                        let number = document.number(at: node)
                        if ExactNumber.isAmbiguous(number), let exact = ExactNumber(document.string(at: node)) { tally.exact.insert(exact) }
                        return tally.numbers.append(number)
                    }
                    let number = tally.values.number(for: value, in: dataset, datasetIndex: 0)
                    guard number != tally.values.empty else { return }
                    hasValue = true
                    tally.take(number)
                }
                if hasValue { tally.present += 1 }
            }
        }
        let distinct = tally.readDistinct()
        let galactic = tally.galactic
        let (readings, texts) = (distinct.readings, distinct.texts)
        var dates = distinct.dates
        let (counts, values, present, exact) = (tally.counts, tally.values, tally.present, tally.exact)
        var numbers = tally.numbers
        tally = Tally()
        var distinctOthers = 0
        for (number, count) in counts.enumerated().dropFirst() where count > 0 {
            if case .number = readings[number] { continue }
            distinctOthers += 1
        }
        // The type is the field's, as `fields` says it (FieldCatalog's reading of its values).
        let known = FieldLookup.field(field, in: catalog)
        var profile = FieldProfile(field: field, type: known?.typeDescription ?? "empty",
                                   present: present, absent: rows.count - present, distinct: distinctOthers)
        // Numbers or dates when (nearly) all values are, as sort decides: a stray word is absent.
        switch TextReading.dominant(numbers: numbers.count, dates: dates.count, texts: texts) {
        case .date?:
            profile.isDate = true
            fillStatistics(&profile, &dates, kind: .date)
            numbers.sortNumbers()
        case .number?:
            if galactic { profile.notation = .galacticYear }
            fillStatistics(&profile, &numbers, kind: .number)
        default:
            numbers.sortNumbers()
            profile.common = mostCommon(counts, values, limit: common)
        }
        // Sorted by now: each number unlike the one before it is another value — past 2⁵³ each
        // literal that differs exactly.
        profile.distinct += numbers.indices.reduce(0) { count, index in
            let number = numbers[index]
            let new = index == 0 || number != numbers[index - 1]
            return count + (new && !(ExactNumber.isAmbiguous(number) && !exact.isEmpty) ? 1 : 0)
        }
        if !exact.isEmpty {
            // Doubles past 2⁵³ whose literals were read count by those; any other (a computed value) by its bits.
            let ambiguous = Set(numbers.filter { ExactNumber.isAmbiguous($0) })
            profile.distinct += max(exact.count, ambiguous.count)
            // An extreme past 2⁵³ is the extreme of the literals (all values beyond it are past 2⁵³ too).
            if let minimum = profile.minimum, ExactNumber.isAmbiguous(minimum) { profile.exactMinimum = exact.min()?.decimalText }
            if let maximum = profile.maximum, ExactNumber.isAmbiguous(maximum) { profile.exactMaximum = exact.max()?.decimalText }
        }
        return profile
    }

    /// A computed value's profile (`describe population / area`): its type, presence, and
    /// statistics of its numbers and dates or its most common values.
    static func profile(_ field: String, _ vector: ValueVector, common: Int) -> FieldProfile {
        var present = 0
        var numbers: [Double] = []
        var counts: [String: Int] = [:]
        var order: [String] = []
        for row in 0..<vector.rows {
            var has = false
            for index in vector.range(of: row) where vector.isPresent(index) {
                has = true
                if case let .numbers(values) = vector.values { numbers.append(values[index]); continue }
                let text = vector.text(at: index)!
                if counts[text] == nil { order.append(text) }
                counts[text, default: 0] += 1
            }
            if has { present += 1 }
        }
        let type = vector.offsets == nil ? vector.type : .list(vector.type)
        var profile = FieldProfile(field: field, type: type.description, present: present, absent: vector.rows - present,
                                   distinct: counts.count + Set(numbers).count, isDate: vector.type == .date)
        if !numbers.isEmpty {
            fillStatistics(&profile, &numbers, kind: vector.type == .date ? .date : .number)
        } else {
            let ranked = order.sorted { counts[$0]! != counts[$1]! ? counts[$0]! > counts[$1]! : precedes($0, $1) }
            profile.common = ranked.prefix(common).map { ($0, counts[$0]!) }
        }
        return profile
    }

    /// A distinct value's reading: a number written as text, an ISO 8601 date, or text (TextReading).
    private static func read(_ bytes: UnsafeBufferPointer<UInt8>, isNumber: Bool) -> Reading {
        if isNumber, let value = Double(String(decoding: bytes, as: UTF8.self)) { return .number(value) }
        switch TextReading.of(utf8: bytes) {
        case .date: return CalendarDate.seconds(bytes).map { .date($0) } ?? .text
        case .number: return NumericText.value(utf8: bytes).map { .number($0) } ?? .text
        case .text: return .text
        }
    }

    /// Bins in a profile's distribution: a sparkline as wide as a short word.
    public static let distributionBins = 12

    /// Min, max, mean, the quartiles interpolated as SQL's percentile_cont, and the
    /// distribution in bins as `histogram FIELD 12` counts them.
    private static func fillStatistics(_ profile: inout FieldProfile, _ values: inout [Double], kind: FieldMeasurements.Kind) {
        values.sortNumbers()
        // NaN and ±infinity are counted apart: statistics over them would be NaN or a trap.
        let finite = values.filter(\.isFinite)
        profile.nonFinite = values.count - finite.count
        guard let first = finite.first, let last = finite.last else { return }
        profile.minimum = first
        profile.maximum = last
        profile.mean = FiniteArithmetic.mean(finite)
        profile.quartiles = [0.25, 0.5, 0.75].map { fraction in
            let position = fraction * Double(finite.count - 1)
            let low = Int(position.rounded(.down))
            let high = min(low + 1, finite.count - 1)
            return FiniteArithmetic.between(finite[low], finite[high], position - Double(low))
        }
        let measured = FieldMeasurements(field: profile.field, kind: kind, values: finite, records: finite.count,
                                         recordsWithValue: finite.count, otherValues: [])
        profile.distribution = measured.histogram(bins: distributionBins).bins.map(\.count)
    }

    /// The `limit` most common values, most common first, equal counts by their text's bytes —
    /// the order a table's `ORDER BY n DESC, v COLLATE "C"` gives them, and group's ties.
    private static func mostCommon(_ counts: [Int], _ values: ValueNumbering, limit: Int) -> [(value: String, count: Int)] {
        var top: [(name: String, count: Int)] = []
        for (number, count) in counts.enumerated().dropFirst() where count > 0 {
            guard top.count < limit || count >= top[top.count - 1].count else { continue }
            let name = values.name(of: Int32(number))
            func before(_ other: (name: String, count: Int)) -> Bool { count > other.count || count == other.count && precedes(name, other.name) }
            guard top.count < limit || before(top[top.count - 1]) else { continue }
            top.insert((name, count), at: top.firstIndex(where: before) ?? top.count)
            if top.count > limit { top.removeLast() }
        }
        return top.map { ($0.name, $0.count) }
    }

    /// Byte order of the UTF-8 text (PostgreSQL's "C" collation).
    static func precedes(_ first: String, _ second: String) -> Bool { first.utf8.lexicographicallyPrecedes(second.utf8) }
}
