/// Which rows contain which three-byte sequences of their folded names: a search for a word
/// of three bytes or more then only looks at the rows listed under its rarest trigram,
/// instead of scanning every name.
///
/// Trigrams are hashed into a fixed number of buckets (a collision only adds candidates,
/// which the search checks anyway), and each bucket lists its rows once, in ascending order.
struct TrigramIndex: Sendable {
    static let bucketBits = 20
    private static let bucketMask = (1 << bucketBits) - 1

    /// Row lists of all buckets, one after another.
    private let postings: [UInt32]
    /// Where each bucket's rows start in `postings` (bucket count + 1 entries).
    private let starts: [UInt32]

    /// Indexes the rows of `texts`: each is a buffer with per-row start offsets (a row's text
    /// runs to the next row's start).
    init?(rows: Int, texts: [(bytes: [UInt8], starts: [Int])], cancellation: Cancellation) {
        let buckets = 1 << Self.bucketBits
        var counts = [UInt32](repeating: 0, count: buckets + 1)
        // The last row that added to each bucket, so a row counts once per bucket.
        var lastRow = [Int32](repeating: -1, count: buckets)
        func forEachBucket(of row: Int, _ body: (Int) -> Void) {
            for text in texts {
                let start = text.starts[row]
                let end = row + 1 < text.starts.count ? text.starts[row + 1] : text.bytes.count
                guard end - start >= 3 else { continue }
                text.bytes.withUnsafeBufferPointer { bytes in
                    var index = start
                    while index + 2 < end {
                        body(Self.bucket(bytes[index], bytes[index + 1], bytes[index + 2]))
                        index += 1
                    }
                }
            }
        }
        for row in 0..<rows {
            if row & 0xFFF == 0, cancellation.isCancelled { return nil }
            forEachBucket(of: row) { bucket in
                if lastRow[bucket] != Int32(row) {
                    lastRow[bucket] = Int32(row)
                    counts[bucket + 1] += 1
                }
            }
        }
        for bucket in 0..<buckets { counts[bucket + 1] += counts[bucket] }
        var postings = [UInt32](repeating: 0, count: Int(counts[buckets]))
        var next = counts
        for index in 0..<buckets { lastRow[index] = -1 }
        for row in 0..<rows {
            if row & 0xFFF == 0, cancellation.isCancelled { return nil }
            forEachBucket(of: row) { bucket in
                if lastRow[bucket] != Int32(row) {
                    lastRow[bucket] = Int32(row)
                    postings[Int(next[bucket])] = UInt32(row)
                    next[bucket] += 1
                }
            }
        }
        self.postings = postings
        self.starts = counts
    }

    @inline(__always)
    static func bucket(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> Int {
        let key = UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c)
        return Int((key &* 0x9E37_79B1) >> (32 - UInt32(bucketBits))) & bucketMask
    }

    /// Rows that may contain `word` (at least three bytes): the shortest bucket list among
    /// its trigrams, intersected with the next shortest.
    func candidates(for word: [UInt8]) -> [Int] {
        precondition(word.count >= 3)
        var buckets = Set<Int>()
        for index in 0..<(word.count - 2) { buckets.insert(Self.bucket(word[index], word[index + 1], word[index + 2])) }
        let ordered = buckets.sorted { size($0) < size($1) }
        var rows = list(ordered[0])
        if ordered.count > 1, !rows.isEmpty {
            let other = list(ordered[1])
            var merged: [UInt32] = []
            merged.reserveCapacity(min(rows.count, other.count))
            var i = rows.startIndex
            var j = other.startIndex
            while i < rows.endIndex, j < other.endIndex {
                if rows[i] == other[j] { merged.append(rows[i]); i += 1; j += 1 } else if rows[i] < other[j] { i += 1 } else { j += 1 }
            }
            return merged.map(Int.init)
        }
        return rows.map(Int.init)
    }

    private func size(_ bucket: Int) -> UInt32 { starts[bucket + 1] - starts[bucket] }
    private func list(_ bucket: Int) -> ArraySlice<UInt32> { postings[Int(starts[bucket])..<Int(starts[bucket + 1])] }
}
