import CGlibc
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Every record's names, folded (no case, no diacritics) into one contiguous byte buffer, row
/// after row: the primary name, a NUL, the other names search looks at (each ended by 0x01),
/// and 0x02. Searching is then byte work (memchr, memcmp) instead of millions of String
/// operations, and checking a candidate row touches one place in memory.
public struct NameIndex: Sendable {
    /// All rows' names, as described above.
    let text: [UInt8]
    /// Where each row starts in `text`; it runs to the next row's start.
    let starts: [Int]
    /// Where each row's name ends (its NUL), so checking a row needs no search for it.
    let nameEnds: [Int]
    /// Rows ordered by folded primary name, for prefix completion.
    let sortedRows: [Int]
    /// Rows by trigram, for words of three bytes or more.
    let trigrams: TrigramIndex

    public var count: Int { starts.count }

    static let nameEnd: UInt8 = 0x00
    static let otherNameEnd: UInt8 = 0x01
    static let rowEnd: UInt8 = 0x02

    /// The index of `dataset`, built once and cached (the catalog builds it after each load).
    public static func of(_ dataset: Dataset) -> NameIndex {
        (try? of(dataset, cancellation: .never))!
    }

    /// The index, waiting for it interruptibly if it is still being built.
    public static func of(_ dataset: Dataset, cancellation: Cancellation) throws(CancelledError) -> NameIndex {
        try dataset.cached(.nameIndex, cancellation: cancellation) { NameIndex(building: dataset, cancellation: $0) }
    }

    /// The index if it is built, or cheap to build now (a small dataset); nil while a large
    /// one is still being built in the background (TAB then does not wait).
    public static func ifReady(_ dataset: Dataset) -> NameIndex? {
        dataset.isCached(.nameIndex) || dataset.count <= Dataset.smallEnoughToWaitFor ? of(dataset) : nil
    }

    /// Makes sure the index is being built, on a thread of its own, without waiting for it.
    public static func buildInBackground(_ dataset: Dataset) {
        _ = dataset.cached(CacheKey<Bool>("name-index-started")) {
            BackgroundThread.start(name: "index \(dataset.name)") { _ = NameIndex.of(dataset) }
            return true
        }
    }

