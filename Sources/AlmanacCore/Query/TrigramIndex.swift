import Foundation
/// Which rows contain which three-byte sequences of their folded names: a search for a word
/// of three bytes or more then only looks at the rows listed under its rarest trigram,
/// instead of scanning every name.
///
/// Trigrams are hashed into a fixed number of buckets (a collision only adds candidates,
/// which the search checks anyway), and each bucket lists its rows once, in ascending order.
struct TrigramIndex: Sendable {
    /// At most 2^20 buckets (the 100× stations file has ~24 MB of names); fewer for less
    /// text, about one per two trigrams, so a small dataset does not clear and copy megabytes
    /// of counters it never fills.
    static let maximumBucketBits = 20
    static let minimumBucketBits = 8

    /// log2 of the bucket count.
    let bucketBits: Int

    /// Row lists of all buckets, one after another.
    private let postings: [UInt32]
    /// Where each bucket's rows start in `postings` (bucket count + 1 entries).
    private let starts: [UInt32]

    /// Indexes the rows of `texts`: each is a buffer with per-row start offsets (a row's text
    /// runs to the next row's start).
    init?(rows: Int, texts: [(bytes: [UInt8], starts: [Int])], cancellation: Cancellation) {
        let bucketBits = Self.bucketBits(forBytes: texts.reduce(0) { $0 + $1.bytes.count })
        self.bucketBits = bucketBits
        let buckets = 1 << bucketBits
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
                        body(Self.bucket(bytes[index], bytes[index + 1], bytes[index + 2], bits: bucketBits))
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

    /// About one bucket per two bytes of text, within the limits above.
    static func bucketBits(forBytes bytes: Int) -> Int {
        var bits = minimumBucketBits
        while bits < maximumBucketBits, 1 << (bits + 1) <= bytes { bits += 1 }
        return bits
    }

    @inline(__always)
    static func bucket(_ a: UInt8, _ b: UInt8, _ c: UInt8, bits: Int) -> Int {
        let key = UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c)
        return Int((key &* 0x9E37_79B1) >> (32 - UInt32(bits)))
    }

    /// Rows that may contain `word` (at least three bytes): the rows listed under every one of
    /// its trigrams. The shortest list is walked, and each of its rows looked up in the other
    /// lists by a search that only moves forward (all lists are in row order).
    func candidates(for word: [UInt8]) -> [Int] {
        precondition(word.count >= 3)
        var buckets: [Int] = []
        for index in 0..<(word.count - 2) {
            let bucket = Self.bucket(word[index], word[index + 1], word[index + 2], bits: bucketBits)
            if !buckets.contains(bucket) { buckets.append(bucket) }
        }
        buckets.sort { size($0) < size($1) }
        return postings.withUnsafeBufferPointer { postings in
            let lists = buckets.map { bucket in
                UnsafeBufferPointer(rebasing: postings[Int(starts[bucket])..<Int(starts[bucket + 1])])
            }
            // The two shortest lists, merged: the other trigrams rarely remove enough rows to
            // pay for walking their long lists; the rows are checked against the text anyway.
            var rows: [Int] = []
            rows.reserveCapacity(lists[0].count)
            guard lists.count > 1 else { return lists[0].map(Int.init) }
            let first = lists[0]
            let second = lists[1]
            var i = 0
            var j = 0
            while i < first.count, j < second.count {
                let a = first[i]
                let b = second[j]
                if a == b {
                    rows.append(Int(a))
                    i += 1
                    j += 1
                } else if a < b {
                    i += 1
                } else {
                    j += 1
                }
            }
            return rows
        }
    }

    private func size(_ bucket: Int) -> UInt32 { starts[bucket + 1] - starts[bucket] }
}
