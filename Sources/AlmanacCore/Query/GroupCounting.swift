import CGlibc

/// Counts combinations of value numbers. One or two numbers (most groupings) pack into one
/// 64-bit key of a `WordTable`; more go to a dictionary.
struct GroupCounter: Sendable {
    private(set) var counts: [Int] = []
    /// The row of each group's first record (in the packed case): its values are the group's.
    private(set) var firstRows: [Int32] = []
    private var packed: [UInt64] = []
    private var table: WordTable
    private var wide: [[Int32]: Int] = [:]
    private var wideKeys: [[Int32]] = []
    private var width = -1

    init(expected: Int) { table = WordTable(expected: expected) }

    var count: Int { counts.count }

    /// Adds one to the group of `numbers`; returns the group's index.
    @discardableResult
    mutating func add(_ numbers: [Int32]) -> Int {
        guard numbers.count <= 2 else {
            width = numbers.count
            if let index = wide[numbers] {
                counts[index] += 1
                return index
            }
            wide[numbers] = counts.count
            wideKeys.append(numbers)
            counts.append(1)
            return counts.count - 1
        }
        let key = numbers.count == 2
            ? UInt64(UInt32(bitPattern: numbers[0])) << 32 | UInt64(UInt32(bitPattern: numbers[1]))
            : UInt64(UInt32(bitPattern: numbers.first ?? 0))
        return add(packed: key, width: numbers.count)
    }

    /// Adds one to the group of one or two value numbers packed into `key`; returns its index.
    @inline(__always) @discardableResult
    mutating func add(packed key: UInt64, width: Int, row: Int = 0) -> Int {
        self.width = width
        let next = Int32(counts.count)
        let index = Int(table.value(of: key) { next })
        if index == counts.count {
            packed.append(key)
            counts.append(1)
            firstRows.append(Int32(truncatingIfNeeded: row))
        } else {
            counts[index] += 1
        }
        return index
    }

    /// Adds one to group `index`: `add`'s answer for a record whose key is the last one's.
    @inline(__always)
    mutating func addOne(to index: Int) { counts[index] += 1 }

    /// Adds the groups `other` counted (of one or two packed numbers, after this one's), in
    /// the order it met them; returns each one's index here.
    mutating func merge(_ other: GroupCounter) -> [Int32] {
        var indices: [Int32] = []
        indices.reserveCapacity(other.count)
        for group in 0..<other.count {
            let key = other.packed[group]
            let next = Int32(counts.count)
            let index = Int(table.value(of: key) { next })
            if index == counts.count {
                packed.append(key)
                counts.append(other.counts[group])
                firstRows.append(other.firstRows[group])
            } else {
                counts[index] += other.counts[group]
            }
            indices.append(Int32(index))
        }
        if other.width >= 0 { width = other.width }
        return indices
    }

    /// Group `index`'s one or two value numbers in ranks' order packed in a word (high: the
    /// first field's), for ordering groups; nil when groups have more than two fields.
    func rankKey(at index: Int, ranks: [Int32]) -> UInt64? {
        guard width <= 2 else { return nil }
        let key = packed[index]
        let low = UInt64(UInt32(bitPattern: ranks[Int(UInt32(truncatingIfNeeded: key))]))
        return width == 2 ? UInt64(UInt32(bitPattern: ranks[Int(key >> 32)])) << 32 | low : low
    }

    /// The value numbers of group `index`.
    func key(at index: Int) -> [Int32] {
        if width > 2 { return wideKeys[index] }
        let key = packed[index]
        return width == 2 ? [Int32(bitPattern: UInt32(key >> 32)), Int32(bitPattern: UInt32(truncatingIfNeeded: key))]
            : [Int32(bitPattern: UInt32(truncatingIfNeeded: key))]
    }
}

/// Numbers for distinct values, and each value's text once. Short strings are numbered by
/// their node word (equal ones share it), everything else by its UTF-8 bytes — never by
/// `String` hashing, whose Unicode normalization would dominate the count. Values that mean
/// none (`null`, `n/a`, …: see `ValueText`) are number 0.
struct ValueNumbering: Sendable {
    /// Where each number's text is: in a document's arena, or in `texts`.
    private var arenaRanges: [(document: Int32, offset: Int, length: Int)] = [(-1, 0, 0)]
    /// Texts numbered by their bytes (offset in `arenaRanges`: the entry).
    private var texts = ByteTable(empty: 0)
    private var documents: [JSONDocument?] = []
    let empty: Int32 = 0
    private var words = WordTable()
    /// Per value number: whether it is a number.
    private var isNumeric: [Bool] = [false]
    /// Across datasets equal texts live in different documents: number them by their bytes.
    private let mergesDocuments: Bool

