#if canImport(Glibc)
import Glibc
#endif

/// The sort key of every item for one field, in parallel arrays.
struct SortKeys {
    static let number: UInt8 = 0
    static let text: UInt8 = 1
    static let missing: UInt8 = 2

    var kinds: [UInt8] = []
    var numbers: [Double] = []
    /// The first sixteen bytes of folded text, as two big-endian words.
    var prefixes: [UInt64] = []
    var secondPrefixes: [UInt64] = []
    var starts: [Int] = []
    var lengths: [Int] = []
    var text: [UInt8] = []
    /// For text from a document: its node word with the dataset in the top bits (0 otherwise),
    /// to order texts that fold alike by their code points.
    var originals: [UInt64] = []
    private var arenas: [JSONDocument] = []
    /// Where each document's arena starts: the arrays never change and live as long as the
    /// documents, which `arenas` holds.
    private var arenaBases: [UnsafePointer<UInt8>] = []
    /// Text that reads as a number (`"120"`), and how many values are which.
    private var textNumbers: [Double] = []
    private var numberCount = 0
    /// Keys past 2^53 and their exact values, until `rankExactNumbers`.
    private var exactNumbers: [(index: Int, value: ExactNumber)] = []
    private var numericTextCount = 0
    /// Text that reads as no number (ISO 8601 dates among it).
    private var otherTextCount = 0
    /// Text that reads as an ISO 8601 date, with its instant (seconds since 1970, UTC).
    private var dates: [(index: Int, seconds: Double)] = []
    /// Folded keys of recent string nodes (equal short strings share a node): a small
    /// direct-mapped cache, as most titles are distinct.
    private var recentWords = [UInt64](repeating: 0, count: WordHash.cacheSize)
    private var recentKeys = [(start: Int, length: Int, number: Double, date: Double)](repeating: (0, -1, .nan, .nan),
                                                                                       count: WordHash.cacheSize)

    init(_ results: ResultSet, field: String, cancellation: Cancellation) throws {
        if let computed = results.computedColumn(field) {
            reserve(results.count)
            for item in results.items {
                if let value = computed.value(of: item) { appendNumber(value) } else { appendMissing() }
            }
            rankExactNumbers()
            return
        }
        let all = try results.datasets.map { dataset throws(CancelledError) in try dataset.fields(cancellation: cancellation) }
        if let computed = try ComputedValues.expression(field, in: all, datasets: results.datasets) {
            fill(computed: try ComputedValues.evaluate(computed.expression, over: results, cancellation: cancellation))
            rankExactNumbers()
            return
        }
        let field = ComputedValues.field(field, in: all)
        let catalogs = try FieldLookup.require(field, in: results.datasets, cancellation: cancellation)
        let paths = results.datasets.map { $0.compile(FieldPath(field)) }
        // A key spelt two ways (`first_name`, `first-name`) has no one column.
        let columns = zip(catalogs, paths).map { $1.hasTwinSpellings ? nil : $0.column(field) }
        arenas = results.datasets.map(\.document)
        arenaBases = arenas.map { $0.arena.withUnsafeBufferPointer { $0.baseAddress ?? UnsafePointer(bitPattern: 8)! } }
        reserve(results.count)
        for (position, item) in results.items.enumerated() {
            if position & 0x3FFF == 0 { try cancellation.checkpoint() }
            if let column = columns[item.dataset], !Self.needsLiteral(column, row: item.row) {
                append(column: column, row: item.row, document: results.datasets[item.dataset].document, datasetIndex: item.dataset)
            } else {
                append(first: results.datasets[item.dataset], path: paths[item.dataset], row: item.row, datasetIndex: item.dataset)
            }
        }
        settleText()
        rankExactNumbers()
    }

    /// The keys of a computed value: each row's first value (a list's first element).
    mutating func fill(computed vector: ValueVector) {
        reserve(vector.rows)
        for row in 0..<vector.rows {
            guard let index = vector.range(of: row).first, vector.isPresent(index) else { appendMissing(); continue }
            switch vector.values {
            case let .numbers(numbers): appendNumber(numbers[index])
            case let .texts(texts): appendFolded(texts[index]!)
            case let .booleans(booleans): appendFolded(booleans[index] == 1 ? "true" : "false")
            }
        }
        if vector.type == .text { settleText() }
    }

    /// What the field's text reads as: dates, or else numbers, when (nearly) all values are.
    private mutating func settleText() {
        if !settleDates() { settleNumericText() }
    }

