#if canImport(Glibc)
import Glibc
#endif

/// `sort FIELD [asc|desc]` and `group FIELD[, FIELD…]`.
public enum Ordering {
    // MARK: - sort

    /// Sorts by the field's first value: numbers numerically (before text), text by its folded
    /// form (no case, no diacritics); records without the field, or with an absent value
    /// (`n/a`, `unknown`, …: see `ValueText`), come last either way. Stable.
    ///
    /// Keys are folded once into one byte buffer, with their first eight bytes kept as an
    /// integer, so most comparisons are one integer comparison.
    public static func sort(_ results: ResultSet, by field: String, descending: Bool, cancellation: Cancellation = .never) throws -> ResultSet {
        let catalogs = try requireField(field, in: results.datasets, cancellation: cancellation)
        var keys = SortKeys(capacity: results.count)
        let paths = results.datasets.map { $0.compile(FieldPath(field)) }
        // A key spelt two ways (`first_name`, `first-name`) has no one column.
        let columns = zip(catalogs, paths).map { $1.hasTwinSpellings ? nil : $0.column(field) }
        for (position, item) in results.items.enumerated() {
            if position & 0x3FFF == 0 { try cancellation.checkpoint() }
            if let column = columns[item.dataset] {
                keys.append(column: column, row: item.row, document: results.datasets[item.dataset].document, datasetIndex: item.dataset)
            } else {
                keys.append(first: results.datasets[item.dataset], path: paths[item.dataset], row: item.row, datasetIndex: item.dataset)
            }
        }
        var order = Array(0..<results.count)
        var comparisons = 0
        try keys.withPointers { keys in
            try order.sort { a, b in
                comparisons += 1
                if comparisons & 0xFFFF == 0 { try cancellation.checkpoint() }
                let ordered = keys.compare(a, b)
                if ordered == 0 { return a < b }
                // Missing values stay last in both directions.
                if keys.kinds[a] == SortKeys.missing || keys.kinds[b] == SortKeys.missing { return ordered < 0 }
                return descending ? ordered > 0 : ordered < 0
            }
        }
        return results.with(order.map { results.items[$0] })
    }

    /// The sort key of every item, in parallel arrays.
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
        /// Folded keys of recent string nodes (equal short strings share a node): a small
        /// direct-mapped table, as most titles are distinct.
        private var recentWords = [UInt64](repeating: 0, count: 4096)
        private var recentKeys = [(start: Int, length: Int)](repeating: (0, -1), count: 4096)

        /// The keys as raw buffers, for the comparator (no reference counting per comparison).
        struct Pointers {
            let kinds: UnsafeBufferPointer<UInt8>
            let numbers: UnsafeBufferPointer<Double>
            let prefixes: UnsafeBufferPointer<UInt64>
            let secondPrefixes: UnsafeBufferPointer<UInt64>
            let starts: UnsafeBufferPointer<Int>
            let lengths: UnsafeBufferPointer<Int>
            let text: UnsafeBufferPointer<UInt8>

            /// Negative, zero or positive, like memcmp.
            @inline(__always)
            func compare(_ a: Int, _ b: Int) -> Int {
                if kinds[a] != kinds[b] { return Int(kinds[a]) - Int(kinds[b]) }
                switch kinds[a] {
                case SortKeys.number:
                    return numbers[a] < numbers[b] ? -1 : (numbers[a] > numbers[b] ? 1 : 0)
                case SortKeys.text:
                    if prefixes[a] != prefixes[b] { return prefixes[a] < prefixes[b] ? -1 : 1 }
                    if secondPrefixes[a] != secondPrefixes[b] { return secondPrefixes[a] < secondPrefixes[b] ? -1 : 1 }
                    let common = min(lengths[a], lengths[b])
                    if common > 16 {
                        let result = memcmp(text.baseAddress! + starts[a] + 16, text.baseAddress! + starts[b] + 16, common - 16)
                        if result != 0 { return Int(result) }
                    }
                    return lengths[a] - lengths[b]
                default:
                    return 0
                }
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
                                        try body(Pointers(kinds: kinds, numbers: numbers, prefixes: prefixes, secondPrefixes: secondPrefixes,
                                                          starts: starts, lengths: lengths, text: text))
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }

        init(capacity: Int) {
            kinds.reserveCapacity(capacity)
            numbers.reserveCapacity(capacity)
            prefixes.reserveCapacity(capacity)
            secondPrefixes.reserveCapacity(capacity)
            starts.reserveCapacity(capacity)
            lengths.reserveCapacity(capacity)
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
                case .number: appendNumber(document.number(at: node))
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
            let slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 52)
            if recentWords[slot] == key, recentKeys[slot].length >= 0 {
                appendText(start: recentKeys[slot].start, length: recentKeys[slot].length)
                return
            }
            if recentWords[slot] == key, recentKeys[slot].length == Self.absentLength {
                appendMissing()
                return
            }
            let length = Int(word & ((1 << JSONDocument.lengthBits) - 1))
            let offset = Int((word >> JSONDocument.lengthBits) & JSONDocument.offsetMask)
            let start = text.count
            document.arena.withUnsafeBufferPointer { arena in
                Folding.appendFolded(utf8: UnsafeBufferPointer(rebasing: arena[offset..<(offset + length)]), to: &text)
            }
            let folded = text.count - start
            // `n/a`, `unknown`, `none`, "" read as no value (ValueText): they sort with the missing.
            if folded <= 12, ValueText.isAbsent(String(decoding: text[start...], as: UTF8.self)) {
                text.removeSubrange(start...)
                recentWords[slot] = key
                recentKeys[slot] = (0, Self.absentLength)
                appendMissing()
                return
            }
            if length <= JSONDocumentBuilder.internLimit {
                recentWords[slot] = key
                recentKeys[slot] = (start, folded)
            }
            appendText(start: start, length: folded)
        }

        /// Marks a remembered string that is absent.
        private static let absentLength = -2

        private mutating func appendFolded(_ string: String) {
            guard !ValueText.isAbsent(string) else { return appendMissing() }
            var string = string
            let start = text.count
            string.withUTF8 { Folding.appendFolded(utf8: $0, to: &text) }
            appendText(start: start, length: text.count - start)
        }

        private mutating func appendMissing() {
            kinds.append(Self.missing)
            numbers.append(0)
            prefixes.append(0)
            secondPrefixes.append(0)
            starts.append(0)
            lengths.append(0)
        }

        private mutating func appendNumber(_ number: Double) {
            kinds.append(number.isNaN ? Self.missing : Self.number)
            numbers.append(number)
            prefixes.append(0)
            secondPrefixes.append(0)
            starts.append(0)
            lengths.append(0)
        }

