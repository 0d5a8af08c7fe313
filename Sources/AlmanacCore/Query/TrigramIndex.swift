import Foundation
/// Which rows contain which three-character sequences of their folded names: a search for a
/// word of three characters or more then only looks at the rows listed under its rarest
/// trigrams, instead of scanning every name.
///
/// A character is its UTF-8 bytes without the lead byte (bytes from 0xC0 are skipped): in
/// Cyrillic every other byte is 0xD0 or 0xD1, so byte trigrams held a letter and a half and
/// `моск`'s two rarest lists held 21,900 and 96,100 of the 100× file's rows for 9,200
/// matches. Characters that differ only in their lead byte share a key, which, like a hash
/// collision, only adds candidates the search checks anyway.
///
/// Trigrams are hashed into a fixed number of buckets, and each bucket lists its rows once,
/// in ascending order.
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
                    Self.forEachKey(UnsafeBufferPointer(rebasing: bytes[start..<end])) { body(Self.bucket($0, bits: bucketBits)) }
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

    /// Calls `body` with each trigram of `bytes`: three characters, each its last byte and
    /// any continuation bytes before it (lead bytes skipped), packed into 24 bits.
    @inline(__always)
    static func forEachKey(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (UInt32) -> Void) {
        var key: UInt32 = 0
        var kept = 0
        for byte in bytes where byte < 0xC0 {
            key = (key << 8 | UInt32(byte)) & 0xFF_FFFF
            kept += 1
            if kept >= 3 { body(key) }
        }
    }

    @inline(__always)
    static func bucket(_ key: UInt32, bits: Int) -> Int {
        Int((key &* 0x9E37_79B1) >> (32 - UInt32(bits)))
    }

    /// Rows that may contain `word`: the rows listed under its two rarest trigrams, or nil
    /// when it has fewer than three characters (the caller then scans).
    func candidates(for word: [UInt8]) -> [Int]? {
        var buckets: [Int] = []
        word.withUnsafeBufferPointer { word in
            Self.forEachKey(word) { key in
                let bucket = Self.bucket(key, bits: bucketBits)
                if !buckets.contains(bucket) { buckets.append(bucket) }
            }
        }
        guard !buckets.isEmpty else { return nil }
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
