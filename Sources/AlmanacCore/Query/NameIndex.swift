import CGlibc
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every record's names, folded (no case, no diacritics) into two contiguous byte buffers:
/// the primary name, and the other names search looks at. Searching is then a byte scan
/// (memmem) instead of millions of String operations.
public struct NameIndex: Sendable {
    /// Folded primary names, each followed by a NUL.
    let primary: [UInt8]
    /// Start of each row's primary name in `primary`.
    let primaryStarts: [Int]
    /// Folded other names, separated by 0x01 and ending each row with a NUL.
    let secondary: [UInt8]
    let secondaryStarts: [Int]
    /// Rows ordered by folded primary name, for prefix completion.
    let sortedRows: [Int]
    /// Rows by trigram, for words of three bytes or more.
    let trigrams: TrigramIndex

    public var count: Int { primaryStarts.count }

    /// The index of `dataset`, built once and cached (the catalog builds it after each load).
    public static func of(_ dataset: Dataset) -> NameIndex {
        (try? of(dataset, cancellation: .never))!
    }

    /// The index, waiting for it interruptibly if it is still being built.
    public static func of(_ dataset: Dataset, cancellation: Cancellation) throws(CancelledError) -> NameIndex {
        try dataset.cached("name-index", cancellation: cancellation) { NameIndex(building: dataset, cancellation: $0) }
    }

    /// The index if it is built, or cheap to build now (a small dataset); nil while a large
    /// one is still being built in the background (TAB then does not wait).
    public static func ifReady(_ dataset: Dataset) -> NameIndex? {
        dataset.isCached("name-index") || dataset.count <= Dataset.smallEnoughToWaitFor ? of(dataset) : nil
    }

    init?(building dataset: Dataset, cancellation: Cancellation = .never) {
        let document = dataset.document
        var primary: [UInt8] = []
        var primaryStarts: [Int] = []
        var secondary: [UInt8] = []
        var secondaryStarts: [Int] = []
        primary.reserveCapacity(dataset.count * 32)
        primaryStarts.reserveCapacity(dataset.count)
        secondaryStarts.reserveCapacity(dataset.count)
        let nameKey = document.key(dataset.layout.nameField)
        let others = dataset.model.otherNameFields.map { dataset.compile(FieldPath($0)) }
        // Equal short strings share a node, and fold equally: fold each such node once.
        var folded: [UInt64: Range<Int>] = [:]
        var scratch: [UInt8] = []
        func appendFolded(_ node: Int, to buffer: inout [UInt8], separator: UInt8) {
            let word = document.nodes[node]
            if let known = folded[word] {
                buffer.append(contentsOf: scratch[known])
            } else {
                let start = scratch.count
                document.arena.withUnsafeBufferPointer { arena in
                    Folding.appendFolded(utf8: UnsafeBufferPointer(rebasing: arena[document.textRange(at: node)]), to: &scratch)
                }
                // Separators cannot occur inside a name.
                for index in start..<scratch.count where scratch[index] <= 1 { scratch[index] = 0x20 }
                folded[word] = start..<scratch.count
                buffer.append(contentsOf: scratch[start..<scratch.count])
            }
            buffer.append(separator)
        }
        for row in 0..<dataset.count {
            if row & 0xFFF == 0, cancellation.isCancelled { return nil }
            primaryStarts.append(primary.count)
            if let node = document.member(nameKey, of: dataset.records[row]), document.kind(at: node) == .string {
                appendFolded(node, to: &primary, separator: 0)
            } else {
                primary.append(contentsOf: Folding.fold(dataset.name(of: row)).utf8)
                primary.append(0)
            }
            secondaryStarts.append(secondary.count)
            for path in others {
                dataset.forEachValue(of: path, row: row) { value in
                    if case let .node(node) = value, document.kind(at: node) == .string {
                        appendFolded(node, to: &secondary, separator: 1)
                    } else {
                        secondary.append(contentsOf: Folding.fold(dataset.text(of: value)).utf8.map { $0 <= 1 ? 0x20 : $0 })
                        secondary.append(1)
                    }
                }
            }
            secondary.append(0)
        }
        self.primary = primary
        self.primaryStarts = primaryStarts
        self.secondary = secondary
        self.secondaryStarts = secondaryStarts
        self.sortedRows = primary.withUnsafeBufferPointer { bytes in
            (0..<primaryStarts.count).sorted { a, b in
                Self.compare(bytes, primaryStarts[a], primaryStarts[b]) < 0
            }
        }
        guard let trigrams = TrigramIndex(rows: primaryStarts.count, texts: [(primary, primaryStarts), (secondary, secondaryStarts)],
                                          cancellation: cancellation) else { return nil }
        self.trigrams = trigrams
    }

    private static func compare(_ bytes: UnsafeBufferPointer<UInt8>, _ a: Int, _ b: Int) -> Int32 {
        strcmp(UnsafeRawPointer(bytes.baseAddress! + a).assumingMemoryBound(to: CChar.self),
               UnsafeRawPointer(bytes.baseAddress! + b).assumingMemoryBound(to: CChar.self))
    }

