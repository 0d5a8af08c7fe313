#if canImport(Glibc)
import Glibc
#endif

/// Names like a typed word when none starts with it: for forgiving completion (`show
/// kingdom<TAB>`, `show norwya<TAB>`) and "did you mean" (`show Norwya`).
///
/// The best kind found is offered alone: names with a word that starts with the text
/// (`kingdom` in "United Kingdom of …"), found through the trigram index; else the names one
/// edit from it, else those two edits from it
/// (insertions, deletions, substitutions, swapped neighbours), found by one pass over the
/// folded names with a bounded edit distance that gives up on a name as soon as it cannot
/// come within the limit — a few comparisons per name, so the 400,000 names of a hundredfold
/// stations file take milliseconds.
extension NameIndex {
    public enum Likeness: Int, Sendable, Comparable {
        case containsWord = 0, oneEdit, twoEdits
        public static func < (lhs: Likeness, rhs: Likeness) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// How the text is compared with a name.
    public enum Comparison: Sendable {
        /// With the name's beginning (what completion wants: the name is still being typed).
        case beginning
        /// With the whole name (what "did you mean" wants).
        case whole
    }

    /// Edits allowed for a typed text of `length` characters: none below three (anything is
    /// two edits from a two-letter word), one up to four, two from five.
    public static func editLimit(forLength length: Int) -> Int {
        length < 3 ? 0 : length < 5 ? 1 : 2
    }

    /// Rows whose primary name is like `text` in the best way any is, in name order; at most `limit`.
    public func similarRows(to text: String, comparing comparison: Comparison = .beginning, limit: Int = 500,
                            cancellation: Cancellation = .never) -> [(row: Int, likeness: Likeness)] {
        let folded = Array(Folding.fold(text).utf8)
        guard folded.count >= 2, limit > 0 else { return [] }
        var results: [(row: Int, likeness: Likeness)] = []
        var seen = Set<Int>()
        for row in rowsWithWord(startingWith: folded, cancellation: cancellation) where results.count < limit {
            if seen.insert(row).inserted { results.append((row, .containsWord)) }
        }
        let typed = Self.scalars(of: folded[...])
        let edits = Self.editLimit(forLength: typed.count)
        guard edits > 0, results.isEmpty else { return results }
        var byDistance: [[Int]] = Array(repeating: [], count: edits + 1)
        self.text.withUnsafeBufferPointer { bytes in
            typed.withUnsafeBufferPointer { typed in
                var distance = BoundedDistance(typedCount: typed.count, limit: edits)
                for (position, row) in sortedRows.enumerated() {
                    if position & 0x3FFF == 0, cancellation.isCancelled { return }
                    let name = UnsafeBufferPointer(rebasing: bytes[starts[row]..<nameEnds[row]])
                    if let found = distance.measure(typed, name, comparison: comparison), found > 0 {
                        byDistance[found].append(row)
                    }
                }
            }
        }
        guard let best = byDistance.indices.dropFirst().first(where: { !byDistance[$0].isEmpty }) else { return [] }
        return byDistance[best].prefix(limit).map { ($0, best == 1 ? .oneEdit : .twoEdits) }
    }

    /// Rows (in name order) whose primary name has a word starting with `folded`.
    private func rowsWithWord(startingWith folded: [UInt8], cancellation: Cancellation) -> [Int] {
        // A phrase ("kingdom of") is looked up by its longest word, then checked whole.
        guard let query = Query(String(decoding: folded, as: UTF8.self)) else { return [] }
        let candidates = trigrams.candidates(for: query.longest) ?? Array(0..<count)
        var rows: [Int] = []
        text.withUnsafeBufferPointer { bytes in
            folded.withUnsafeBufferPointer { wanted in
                for (position, row) in candidates.enumerated() {
                    if position & 0x3FFF == 0, cancellation.isCancelled { return }
                    let name = UnsafeBufferPointer(rebasing: bytes[starts[row]..<nameEnds[row]])
                    guard name.count >= wanted.count else { continue }
                    for start in 0...(name.count - wanted.count) where start == 0 || Self.endsWord(name[start - 1]) {
                        if memcmp(name.baseAddress! + start, wanted.baseAddress!, wanted.count) == 0 {
                            rows.append(row)
                            break
                        }
                    }
                }
            }
            // In name order, as completion lists them (strcmp stops at each name's NUL).
            rows.sort { strcmp(UnsafeRawPointer(bytes.baseAddress! + starts[$0]).assumingMemoryBound(to: CChar.self),
                               UnsafeRawPointer(bytes.baseAddress! + starts[$1]).assumingMemoryBound(to: CChar.self)) < 0 }
        }
        return cancellation.isCancelled ? [] : rows
    }