    init?(building dataset: Dataset, cancellation: Cancellation = .never) {
        let document = dataset.document
        var text: [UInt8] = []
        var starts: [Int] = []
        var nameEnds: [Int] = []
        nameEnds.reserveCapacity(dataset.count)
        text.reserveCapacity(dataset.count * 48)
        starts.reserveCapacity(dataset.count)
        let nameKey = document.key(dataset.layout.nameField)
        let others = dataset.layout.otherNameFields.map { dataset.compile(FieldPath($0)) }
        // Equal short strings share a node, and fold equally: fold each such node once.
        var folded: [UInt64: Range<Int>] = [:]
        var scratch: [UInt8] = []
        func append(node: Int, ending: UInt8) {
            let word = document.node(node)
            if let known = folded[word] {
                text.append(contentsOf: scratch[known])
            } else {
                let start = scratch.count
                document.arena.withUnsafeBufferPointer { arena in
                    Folding.appendFolded(utf8: UnsafeBufferPointer(rebasing: arena[document.textRange(at: node)]), to: &scratch)
                }
                // The separators cannot occur inside a name.
                for index in start..<scratch.count where scratch[index] <= Self.rowEnd { scratch[index] = 0x20 }
                if document.textRange(at: node).count <= JSONDocumentBuilder.internLimit { folded[word] = start..<scratch.count }
                text.append(contentsOf: scratch[start...])
                if document.textRange(at: node).count > JSONDocumentBuilder.internLimit { scratch.removeSubrange(start...) }
            }
            text.append(ending)
        }
        func append(text value: String, ending: UInt8) {
            text.append(contentsOf: Folding.fold(value).utf8.map { $0 <= Self.rowEnd ? 0x20 : $0 })
            text.append(ending)
        }
        for row in 0..<dataset.count {
            if row & 0xFFF == 0, cancellation.isCancelled { return nil }
            starts.append(text.count)
            if let node = document.member(nameKey, of: dataset.records[row]), document.kind(at: node) == .string {
                append(node: node, ending: Self.nameEnd)
            } else {
                append(text: dataset.name(of: row), ending: Self.nameEnd)
            }
            nameEnds.append(text.count - 1)
            for path in others {
                dataset.forEachValue(of: path, row: row) { value in
                    if case let .node(node) = value, document.kind(at: node) == .string {
                        append(node: node, ending: Self.otherNameEnd)
                    } else {
                        append(text: dataset.text(of: value), ending: Self.otherNameEnd)
                    }
                }
            }
            text.append(Self.rowEnd)
        }
        self.text = text
        self.starts = starts
        self.nameEnds = nameEnds
        // The two halves of the work, the rows in name order (for completion) and the trigram
        // lists (for search), need only the text: they run side by side, on both cores.
        let (allText, allStarts) = (text, starts)
        nonisolated(unsafe) var sortedRows: [Int] = []
        nonisolated(unsafe) var trigrams: TrigramIndex?
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            if part == 0 {
                // strcmp stops at the NUL after each name.
                sortedRows = allText.withUnsafeBufferPointer { bytes in
                    (0..<allStarts.count).sorted { a, b in
                        strcmp(UnsafeRawPointer(bytes.baseAddress! + allStarts[a]).assumingMemoryBound(to: CChar.self),
                               UnsafeRawPointer(bytes.baseAddress! + allStarts[b]).assumingMemoryBound(to: CChar.self)) < 0
                    }
                }
            } else {
                trigrams = TrigramIndex(rows: allStarts.count, texts: [(allText, allStarts)], cancellation: cancellation)
            }
        }
        guard let trigrams else { return nil }
        self.sortedRows = sortedRows
        self.trigrams = trigrams
    }

    /// How well a row matched, best first.
    public enum Rank: Int, Sendable, Comparable {
        case exact = 0, prefix, contains, otherName
        public static func < (lhs: Rank, rhs: Rank) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The folded words of a search, and the whole phrase.
    struct Query {
        let phrase: [UInt8]
        let words: [[UInt8]]

        init?(_ text: String) {
            let folded = Folding.fold(text)
            phrase = Array(folded.utf8)
            words = folded.split(whereSeparator: { $0.isWhitespace }).map { Array($0.utf8) }
            if words.isEmpty { return nil }
        }

        var longest: [UInt8] { words.max { $0.count < $1.count }! }
    }

    /// Rows whose names contain every word of `text` (folded), with their rank. Row order.
    public func search(_ text: String, cancellation: Cancellation = .never) throws(CancelledError) -> [(row: Int, rank: Rank)] {
        guard let query = Query(text) else { return [] }
        let longest = query.longest
        // Candidates: rows under the rarest trigrams of the longest word, or, for a short word, rows
        // where it occurs anywhere; then every word is checked in the row's own names.
        let candidates: [Int]
        if let indexed = trigrams.candidates(for: longest) { candidates = indexed } else {
            candidates = try scan(for: longest, cancellation: cancellation)
        }
        var results: [(row: Int, rank: Rank)] = []
        results.reserveCapacity(candidates.count)
        var cancelled = false
        self.text.withUnsafeBufferPointer { text in
            starts.withUnsafeBufferPointer { starts in
                // The candidates lie scattered over the whole text: ask for a row's names a few
                // candidates ahead, and for its offsets further ahead, so checks rarely wait.
                // (Where the name ends is found in the row, already in cache, rather than read
                // from `nameEnds`, another miss per candidate.)
                var checked = 0
                Self.match(query, rows: candidates) { row, check in
                    if checked + 16 < candidates.count { almanac_prefetch(starts.baseAddress! + candidates[checked + 16]) }
                    if checked + 6 < candidates.count { almanac_prefetch(text.baseAddress! + starts[candidates[checked + 6]]) }
                    checked += 1
                    let end = row + 1 < starts.count ? starts[row + 1] : text.count
                    check(UnsafeBufferPointer(rebasing: text[starts[row]..<end]))
                } report: { position, row, rank in
                    if position & 0xFFF == 0, cancellation.isCancelled { cancelled = true; return false }
                    if let rank { results.append((row, rank)) }
                    return true
                }
            }
        }
        if cancelled { throw CancelledError() }
        return results
    }

    /// Checks `query` against each row's names (`names(row)`: name, NUL, other names) and
    /// reports each row's rank, or nil when it does not match; stops when `report` says so.
    static func match(_ query: Query, rows: some Sequence<Int>,
                      names: (Int, (UnsafeBufferPointer<UInt8>) -> Void) -> Void,
                      report: (_ position: Int, _ row: Int, _ rank: Rank?) -> Bool) {
        let joined = query.words.flatMap { $0 }
        var ranges: [Range<Int>] = []
        for word in query.words { ranges.append((ranges.last?.upperBound ?? 0)..<((ranges.last?.upperBound ?? 0) + word.count)) }
        query.phrase.withUnsafeBufferPointer { phrase in
            joined.withUnsafeBufferPointer { joined in
                let needles = ranges.map { UnsafeBufferPointer(rebasing: joined[$0]) }
                // One word without separator bytes (the usual search): one pass over the row,
                // whose first occurrence says whether the name holds it or only another name.
                let single = needles.count == 1 && !needles[0].contains { $0 <= rowEnd } ? needles[0] : nil
                // The phrase at the start of the name: exact when the name ends right after it.
                func rankInName(_ all: UnsafeBufferPointer<UInt8>) -> Rank {
                    guard all.count >= phrase.count, phrase.count == 0 || memcmp(all.baseAddress!, phrase.baseAddress!, phrase.count) == 0
                    else { return .contains }
                    return phrase.count == all.count || all[phrase.count] == nameEnd ? .exact : .prefix
                }
                for (position, row) in rows.enumerated() {
                    var rank: Rank?
                    names(row) { all in
                        guard let base = all.baseAddress else { return }
                        if let single {
                            guard let found = ByteSearch.firstIndex(of: single, in: all) else { return }
                            // The name runs to the row's first NUL: one before the word puts
                            // it in another name. (The phrase holds no NUL, so a name that
                            // starts with it is at least as long.)
                            rank = found > 0 && memchr(base, 0, found) != nil ? .otherName : rankInName(all)
                            return
                        }
                        let nameLength = memchr(base, 0, all.count).map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? all.count
                        let name = UnsafeBufferPointer(rebasing: all[..<nameLength])
                        if needles.allSatisfy({ ByteSearch.contains(name, $0) }) {
                            rank = rankInName(all)
                        } else {
                            let others = UnsafeBufferPointer(rebasing: all[min(all.count, nameLength + 1)...])
                            if needles.allSatisfy({ ByteSearch.contains(name, $0) || ByteSearch.contains(others, $0) }) { rank = .otherName }
                        }
                    }
                    if !report(position, row, rank) { return }
                }
            }
        }
    }

    /// Search without an index, folding each record's names as it goes: what search does while
    /// a large dataset's index is still being built, so it never waits for that.
    public static func scanWithoutIndex(_ dataset: Dataset, _ text: String, cancellation: Cancellation) throws(CancelledError) -> [(row: Int, rank: Rank)] {
        guard let query = Query(text) else { return [] }
        let document = dataset.document
        let nameKey = document.key(dataset.layout.nameField)
        let others = dataset.layout.otherNameFields.map { dataset.compile(FieldPath($0)) }
        var buffer: [UInt8] = []
        func append(_ value: FieldValue, ending: UInt8) {
            if case let .node(node) = value, document.kind(at: node) == .string {
                document.arena.withUnsafeBufferPointer { arena in
                    Folding.appendFolded(utf8: UnsafeBufferPointer(rebasing: arena[document.textRange(at: node)]), to: &buffer)
                }
            } else {
                buffer.append(contentsOf: Folding.fold(dataset.text(of: value)).utf8)
            }
            buffer.append(ending)
        }
        var results: [(row: Int, rank: Rank)] = []
        var cancelled = false
        match(query, rows: 0..<dataset.count) { row, check in
            buffer.removeAll(keepingCapacity: true)
            if let node = document.member(nameKey, of: dataset.records[row]) { append(.node(node), ending: 0) } else {
                append(.text(dataset.name(of: row)), ending: 0)
            }
            for path in others { dataset.forEachValue(of: path, row: row) { append($0, ending: otherNameEnd) } }
            buffer.withUnsafeBufferPointer { check($0) }
        } report: { position, row, rank in
            if position & 0x3FF == 0, cancellation.isCancelled { cancelled = true; return false }
            if let rank { results.append((row, rank)) }
            return true
        }
        if cancelled { throw CancelledError() }
        return results
    }

    /// Rows with another name (not the primary one) equal to `text`, ignoring case and
    /// diacritics, in row order: `show "Oscar Wilde"` in a file of quotes.
    public func rows(withOtherName text: String, cancellation: Cancellation = .never) throws(CancelledError) -> [Int] {
        guard let query = Query(text) else { return [] }
        let phrase = query.phrase
        return try search(text, cancellation: cancellation).map(\.row).filter { row in
            let end = row + 1 < starts.count ? starts[row + 1] : self.text.count
            var position = nameEnds[row] + 1
            while position < end {
                var next = position
                while next < end, self.text[next] != Self.otherNameEnd, self.text[next] != Self.rowEnd { next += 1 }
                if next - position == phrase.count, self.text[position..<next].elementsEqual(phrase) { return true }
                position = next + 1
            }
            return false
        }
    }

    /// Rows whose primary name starts with `prefix` (folded), in name order.
    public func rows(withNamePrefix prefix: String, limit: Int = .max) -> [Int] {
        let wanted = Array(Folding.fold(prefix).utf8)
        return text.withUnsafeBufferPointer { bytes in
            // Binary search for the first name not below the prefix.
            var low = 0
            var high = sortedRows.count
            while low < high {
                let middle = (low + high) / 2
                if Self.precedes(bytes, starts[sortedRows[middle]], wanted) { low = middle + 1 } else { high = middle }
            }
            var rows: [Int] = []
            var index = low
            while index < sortedRows.count, rows.count < limit {
                let row = sortedRows[index]
                guard Self.hasPrefix(bytes, starts[row], wanted) else { break }
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

    /// Rows whose names contain `needle` anywhere (for words too short for trigrams).
    private func scan(for needle: [UInt8], cancellation: Cancellation) throws(CancelledError) -> [Int] {
        var found: [Int] = []
        var cancelled = false
        text.withUnsafeBufferPointer { hay in
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
        return found
    }
}

extension CacheKey where Value == NameIndex {
    /// The name index (`NameIndex.of`).
    static var nameIndex: CacheKey { CacheKey("name-index") }
}
