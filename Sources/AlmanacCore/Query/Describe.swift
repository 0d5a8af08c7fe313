/// `describe [FIELD…]`: what each field of the results holds — type, present and absent
/// counts, distinct values; for numbers and dates min, max, mean and quartiles; for text its
/// most common values (DuckDB's SUMMARIZE, VisiData's describe sheet).
public enum Describe {
    /// One profile per field of each dataset of `results` (its catalog's fields when `fields`
    /// is empty), in the datasets' order.
    public static func run(_ results: ResultSet, fields requested: [String] = [], common: Int = 5,
                           cancellation: Cancellation = .never) throws -> [(dataset: String, profile: FieldProfile)] {
        for field in requested { try FieldLookup.require(field, in: results.datasets, cancellation: cancellation) }
        var profiles: [(dataset: String, profile: FieldProfile)] = []
        for (index, dataset) in results.datasets.enumerated() {
            let catalog = try dataset.fields(cancellation: cancellation)
            let rows = results.spansDatasets ? results.items.filter { $0.dataset == index }.map(\.row) : results.items.map(\.row)
            let fields = requested.isEmpty ? catalog.fields.map(\.path) : requested.filter { FieldLookup.field($0, in: catalog) != nil }
            for field in fields {
                try cancellation.checkpoint()
                let profile = try profileOf(field, rows: rows, in: dataset, catalog: catalog, common: common, cancellation: cancellation)
                profiles.append((dataset.name, profile))
            }
        }
        return profiles
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

        mutating func take(_ number: Int32) {
            let index = Int(number)
            while counts.count <= index { counts.append(0) }
            counts[index] += 1
        }

        /// Each distinct value's reading; its numbers and dates added as many times as it occurs.
        mutating func readDistinct() -> (readings: [Reading], dates: [Double], texts: Int) {
            var readings = [Reading](repeating: .text, count: counts.count)
            var dates: [Double] = []
            var texts = 0
            var numbers = self.numbers
            self.numbers = []
            let (counts, values) = (self.counts, self.values)
            values.forEachText { number, bytes in
                let count = Int(number) < counts.count ? counts[Int(number)] : 0
                guard count > 0 else { return }
                let reading = read(bytes, isNumber: values.isNumber(number))
                readings[Int(number)] = reading
                switch reading {
                case let .number(value): numbers.append(contentsOf: repeatElement(value, count: count))
                case let .date(seconds): dates.append(contentsOf: repeatElement(seconds, count: count))
                case .text: texts += count
                }
            }
            self.numbers = numbers
            return (readings, dates, texts)
        }
    }