    /// Whether a word can start after this byte: a space or punctuation, not a letter, a digit
    /// or part of a multi-byte character.
    private static func endsWord(_ byte: UInt8) -> Bool {
        guard byte < 0x80 else { return false }
        let scalar = Unicode.Scalar(byte)
        return !(scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
    }

    static func scalars(of bytes: ArraySlice<UInt8>) -> [UInt32] {
        String(decoding: bytes, as: UTF8.self).unicodeScalars.map(\.value)
    }
}

/// Optimal string alignment distance (Damerau–Levenshtein without repeated edits of one
/// place) between a typed text and a name, bounded: `measure` returns nil as soon as every
/// path is over the limit. Its rows are allocated once and reused for every name.
struct BoundedDistance {
    private let limit: Int
    private var name: [UInt32]
    private var previousPrevious: [Int]
    private var previous: [Int]
    private var current: [Int]

    init(typedCount: Int, limit: Int) {
        self.limit = limit
        let width = typedCount + limit + 2
        name = Array(repeating: 0, count: width)
        previousPrevious = Array(repeating: 0, count: width + 1)
        previous = previousPrevious
        current = previousPrevious
    }

    /// The distance between `typed` and the name's beginning (the best of its prefixes) or the
    /// whole name, when it is at most the limit.
    mutating func measure(_ typed: UnsafeBufferPointer<UInt32>, _ bytes: UnsafeBufferPointer<UInt8>,
                          comparison: NameIndex.Comparison) -> Int? {
        // Decode as many characters as can matter: a name longer than the typed text plus the
        // limit is too far as a whole, and only its beginning counts as a prefix.
        let wanted = typed.count + limit
        var count = 0
        var index = 0
        while index < bytes.count {
            if count == wanted + 1 {
                if comparison == .whole { return nil }
                break
            }
            let lead = bytes[index]
            var value = UInt32(lead)
            var length = 1
            if lead >= 0xF0 { value = UInt32(lead & 0x07); length = 4 } else if lead >= 0xE0 { value = UInt32(lead & 0x0F); length = 3 } else if lead >= 0xC0 { value = UInt32(lead & 0x1F); length = 2 }
            if length > 1 {
                for offset in 1..<length where index + offset < bytes.count { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
            }
            name[count] = value
            count += 1
            index += length
        }
        let columns = comparison == .whole ? count : min(count, wanted)
        if comparison == .whole, abs(columns - typed.count) > limit { return nil }
        for column in 0...columns { previous[column] = column }
        for i in 1...typed.count {
            current[0] = i
            var rowBest = i
            for j in stride(from: 1, through: columns, by: 1) {
                let cost = typed[i - 1] == name[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, typed[i - 1] == name[j - 2], typed[i - 2] == name[j - 1] {
                    value = min(value, previousPrevious[j - 2] + 1)
                }
                current[j] = value
                rowBest = min(rowBest, value)
            }
            if rowBest > limit { return nil }
            swap(&previousPrevious, &previous)
            swap(&previous, &current)
        }
        let result: Int
        if comparison == .whole {
            result = previous[columns]
        } else {
            // The best prefix no shorter than the typed text less the limit.
            var best = Int.max
            for column in max(0, typed.count - limit)...columns { best = min(best, previous[column]) }
            result = best
        }
        return result <= limit ? result : nil
    }
}