    /// A field (nearly) all of ISO 8601 dates (`TextReading.dominant`, as describe and fields
    /// decide) sorts by their instants, as date arithmetic reads them: `2023-12-31T23:59:59-02:00`
    /// (01:59:59 UTC) after `2024-01-01` (midnight UTC). Its other values are absent.
    private mutating func settleDates() -> Bool {
        guard !dates.isEmpty, TextReading.dominant(numbers: numberCount + numericTextCount, dates: dates.count,
                                                   texts: otherTextCount - dates.count) == .date else { return false }
        for index in kinds.indices { kinds[index] = Self.missing }
        for (index, seconds) in dates {
            kinds[index] = Self.number
            numbers[index] = seconds
            prefixes[index] = 0
        }
        dates = []
        return true
    }

    /// Text that reads as a number sorts as that number (SWAPI writes numbers as text). A field
    /// mostly of numbers sorts as numbers, its other text absent; in any other its words come
    /// after its numbers (`Sort` keeps them there in both directions).
    private mutating func settleNumericText() {
        let numeric = numberCount + numericTextCount
        guard numericTextCount > 0 || otherTextCount > 0, numeric > 0 else { return }
        let mostlyNumbers = otherTextCount * 4 <= numeric
        for index in kinds.indices where kinds[index] == Self.text {
            if textNumbers[index].isNaN {
                if mostlyNumbers { kinds[index] = Self.missing }
            } else {
                kinds[index] = Self.number
                numbers[index] = textNumbers[index]
                prefixes[index] = 0
                if ExactNumber.isAmbiguous(numbers[index]),
                   let exact = ExactNumber(String(decoding: text[starts[index]..<(starts[index] + lengths[index])], as: UTF8.self)) {
                    exactNumbers.append((index, exact))
                }
            }
        }
    }

    /// The keys as raw buffers, for the comparator (no reference counting per comparison).
    struct Pointers {
        let kinds: UnsafeBufferPointer<UInt8>
        let numbers: UnsafeBufferPointer<Double>
        let prefixes: UnsafeBufferPointer<UInt64>
        let secondPrefixes: UnsafeBufferPointer<UInt64>
        let starts: UnsafeBufferPointer<Int>
        let lengths: UnsafeBufferPointer<Int>
        let text: UnsafeBufferPointer<UInt8>
        let originals: UnsafeBufferPointer<UInt64>
        /// Each dataset's string arena (the documents are kept alive by `SortKeys`).
        let arenas: UnsafeBufferPointer<UnsafePointer<UInt8>>

        /// Negative, zero or positive, like memcmp.
        @inline(__always)
        func compare(_ a: Int, _ b: Int) -> Int {
            if kinds[a] != kinds[b] { return Int(kinds[a]) - Int(kinds[b]) }
            switch kinds[a] {
            case SortKeys.number:
                if numbers[a] != numbers[b] { return numbers[a] < numbers[b] ? -1 : 1 }
                // Past 2^53 equal Doubles may be different integers: their exact values decide.
                return prefixes[a] == prefixes[b] ? 0 : (prefixes[a] < prefixes[b] ? -1 : 1)
            case SortKeys.text:
                if prefixes[a] != prefixes[b] { return prefixes[a] < prefixes[b] ? -1 : 1 }
                if secondPrefixes[a] != secondPrefixes[b] { return secondPrefixes[a] < secondPrefixes[b] ? -1 : 1 }
                let common = min(lengths[a], lengths[b])
                if common > 16 {
                    let result = memcmp(text.baseAddress! + starts[a] + 16, text.baseAddress! + starts[b] + 16, common - 16)
                    if result != 0 { return Int(result) }
                }
                if lengths[a] != lengths[b] { return lengths[a] - lengths[b] }
                return originals[a] == originals[b] ? 0 : compareOriginals(a, b)
            default:
                return 0
            }
        }

        /// Texts that fold alike (`Éa`, `ea`), by their code points (UTF-8 orders as they do).
        private func compareOriginals(_ a: Int, _ b: Int) -> Int {
            let left = originals[a]
            let right = originals[b]
            guard left != 0, right != 0 else { return 0 }
            func bytes(_ word: UInt64) -> (start: UnsafePointer<UInt8>, count: Int) {
                let range = JSONDocument.textRange(ofWord: word)
                return (arenas[Int(word >> 60) - 1] + range.lowerBound, range.count)
            }
            let (first, firstCount) = bytes(left)
            let (second, secondCount) = bytes(right)
            let result = memcmp(first, second, min(firstCount, secondCount))
            return result != 0 ? Int(result) : firstCount - secondCount
        }
    }