    init(mergesDocuments: Bool = false) { self.mergesDocuments = mergesDocuments }

    var count: Int { arenaRanges.count }

    /// The text of value number `number`.
    func name(of number: Int32) -> String {
        withBytes(of: number) { String(decoding: $0, as: UTF8.self) }
    }

    /// The UTF-8 bytes of value number `number`.
    func withBytes<Result>(of number: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let range = arenaRanges[Int(number)]
        if range.document < 0 { return texts.withBytes(of: range.offset, body) }
        return documents[Int(range.document)]!.arena.withUnsafeBufferPointer {
            body(UnsafeBufferPointer(rebasing: $0[range.offset..<(range.offset + range.length)]))
        }
    }

    /// Every value's number and UTF-8 bytes, in number order (each document's arena opened once).
    func forEachText(_ body: (Int32, UnsafeBufferPointer<UInt8>) -> Void) {
        // The arenas never change and live as long as `arenas` holds them (as SortKeys' do).
        let arenas = documents.map { $0?.arena ?? [] }
        let bases = arenas.map { $0.withUnsafeBufferPointer { $0.baseAddress ?? UnsafePointer(bitPattern: 8)! } }
        withExtendedLifetime(arenas) {
            // The texts are scattered over the arena: each is asked for sixteen ahead.
            let ahead = 16
            for number in 1..<arenaRanges.count {
                if number + ahead < arenaRanges.count, arenaRanges[number + ahead].document >= 0 {
                    almanac_prefetch(bases[Int(arenaRanges[number + ahead].document)] + arenaRanges[number + ahead].offset)
                }
                let range = arenaRanges[number]
                if range.document < 0 {
                    texts.withBytes(of: range.offset) { body(Int32(number), $0) }
                } else {
                    body(Int32(number), UnsafeBufferPointer(start: bases[Int(range.document)] + range.offset, count: range.length))
                }
            }
        }
    }

    /// Numbers a short string of one document that is not numbered yet (`ColumnTally` meets
    /// each once), without remembering its word: a later `number(stringWord:…)` of it would
    /// number it again. Words for none are `empty`, as there.
    mutating func appendNew(stringRange range: Range<Int>, in document: JSONDocument) -> Int32 {
        if range.count <= 12, ValueText.mayBeAbsent(utf8: document.arena[range]),
           ValueText.isAbsent(String(decoding: document.arena[range], as: UTF8.self)) {
            return empty
        }
        if mergesDocuments { return number(forBytesOf: range, in: document) }
        if documents.isEmpty { documents.append(document) } else if documents[0] == nil { documents[0] = document }
        arenaRanges.append((0, range.lowerBound, range.count))
        isNumeric.append(false)
        return Int32(arenaRanges.count - 1)
    }

    /// Whether value number `number` is a number (read with `ValueText.number`).
    func isNumber(_ number: Int32) -> Bool { isNumeric[Int(number)] }

    /// The number of a column's value: interned strings by their word, numbers by their bits
    /// (per field: the same number reads `1,500` as a count and `1500` as a year), named by
    /// their literal as written in the record at `row`.
    mutating func number(kind: UInt8, word: UInt64, in dataset: Dataset, datasetIndex: Int,
                         path: Dataset.CompiledPath, row: Int, field: Int) -> Int32 {
        switch kind {
        case FieldCatalog.Column.missing, JSONDocument.Kind.null.rawValue:
            return empty
        case JSONDocument.Kind.string.rawValue:
            return number(stringWord: word, in: dataset.document, datasetIndex: datasetIndex)
        case JSONDocument.Kind.number.rawValue:
            let key = NumberKey(dataset: datasetIndex, field: field, bits: word)
            let ambiguous = ExactNumber.isAmbiguous(Double(bitPattern: word))
            if !ambiguous, let known = numberNames[key] { return known }
            let literal: String
            if case let .node(node) = dataset.scalar(of: path, row: row), dataset.document.kind(at: node) == .number {
                literal = dataset.document.string(at: node)
            } else {
                literal = NumberFormat.plain(Double(bitPattern: word))
            }
            if ambiguous, let exact = ExactNumber(literal) {
                // Past 2⁵³ one Double is many numbers: named by their exact value, not the bits.
                let exactKey = ExactKey(field: field, value: exact)
                if let known = exactNames[exactKey] { return known }
                let number = number(forText: literal, isNumber: true)
                exactNames[exactKey] = number
                return number
            }
            let number = number(forText: literal, isNumber: true)
            numberNames[key] = number
            return number
        case JSONDocument.Kind.true.rawValue:
            return number(forText: "true")
        default:
            return number(forText: "false")
        }
    }