        private mutating func appendText(start: Int, length: Int) {
            var prefix: UInt64 = 0
            var second: UInt64 = 0
            for offset in 0..<16 {
                let byte = offset < length ? UInt64(text[start + offset]) : 0
                if offset < 8 { prefix = prefix << 8 | byte } else { second = second << 8 | byte }
            }
            kinds.append(Self.text)
            numbers.append(0)
            prefixes.append(prefix)
            secondPrefixes.append(second)
            starts.append(start)
            lengths.append(length)
        }

    }

    // MARK: - group

    /// A record with several list fields counts in every combination of their values; past
    /// this many for one record, grouping stops with an error rather than run for minutes.
    public static let maximumCombinations = 100_000

    /// One group: the values of the grouping fields and how many records have them.
    public struct Group: Sendable, Equatable {
        /// Each field's value as written in the source; "" when missing or absent.
        public var values: [String]
        public var count: Int
        /// Whether each value is a number.
        public var numbers: [Bool]

        public init(values: [String], count: Int, numbers: [Bool]? = nil) {
            self.values = values
            self.count = count
            self.numbers = numbers ?? values.map { _ in false }
        }

        /// The value of `fields[index]` as people read it (`ValueText`): numbers grouped in
        /// thousands unless the field holds years or identifiers.
        public func text(at index: Int, field: String) -> String {
            numbers[index] ? ValueText.number(values[index], field: field) : values[index]
        }
    }

    /// Counts records per combination of the fields' values, largest first; groups of equal
    /// size keep the order in which their first record came. A list field counts each of its
    /// values. Numbers are named as written in the source (`Group.text` reads them for people);
    /// a missing or absent value (`null`, `""`, `n/a`, `unknown`, `none`: see `ValueText`)
    /// groups as "".
    ///
    /// Values are numbered once (equal short strings share a node, so a node is a value) and
    /// groups are counted by their numbers; text is made only once per distinct value.
    public static func group(_ results: ResultSet, by fields: [String], cancellation: Cancellation = .never) throws -> Grouping {
        var catalogs: [FieldCatalog] = []
        for field in fields { catalogs = try requireField(field, in: results.datasets, cancellation: cancellation) }
        let paths = results.datasets.map { dataset in fields.map { dataset.compile(FieldPath($0)) } }
        let columns = zip(catalogs, paths).map { catalog, paths in
            zip(fields, paths).map { $1.hasTwinSpellings ? nil : catalog.column($0) }
        }
        var values = ValueNumbering()
        var counter = GroupCounter(expected: results.count / 2)
        // The common case: one dataset, one or two fields with columns. Number each column's
        // values once, then count packed pairs of numbers, with no allocation per record.
        if results.datasets.count == 1, fields.count <= 2, columns[0].allSatisfy({ $0 != nil }) {
            let dataset = results.datasets[0]
            let numbered = columns[0].enumerated().map { field, column in
                values.numbers(of: column!, in: dataset, path: paths[0][field], field: field)
            }
            try numbered[0].withUnsafeBufferPointer { first throws(CancelledError) in
                let second = numbered.count > 1 ? numbered[1] : []
                try second.withUnsafeBufferPointer { second throws(CancelledError) in
                    for (position, item) in results.items.enumerated() {
                        if position & 0xFFFF == 0 { try cancellation.checkpoint() }
                        let key = second.isEmpty ? UInt64(UInt32(bitPattern: first[item.row]))
                            : UInt64(UInt32(bitPattern: first[item.row])) << 32 | UInt64(UInt32(bitPattern: second[item.row]))
                        counter.add(packed: key, width: numbered.count)
                    }
                }
            }
            return try finish(counter, values, spans: false, cancellation: cancellation)
        }
        var combination: [Int32] = []
        for (position, item) in results.items.enumerated() {
            if position & 0x3FFF == 0 { try cancellation.checkpoint() }
            let dataset = results.datasets[item.dataset]
            combination.removeAll(keepingCapacity: true)
            // Fields with several values (lists), by position: each value makes its own group.
            var lists: [(index: Int, values: [Int32])] = []
            for (index, path) in paths[item.dataset].enumerated() {
                if let column = columns[item.dataset][index] {
                    combination.append(values.number(kind: column.kinds[item.row], word: column.words[item.row], in: dataset,
                                                     datasetIndex: item.dataset, path: path, row: item.row, field: index))
                    continue
                }
                switch dataset.scalar(of: path, row: item.row) {
                case .missing:
                    combination.append(values.empty)
                case let .node(node):
                    combination.append(values.number(for: .node(node), in: dataset, datasetIndex: item.dataset, path: path))
                case .several:
                    var found: [Int32] = []
                    dataset.forEachValue(of: path, row: item.row) { value in
                        let number = values.number(for: value, in: dataset, datasetIndex: item.dataset, path: path)
                        if !found.contains(number) { found.append(number) }
                    }
                    combination.append(found.first ?? values.empty)
                    if found.count > 1 { lists.append((index, found)) }
                }
            }
            if lists.isEmpty {
                counter.add(combination)
            } else {
                let combinations = lists.reduce(1.0) { $0 * Double($1.values.count) }
                guard combinations <= Double(Self.maximumCombinations) else {
                    throw QueryError.invalid("grouping by these list fields makes \(NumberFormat.grouped(combinations)) groups for one record "
                        + "(the limit is \(Self.maximumCombinations.grouped)) — group by fewer list fields")
                }
                var keys = [combination]
                for list in lists {
                    keys = keys.flatMap { key in list.values.map { value in
                        var key = key
                        key[list.index] = value
                        return key
                    } }
                }
                for key in keys { counter.add(key) }
            }
        }
        return try finish(counter, values, spans: results.spansDatasets, cancellation: cancellation)
    }

    /// The counted groups, largest first; equal sizes keep first-seen order.
    private static func finish(_ counter: GroupCounter, _ values: ValueNumbering, spans: Bool,
                               cancellation: Cancellation) throws -> Grouping {
        var order = Array(0..<counter.count)
        let counts = counter.counts
        order.sort { a, b in counts[a] != counts[b] ? counts[a] > counts[b] : a < b }
        try cancellation.checkpoint()
        let grouping = Grouping(counter: counter, values: values, order: order)
        guard spans else { return grouping }
        // Across datasets the same text came from different documents: one group per text.
        var merged: [[String]: Int] = [:]
        var mergedOrder: [(values: [String], numbers: [Bool])] = []
        for group in grouping {
            if merged[group.values] == nil { mergedOrder.append((group.values, group.numbers)) }
            merged[group.values, default: 0] += group.count
        }
        let groups = mergedOrder.map { Group(values: $0.values, count: merged[$0.values]!, numbers: $0.numbers) }.enumerated()
            .sorted { $0.element.count != $1.element.count ? $0.element.count > $1.element.count : $0.offset < $1.offset }
            .map(\.element)
        return Grouping(groups: groups)
    }

    /// The groups, largest first. Their texts are made when read, so counting a quarter of a
    /// million groups does not first allocate a quarter of a million arrays of strings.
    public struct Grouping: RandomAccessCollection, Sendable {
        private let storage: Storage

        private enum Storage: Sendable {
            case counted(counter: GroupCounter, values: ValueNumbering, order: [Int])
            case listed([Group])
        }

        init(counter: GroupCounter, values: ValueNumbering, order: [Int]) {
            storage = .counted(counter: counter, values: values, order: order)
        }

        init(groups: [Group]) { storage = .listed(groups) }

        public var startIndex: Int { 0 }
        public var endIndex: Int {
            switch storage {
            case let .counted(_, _, order): order.count
            case let .listed(groups): groups.count
            }
        }

        public subscript(position: Int) -> Group {
            switch storage {
            case let .counted(counter, values, order):
                let index = order[position]
                let key = counter.key(at: index)
                return Group(values: key.map { values.name(of: $0) }, count: counter.counts[index], numbers: key.map { values.isNumber($0) })
            case let .listed(groups):
                return groups[position]
            }
        }
    }

    /// Counts combinations of value numbers. One or two numbers (most groupings) pack into one
    /// 64-bit key in an open-addressing table; more go to a dictionary.
    struct GroupCounter: Sendable {
        private(set) var counts: [Int] = []
        private var packed: [UInt64] = []
        private var slots: [Int32]
        private var mask: Int
        private var wide: [[Int32]: Int] = [:]
        private var wideKeys: [[Int32]] = []
        private var width = -1

        init(expected: Int) {
            var size = 1024
            while size < expected * 2 { size <<= 1 }
            slots = [Int32](repeating: -1, count: size)
            mask = size - 1
        }

        var count: Int { counts.count }

        mutating func add(_ numbers: [Int32]) {
            guard numbers.count <= 2 else {
                width = numbers.count
                if let index = wide[numbers] { counts[index] += 1; return }
                wide[numbers] = counts.count
                wideKeys.append(numbers)
                counts.append(1)
                return
            }
            let key = numbers.count == 2
                ? UInt64(UInt32(bitPattern: numbers[0])) << 32 | UInt64(UInt32(bitPattern: numbers[1]))
                : UInt64(UInt32(bitPattern: numbers.first ?? 0))
            add(packed: key, width: numbers.count)
        }

        /// Adds one to the group of one or two value numbers packed into `key`.
        @inline(__always)
        mutating func add(packed key: UInt64, width: Int) {
            self.width = width
            var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 20) & mask
            while true {
                let index = slots[slot]
                if index < 0 {
                    slots[slot] = Int32(counts.count)
                    packed.append(key)
                    counts.append(1)
                    if counts.count * 2 > slots.count { grow() }
                    return
                }
                if packed[Int(index)] == key {
                    counts[Int(index)] += 1
                    return
                }
                slot = (slot + 1) & mask
            }
        }

        private mutating func grow() {
            slots = [Int32](repeating: -1, count: slots.count * 2)
            mask = slots.count - 1
            for (index, key) in packed.enumerated() {
                var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 20) & mask
                while slots[slot] >= 0 { slot = (slot + 1) & mask }
                slots[slot] = Int32(index)
            }
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
    /// `String` hashing, whose Unicode normalization would dominate the count.
    struct ValueNumbering: Sendable {
        /// Where each number's text is: in a document's arena, or in `texts`.
        private var arenaRanges: [(document: Int32, offset: Int, length: Int)] = [(-1, 0, 0)]
        private var texts: [String] = [""]
        private var documents: [JSONDocument?] = []
        let empty: Int32 = 0
        private var words = WordNumbers()
        private var bytes: [[UInt8]: Int32] = [[]: 0]

        /// The text of value number `number`.
        func name(of number: Int32) -> String {
            let range = arenaRanges[Int(number)]
            if range.document < 0 { return texts[Int(range.offset)] }
            return documents[Int(range.document)]!.arena.withUnsafeBufferPointer {
                String(decoding: UnsafeBufferPointer(rebasing: $0[range.offset..<(range.offset + range.length)]), as: UTF8.self)
            }
        }

        /// The number of every row's value in a column (the `field`th grouping field, at `path`).
        mutating func numbers(of column: FieldCatalog.Column, in dataset: Dataset, path: Dataset.CompiledPath, field: Int) -> [Int32] {
            var numbers = [Int32](repeating: empty, count: column.kinds.count)
            column.kinds.withUnsafeBufferPointer { kinds in
                column.words.withUnsafeBufferPointer { words in
                    for row in 0..<numbers.count {
                        numbers[row] = number(kind: kinds[row], word: words[row], in: dataset, datasetIndex: 0,
                                              path: path, row: row, field: field)
                    }
                }
            }
            return numbers
        }

        /// The number of a column's value: interned strings by their word, numbers by their
        /// bits (per field: the same number reads `1,500` as a count and `1500` as a year),
        /// named by their literal as written in the record at `row`.
        mutating func number(kind: UInt8, word: UInt64, in dataset: Dataset, datasetIndex: Int,
                             path: Dataset.CompiledPath, row: Int, field: Int) -> Int32 {
            switch kind {
            case FieldCatalog.Column.missing, JSONDocument.Kind.null.rawValue:
                return empty
            case JSONDocument.Kind.string.rawValue:
                return number(stringWord: word, in: dataset.document, datasetIndex: datasetIndex)
            case JSONDocument.Kind.number.rawValue:
                let key = NumberKey(dataset: datasetIndex, field: field, bits: word)
                if let known = numberNames[key] { return known }
                let literal: String
                if case let .node(node) = dataset.scalar(of: path, row: row), dataset.document.kind(at: node) == .number {
                    literal = dataset.document.string(at: node)
                } else {
                    literal = NumberFormat.plain(Double(bitPattern: word))
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

        mutating func number(for value: FieldValue, in dataset: Dataset, datasetIndex: Int, path: Dataset.CompiledPath) -> Int32 {
            switch value {
            case let .node(node):
                switch dataset.document.kind(at: node) {
                case .string: return number(stringWord: dataset.document.node(node), in: dataset.document, datasetIndex: datasetIndex)
                case .number: return number(forText: dataset.document.string(at: node), isNumber: true)
                case .null: return empty
                default: return number(forText: dataset.text(of: value))
                }
            case let .text(text): return ValueText.isAbsent(text) ? empty : number(forText: text)
            case let .number(number): return self.number(forText: NumberFormat.plain(number), isNumber: true)
            }
        }

        /// Whether value number `number` is a number (read with `ValueText.number`).
        func isNumber(_ number: Int32) -> Bool { numeric.contains(number) }

        struct NumberKey: Hashable {
            var dataset: Int
            var field: Int
            var bits: UInt64
        }
        private var numberNames: [NumberKey: Int32] = [:]

        /// Short strings are numbered by their node word (equal ones share it), everything else
        /// by its UTF-8 bytes — never by `String` hashing, whose Unicode normalization would
        /// dominate the count.
        private mutating func number(stringWord word: UInt64, in document: JSONDocument, datasetIndex: Int) -> Int32 {
            let length = Int(word & ((1 << JSONDocument.lengthBits) - 1))
            let offset = Int((word >> JSONDocument.lengthBits) & JSONDocument.offsetMask)
            guard length <= JSONDocumentBuilder.internLimit else {
                return number(forBytes: Array(document.arena[offset..<(offset + length)]))
            }
            let key = word ^ UInt64(datasetIndex) << 56
            if let known = words[key] { return known }
            if length <= 12 {
                let text = String(decoding: document.arena[offset..<(offset + length)], as: UTF8.self)
                if ValueText.isAbsent(text) {
                    words[key] = empty
                    return empty
                }
            }
            while documents.count <= datasetIndex { documents.append(nil) }
            documents[datasetIndex] = document
            let number = Int32(arenaRanges.count)
            arenaRanges.append((Int32(datasetIndex), offset, length))
            words[key] = number
            return number
        }

        private mutating func number(forText text: String, isNumber: Bool = false) -> Int32 {
            let number = number(forBytes: Array(text.utf8))
            if isNumber { numeric.insert(number) }
            return number
        }
        private var numeric: Set<Int32> = []

        private mutating func number(forBytes key: [UInt8]) -> Int32 {
            if let known = bytes[key] { return known }
            let number = Int32(arenaRanges.count)
            arenaRanges.append((-1, texts.count, 0))
            texts.append(String(decoding: key, as: UTF8.self))
            bytes[key] = number
            return number
        }
    }

    /// Open-addressing map from 64-bit words to numbers: faster than a Dictionary in the loop
    /// over every record.
    struct WordNumbers: Sendable {
        private var keys = [UInt64](repeating: 0, count: 1024)
        private var values = [Int32](repeating: -1, count: 1024)
        private var used = 0

        subscript(key: UInt64) -> Int32? {
            get {
                let mask = keys.count - 1
                var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 20) & mask
                while values[slot] >= 0 {
                    if keys[slot] == key { return values[slot] }
                    slot = (slot + 1) & mask
                }
                return nil
            }
            set {
                guard let newValue else { return }
                if (used + 1) * 2 > keys.count { grow() }
                insert(key, newValue)
                used += 1
            }
        }

        private mutating func insert(_ key: UInt64, _ value: Int32) {
            let mask = keys.count - 1
            var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 20) & mask
            while values[slot] >= 0, keys[slot] != key { slot = (slot + 1) & mask }
            keys[slot] = key
            values[slot] = value
        }

        private mutating func grow() {
            let oldKeys = keys
            let oldValues = values
            keys = [UInt64](repeating: 0, count: oldKeys.count * 2)
            values = [Int32](repeating: -1, count: oldKeys.count * 2)
            for index in oldKeys.indices where oldValues[index] >= 0 { insert(oldKeys[index], oldValues[index]) }
        }
    }

    // MARK: - Fields

    /// The datasets' field catalogs, after checking some dataset has the field.
    @discardableResult
    static func requireField(_ field: String, in datasets: [Dataset], cancellation: Cancellation) throws -> [FieldCatalog] {
        let catalogs = try datasets.map { dataset throws(CancelledError) in try dataset.fields(cancellation: cancellation) }
        guard catalogs.contains(where: { FieldLookup.field(field, in: $0) != nil }) else {
            let all = Set(catalogs.flatMap { FieldLookup.names(in: $0) })
            throw QueryError.unknownField(field, suggestion: Suggestion.closest(to: field, among: all.sorted()))
        }
        return catalogs
    }
}