    func withPointers<Result>(_ body: (Pointers) throws -> Result) rethrows -> Result {
        try kinds.withUnsafeBufferPointer { kinds in
            try numbers.withUnsafeBufferPointer { numbers in
                try prefixes.withUnsafeBufferPointer { prefixes in
                    try secondPrefixes.withUnsafeBufferPointer { secondPrefixes in
                        try starts.withUnsafeBufferPointer { starts in
                            try lengths.withUnsafeBufferPointer { lengths in
                                try text.withUnsafeBufferPointer { text in
                                    try originals.withUnsafeBufferPointer { originals in
                                        try arenaBases.withUnsafeBufferPointer { arenas in
                                            try body(Pointers(kinds: kinds, numbers: numbers, prefixes: prefixes, secondPrefixes: secondPrefixes,
                                                              starts: starts, lengths: lengths, text: text, originals: originals, arenas: arenas))
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    private mutating func reserve(_ capacity: Int) {
        kinds.reserveCapacity(capacity)
        numbers.reserveCapacity(capacity)
        prefixes.reserveCapacity(capacity)
        secondPrefixes.reserveCapacity(capacity)
        starts.reserveCapacity(capacity)
        lengths.reserveCapacity(capacity)
        originals.reserveCapacity(capacity)
        textNumbers.reserveCapacity(capacity)
    }

    mutating func append(first dataset: Dataset, path: Dataset.CompiledPath, row: Int, datasetIndex: Int) {
        var value: FieldValue?
        switch dataset.scalar(of: path, row: row) {
        case .missing: value = nil
        case let .node(node): value = .node(node)
        case .several:
            dataset.forEachValue(of: path, row: row) { found in if value == nil { value = found } }
        }
        let document = dataset.document
        switch value {
        case nil:
            appendMissing()
        case let .number(number)?:
            appendNumber(number)
        case let .node(node)?:
            switch document.kind(at: node) {
            case .number:
                let number = document.number(at: node)
                appendNumber(number, literal: ExactNumber.isAmbiguous(number) ? document.string(at: node) : nil)
            case .null: appendMissing()
            case .string:
                appendString(word: document.node(node), document: document, datasetIndex: datasetIndex)
            default:
                appendFolded(dataset.text(of: .node(node)))
            }
        case let .text(string)?:
            appendFolded(string)
        }
    }

    /// The key from a field's column: numbers from their bits, text from the node word.
    mutating func append(column: FieldCatalog.Column, row: Int, document: JSONDocument, datasetIndex: Int) {
        switch column.kinds[row] {
        case JSONDocument.Kind.number.rawValue: appendNumber(Double(bitPattern: column.words[row]))
        case JSONDocument.Kind.string.rawValue: appendString(word: column.words[row], document: document, datasetIndex: datasetIndex)
        case JSONDocument.Kind.true.rawValue: appendFolded("true")
        case JSONDocument.Kind.false.rawValue: appendFolded("false")
        default: appendMissing()
        }
    }

    /// A string key by its node word, folding each distinct short string once.
    private mutating func appendString(word: UInt64, document: JSONDocument, datasetIndex: Int) {
        let key = word ^ UInt64(datasetIndex) << 56
        let slot = WordHash.cacheSlot(key)
        let original = datasetIndex < 15 ? (word & ((1 << 60) - 1)) | UInt64(datasetIndex + 1) << 60 : 0
        if recentWords[slot] == key {
            let known = recentKeys[slot]
            if known.length >= 0 {
                return appendText(start: known.start, length: known.length, number: known.number, original: original, date: known.date)
            }
            if known.length == Self.absentLength { return appendMissing() }
        }
        let range = JSONDocument.textRange(ofWord: word)
        let length = range.count
        let start = text.count
        document.arena.withUnsafeBufferPointer { arena in
            Folding.appendFolded(utf8: UnsafeBufferPointer(rebasing: arena[range]), to: &text)
        }
        let folded = text.count - start
        // `n/a`, `unknown`, `none`, "" read as no value (ValueText): they sort with the missing.
        if folded <= 12, ValueText.isAbsent(String(decoding: text[start...], as: UTF8.self)) {
            text.removeSubrange(start...)
            recentWords[slot] = key
            recentKeys[slot] = (0, Self.absentLength, .nan, .nan)
            return appendMissing()
        }
        let number = numberOfText(start: start, length: folded)
        // A date is read from the text as written: folding lower-cases its `T` and `Z`.
        let date = number.isNaN ? document.arena.withUnsafeBufferPointer { Self.date(UnsafeBufferPointer(rebasing: $0[range])) } : .nan
        if length <= JSONDocumentBuilder.internLimit {
            recentWords[slot] = key
            recentKeys[slot] = (start, folded, number, date)
        }
        appendText(start: start, length: folded, number: number, original: original, date: date)
    }

    /// Marks a remembered string that is absent.
    private static let absentLength = -2

    private mutating func appendFolded(_ string: String) {
        guard !ValueText.isAbsent(string) else { return appendMissing() }
        var string = string
        let start = text.count
        string.withUTF8 { Folding.appendFolded(utf8: $0, to: &text) }
        let length = text.count - start
        let number = numberOfText(start: start, length: length)
        appendText(start: start, length: length, number: number, original: 0,
                   date: number.isNaN ? string.withUTF8 { Self.date($0) } : .nan)
    }

    /// The instant of an ISO 8601 date (`CalendarDate`), or NaN; only text that starts like
    /// one (`2024-`) is read.
    private static func date(_ bytes: UnsafeBufferPointer<UInt8>) -> Double {
        guard bytes.count >= 10, bytes[0] >= 0x30, bytes[0] <= 0x39, bytes[4] == UInt8(ascii: "-") else { return .nan }
        return CalendarDate.seconds(bytes) ?? .nan
    }

    /// The number folded text reads as (`120`, `-3.5`), or NaN; only text that starts like a
    /// number is parsed.
    private func numberOfText(start: Int, length: Int) -> Double {
        guard length > 0, length <= 40 else { return .nan }
        let first = text[start]
        // Spaces around a number are read past, as NumericText (and the database) reads them.
        guard (first >= 0x30 && first <= 0x39) || first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: ".")
                || first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") else {
            return .nan
        }
        return NumericText.value(of: String(decoding: text[start..<(start + length)], as: UTF8.self)) ?? .nan
    }

    private mutating func appendMissing() {
        push(Self.missing)
    }

    private mutating func appendNumber(_ number: Double, literal: String? = nil) {
        if !number.isNaN { numberCount += 1 }
        if ExactNumber.isAmbiguous(number), let exact = ExactNumber(literal ?? "\(number)") { exactNumbers.append((kinds.count, exact)) }
        push(number.isNaN ? Self.missing : Self.number, number: number)
    }

    /// Whether a column's number is past 2^53, so its literal is read for its exact value.
    @inline(__always)
    static func needsLiteral(_ column: FieldCatalog.Column, row: Int) -> Bool {
        column.kinds[row] == JSONDocument.Kind.number.rawValue && ExactNumber.isAmbiguous(Double(bitPattern: column.words[row]))
    }

    /// Past 2^53 equal Doubles may be different numbers (`1234567890123456789`, `…788`): each
    /// such key's rank among their exact values breaks the tie, kept in `prefixes` (text's,
    /// unused by numbers; 0 for every other number).
    private mutating func rankExactNumbers() {
        guard !exactNumbers.isEmpty else { return }
        let ranks = Dictionary(Set(exactNumbers.map(\.value)).sorted().enumerated().map { ($1, UInt64($0 + 1)) }, uniquingKeysWith: { first, _ in first })
        for (index, exact) in exactNumbers { prefixes[index] = ranks[exact] ?? 0 }
        exactNumbers = []
    }

    private mutating func appendText(start: Int, length: Int, number: Double, original: UInt64, date: Double = .nan) {
        var prefix: UInt64 = 0
        var second: UInt64 = 0
        for offset in 0..<16 {
            let byte = offset < length ? UInt64(text[start + offset]) : 0
            if offset < 8 { prefix = prefix << 8 | byte } else { second = second << 8 | byte }
        }
        if number.isNaN { otherTextCount += 1 } else { numericTextCount += 1 }
        if !date.isNaN { dates.append((kinds.count, date)) }
        push(Self.text, prefix: prefix, secondPrefix: second, start: start, length: length, original: original, textNumber: number)
    }

    /// One key: an entry in each of the parallel arrays, which stay the same length.
    @inline(__always)
    private mutating func push(_ kind: UInt8, number: Double = 0, prefix: UInt64 = 0, secondPrefix: UInt64 = 0, start: Int = 0,
                               length: Int = 0, original: UInt64 = 0, textNumber: Double = .nan) {
        kinds.append(kind)
        numbers.append(number)
        prefixes.append(prefix)
        secondPrefixes.append(secondPrefix)
        starts.append(start)
        lengths.append(length)
        originals.append(original)
        textNumbers.append(textNumber)
    }
}