    private static func profileOf(_ field: String, rows: [Int], in dataset: Dataset, catalog: FieldCatalog, common: Int,
                                  cancellation: Cancellation) throws -> FieldProfile {
        let path = dataset.compile(FieldPath(field))
        let column = path.hasTwinSpellings ? nil : catalog.column(field)
        let document = dataset.document
        var tally = Tally()
        if let column, let counted = try ColumnTally.count(column, rows: rows, in: dataset, path: path, into: &tally.values,
                                                             cancellation: cancellation) {
            (tally.counts, tally.numbers, tally.present) = (counted.counts, counted.numbers, counted.present)
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
                            tally.numbers.append(Double(bitPattern: words[row]))
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
                dataset.forEachValue(of: path, row: row) { value in
                    if case let .number(number) = value {
                        hasValue = true
                        return tally.numbers.append(number)
                    }
                    if case let .node(node) = value, document.kind(at: node) == .number {
                        hasValue = true
                        return tally.numbers.append(document.number(at: node))
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
        let (readings, texts) = (distinct.readings, distinct.texts)
        var dates = distinct.dates
        let (counts, values, present) = (tally.counts, tally.values, tally.present)
        var numbers = tally.numbers
        tally = Tally()
        var distinctOthers = 0
        for (number, count) in counts.enumerated().dropFirst() where count > 0 {
            if case .number = readings[number] { continue }
            distinctOthers += 1
        }
        let known = FieldLookup.field(field, in: catalog)
        var profile = FieldProfile(field: field, type: known?.typeDescription ?? "empty",
                                   present: present, absent: rows.count - present, distinct: distinctOthers)
        // Numbers or dates when (nearly) all values are, as sort decides: a stray word is absent.
        if dates.count > 0, (numbers.count + texts) * 4 <= dates.count {
            profile.isDate = true
            profile.type = "date"
            fillStatistics(&profile, &dates, kind: .date)
            numbers.sortNumbers()
        } else if numbers.count > 0, texts * 4 <= numbers.count {
            // A computed field's numbers are read from text (SWAPI's "180").
            if known?.isDerived == true || !(profile.type.hasPrefix("number") || profile.type.hasPrefix("list of number")) {
                profile.type = "number (as text)"
            }
            fillStatistics(&profile, &numbers, kind: .number)
        } else {
            numbers.sortNumbers()
            profile.common = mostCommon(counts, values, limit: common)
        }
        // Sorted by now: each number unlike the one before it is another value.
        profile.distinct += numbers.indices.reduce(0) { $0 + ($1 == 0 || numbers[$1] != numbers[$1 - 1] ? 1 : 0) }
        return profile
    }

    /// A distinct value's reading: a number written as text, an ISO 8601 date, or text.
    private static func read(_ bytes: UnsafeBufferPointer<UInt8>, isNumber: Bool) -> Reading {
        if isNumber, let value = Double(String(decoding: bytes, as: UTF8.self)) { return .number(value) }
        guard let first = bytes.first else { return .text }
        if bytes.count >= 10, first >= 0x30, first <= 0x39, bytes[4] == UInt8(ascii: "-"), let seconds = CalendarDate.seconds(bytes) {
            return .date(seconds)
        }
        if (first >= 0x30 && first <= 0x39) || first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: "."),
           let value = NumericText.value(of: String(decoding: bytes, as: UTF8.self)) {
            return .number(value)
        }
        return .text
    }

    /// Bins in a profile's distribution: a sparkline as wide as a short word.
    public static let distributionBins = 12

    /// Min, max, mean, the quartiles interpolated as SQL's percentile_cont, and the
    /// distribution in bins as `histogram FIELD 12` counts them.
    private static func fillStatistics(_ profile: inout FieldProfile, _ values: inout [Double], kind: FieldMeasurements.Kind) {
        values.sortNumbers()
        guard let first = values.first, let last = values.last else { return }
        profile.minimum = first
        profile.maximum = last
        profile.mean = values.reduce(0, +) / Double(values.count)
        profile.quartiles = [0.25, 0.5, 0.75].map { fraction in
            let position = fraction * Double(values.count - 1)
            let low = Int(position.rounded(.down))
            let high = min(low + 1, values.count - 1)
            return values[low] + (values[high] - values[low]) * (position - Double(low))
        }
        let measured = FieldMeasurements(field: profile.field, kind: kind, values: values, records: values.count,
                                         recordsWithValue: values.count, otherValues: [])
        profile.distribution = measured.histogram(bins: distributionBins).bins.map(\.count)
    }

    /// The `limit` most common values, most common first (equal counts in the order first met).
    private static func mostCommon(_ counts: [Int], _ values: ValueNumbering, limit: Int) -> [(value: String, count: Int)] {
        var top: [(number: Int, count: Int)] = []
        for (number, count) in counts.enumerated().dropFirst() where count > 0 {
            guard top.count < limit || count > top[top.count - 1].count else { continue }
            let place = top.firstIndex { $0.count < count } ?? top.count
            top.insert((number, count), at: place)
            if top.count > limit { top.removeLast() }
        }
        return top.map { (values.name(of: Int32($0.number)), $0.count) }
    }
}