    /// How well a row matched, best first.
    public enum Rank: Int, Sendable, Comparable {
        case exact = 0, prefix, contains, otherName
        public static func < (lhs: Rank, rhs: Rank) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Rows whose names contain every word of `text` (folded), with their rank. Row order.
    public func search(_ text: String, cancellation: Cancellation = .never) throws(CancelledError) -> [(row: Int, rank: Rank)] {
        let phrase = Array(Folding.fold(text).utf8)
        let words = Folding.fold(text).split(whereSeparator: { $0.isWhitespace }).map { Array($0.utf8) }
        guard let longest = words.max(by: { $0.count < $1.count }), !longest.isEmpty else { return [] }
        // Candidates: rows under the longest word's rarest trigrams, or, for a short word, rows
        // where it occurs anywhere; then every word is checked in the row's own names.
        let candidates: [Int]
        if longest.count >= 3 {
            candidates = trigrams.candidates(for: longest)
        } else {
            var found = Set<Int>()
            try scan(primary, starts: primaryStarts, for: longest, into: &found, cancellation: cancellation)
            try scan(secondary, starts: secondaryStarts, for: longest, into: &found, cancellation: cancellation)
            candidates = found.sorted()
        }
        var results: [(row: Int, rank: Rank)] = []
        results.reserveCapacity(candidates.count)
        var cancelled = false
        // The words, one after another, so one pointer serves them all.
        let joinedWords = words.flatMap { $0 }
        var wordRanges: [Range<Int>] = []
        for word in words { wordRanges.append((wordRanges.last?.upperBound ?? 0)..<((wordRanges.last?.upperBound ?? 0) + word.count)) }
        primary.withUnsafeBufferPointer { primary in
            secondary.withUnsafeBufferPointer { secondary in
                primaryStarts.withUnsafeBufferPointer { primaryStarts in
                    secondaryStarts.withUnsafeBufferPointer { secondaryStarts in
                        phrase.withUnsafeBufferPointer { phrase in
                          joinedWords.withUnsafeBufferPointer { joined in
                            let needles = wordRanges.map { UnsafeBufferPointer(rebasing: joined[$0]) }
                            for (position, row) in candidates.enumerated() {
                                if position & 0xFFF == 0, cancellation.isCancelled { cancelled = true; return }
                                let name = Self.slice(primary, primaryStarts, row)
                                if needles.allSatisfy({ ByteSearch.contains(name, $0) }) {
                                    let rank: Rank
                                    if name.count == phrase.count, memcmp(name.baseAddress!, phrase.baseAddress!, phrase.count) == 0 {
                                        rank = .exact
                                    } else if name.count >= phrase.count, memcmp(name.baseAddress!, phrase.baseAddress!, phrase.count) == 0 {
                                        rank = .prefix
                                    } else {
                                        rank = .contains
                                    }
                                    results.append((row, rank))
                                    continue
                                }
                                let others = Self.slice(secondary, secondaryStarts, row)
                                if needles.allSatisfy({ ByteSearch.contains(name, $0) || ByteSearch.contains(others, $0) }) {
                                    results.append((row, .otherName))
                                }
                            }
                          }
                        }
                    }
                }
            }
        }
        if cancelled { throw CancelledError() }
        return results
    }

    /// Rows whose primary name starts with `prefix` (folded), in name order.
    public func rows(withNamePrefix prefix: String, limit: Int = .max) -> [Int] {
        let wanted = Array(Folding.fold(prefix).utf8)
        return primary.withUnsafeBufferPointer { bytes in
            // Binary search for the first name not below the prefix.
            var low = 0
            var high = sortedRows.count
            while low < high {
                let middle = (low + high) / 2
                if Self.precedes(bytes, primaryStarts[sortedRows[middle]], wanted) { low = middle + 1 } else { high = middle }
            }
            var rows: [Int] = []
            var index = low
            while index < sortedRows.count, rows.count < limit {
                let row = sortedRows[index]
                guard Self.hasPrefix(bytes, primaryStarts[row], wanted) else { break }
                rows.append(row)
                index += 1
            }
            return rows
        }
    }

    private static func precedes(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ prefix: [UInt8]) -> Bool {
        var index = 0
        while index < prefix.count {
            let byte = bytes[start + index]
            if byte != prefix[index] { return byte < prefix[index] }
            index += 1
        }
        return false
    }

    private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ prefix: [UInt8]) -> Bool {
        for index in 0..<prefix.count where bytes[start + index] != prefix[index] { return false }
        return true
    }

    /// A row's text in one of the buffers, without its terminating NUL.
    @inline(__always)
    private static func slice(_ buffer: UnsafeBufferPointer<UInt8>, _ starts: UnsafeBufferPointer<Int>, _ row: Int) -> UnsafeBufferPointer<UInt8> {
        let start = starts[row]
        let end = row + 1 < starts.count ? starts[row + 1] - 1 : buffer.count - 1
        return UnsafeBufferPointer(start: buffer.baseAddress! + start, count: end - start)
    }

    /// Adds every row whose text in `buffer` contains `needle`.
    private func scan(_ buffer: [UInt8], starts: [Int], for needle: [UInt8], into rows: inout Set<Int>,
                      cancellation: Cancellation) throws(CancelledError) {
        guard !buffer.isEmpty else { return }
        var found: [Int] = []
        var cancelled = false
        buffer.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { pin in
                var offset = 0
                var steps = 0
                while offset < hay.count {
                    guard let hit = almanac_memmem(hay.baseAddress! + offset, hay.count - offset, pin.baseAddress, pin.count) else { break }
                    let position = hay.baseAddress!.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    // The row whose start is the last one at or before the hit.
                    var low = 0
                    var high = starts.count
                    while low < high {
                        let middle = (low + high) / 2
                        if starts[middle] <= position { low = middle + 1 } else { high = middle }
                    }
                    let row = low - 1
                    found.append(row)
                    // Continue after this row: one hit per row is enough.
                    offset = row + 1 < starts.count ? starts[row + 1] : hay.count
                    steps += 1
                    if steps & 0x3FF == 0, cancellation.isCancelled { cancelled = true; return }
                }
            }
        }
        if cancelled { throw CancelledError() }
        rows.formUnion(found)
    }
}