    mutating func number(for value: FieldValue, in dataset: Dataset, datasetIndex: Int) -> Int32 {
        switch value {
        case let .node(node):
            switch dataset.document.kind(at: node) {
            case .string: return number(stringWord: dataset.document.node(node), in: dataset.document, datasetIndex: datasetIndex)
            case .number: return number(forText: dataset.document.string(at: node), isNumber: true)
            case .null: return empty
            case .object:
                // An object is one value, known by the member that names it.
                let document = dataset.document
                guard let member = ObjectIdentity.member(of: node, in: document, keys: namingKeys(datasetIndex, document)) else {
                    return number(forObjectText: node, in: document)
                }
                return document.kind(at: member) == .string
                    ? number(stringWord: document.node(member), in: document, datasetIndex: datasetIndex)
                    : number(forText: document.string(at: member), isNumber: true)
            default: return number(forText: dataset.text(of: value))
            }
        case let .text(text): return ValueText.isAbsent(text) ? empty : number(forText: text)
        case let .number(number): return self.number(forText: NumberFormat.plain(number), isNumber: true)
        }
    }

    /// Per dataset, `ObjectIdentity`'s naming keys prepared for its document.
    private var objectKeys: [[JSONDocument.Key]?] = []
    /// The buffer each unnamed object's JSON text is written into, reused from row to row.
    private var objectText = JSONWriter()

    private mutating func namingKeys(_ datasetIndex: Int, _ document: JSONDocument) -> [JSONDocument.Key] {
        while objectKeys.count <= datasetIndex { objectKeys.append(nil) }
        if let keys = objectKeys[datasetIndex] { return keys }
        let keys = ObjectIdentity.keys(in: document)
        objectKeys[datasetIndex] = keys
        return keys
    }

    /// An object no member names, numbered by its JSON text (`ObjectIdentity.text`) written
    /// into one reused buffer: no String per row. An empty object is none.
    private mutating func number(forObjectText node: Int, in document: JSONDocument) -> Int32 {
        guard document.count(at: node) > 0 else { return empty }
        var writer = JSONWriter()
        swap(&writer, &objectText)
        defer { swap(&writer, &objectText) }
        writer.clear()
        writer.write(document, node)
        return writer.bytes.withUnsafeBufferPointer { number(forBytes: $0) }
    }

    private struct NumberKey: Hashable {
        var dataset: Int
        var field: Int
        var bits: UInt64
    }
    private var numberNames: [NumberKey: Int32] = [:]
    private struct ExactKey: Hashable {
        var field: Int
        var value: ExactNumber
    }
    private var exactNames: [ExactKey: Int32] = [:]

    /// The number of a string by its node word (`number(kind:…)` for a string).
    mutating func number(stringWord word: UInt64, in document: JSONDocument, datasetIndex: Int) -> Int32 {
        let range = JSONDocument.textRange(ofWord: word)
        guard range.count <= JSONDocumentBuilder.internLimit else { return number(forBytesOf: range, in: document) }
        let key = word ^ UInt64(datasetIndex) << 56
        if let known = words[key] { return known }
        let number: Int32
        if range.count <= 12, ValueText.mayBeAbsent(utf8: document.arena[range]),
           ValueText.isAbsent(String(decoding: document.arena[range], as: UTF8.self)) {
            number = empty
        } else if mergesDocuments {
            number = self.number(forBytesOf: range, in: document)
        } else {
            while documents.count <= datasetIndex { documents.append(nil) }
            documents[datasetIndex] = document
            arenaRanges.append((Int32(datasetIndex), range.lowerBound, range.count))
            isNumeric.append(false)
            number = Int32(arenaRanges.count - 1)
        }
        words.insert(key, number)
        return number
    }

    private mutating func number(forText text: String, isNumber: Bool = false) -> Int32 {
        var text = text
        let number = text.withUTF8 { bytes -> Int32 in self.number(forBytes: bytes) }
        if isNumber { isNumeric[Int(number)] = true }
        return number
    }

    private mutating func number(forBytesOf range: Range<Int>, in document: JSONDocument) -> Int32 {
        document.arena.withUnsafeBufferPointer { number(forBytes: UnsafeBufferPointer(rebasing: $0[range])) }
    }

    private mutating func number(forBytes bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
        let next = Int32(arenaRanges.count)
        let (number, entry) = texts.value(of: bytes, or: next)
        if number == next {
            arenaRanges.append((-1, entry, 0))
            isNumeric.append(false)
        }
        return number
    }

    /// An order of the values for breaking ties between groups, as `sort` orders: numbers
    /// first, by value; then text by its folded form (no case, no diacritics), then by code
    /// point; none last. `rank[number]` is each value's place.
    ///
    /// Foldings are sorted as their first 24 bytes in three big-endian words (one flat array of
    /// entries), so most comparisons are integer comparisons — a quarter of a million city
    /// names that begin alike included; longer ties compare the rest in one buffer.
    func ranks() -> [Int32] {
        struct Entry {
            var words: (UInt64, UInt64, UInt64)
            var start: Int
            var length: Int32
            var number: Int32
        }
        let count = arenaRanges.count
        var buffer: [UInt8] = []
        var texts: [Entry] = []
        texts.reserveCapacity(count)
        var numbers: [(value: Double, number: Int32)] = []
        var exact: [Int32: ExactNumber] = [:]
        for number in 1..<max(1, count) {
            withBytes(of: Int32(number)) { bytes in
                if isNumeric[number], let value = Double(String(decoding: bytes, as: UTF8.self)) {
                    numbers.append((value, Int32(number)))
                    if ExactNumber.isAmbiguous(value) { exact[Int32(number)] = ExactNumber(String(decoding: bytes, as: UTF8.self)) }
                    return
                }
                let start = buffer.count
                Folding.appendFolded(utf8: bytes, to: &buffer)
                let length = buffer.count - start
                var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
                for offset in 0..<min(24, length) {
                    let byte = UInt64(buffer[start + offset]) << (56 - 8 * (offset % 8))
                    switch offset / 8 {
                    case 0: words.0 |= byte
                    case 1: words.1 |= byte
                    default: words.2 |= byte
                    }
                }
                if length <= 24 { buffer.removeSubrange(start...) }
                texts.append(Entry(words: words, start: start, length: Int32(length), number: Int32(number)))
            }
        }
        numbers.sort { a, b in
            if a.value != b.value { return a.value < b.value }
            if let first = exact[a.number], let second = exact[b.number], first != second { return first < second }
            return a.number < b.number
        }
        buffer.withUnsafeBufferPointer { buffer in
            texts.sort { a, b in
                if a.words.0 != b.words.0 { return a.words.0 < b.words.0 }
                if a.words.1 != b.words.1 { return a.words.1 < b.words.1 }
                if a.words.2 != b.words.2 { return a.words.2 < b.words.2 }
                if a.length > 24, b.length > 24 {
                    let result = memcmp(buffer.baseAddress! + a.start + 24, buffer.baseAddress! + b.start + 24, Int(min(a.length, b.length)) - 24)
                    if result != 0 { return result < 0 }
                }
                if a.length != b.length { return a.length < b.length }
                // Equal foldings (`Éa`, `ea`): by code point.
                return withBytes(of: a.number) { first in withBytes(of: b.number) { first.lexicographicallyPrecedes($0) } }
            }
        }
        var ranks = [Int32](repeating: Int32(count), count: count)
        for (rank, entry) in numbers.enumerated() { ranks[Int(entry.number)] = Int32(rank) }
        for (rank, entry) in texts.enumerated() { ranks[Int(entry.number)] = Int32(numbers.count + rank) }
        return ranks
    }
}

#if canImport(Glibc)
import Glibc
#endif
