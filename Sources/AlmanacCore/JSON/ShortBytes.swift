/// Equality of short byte strings (interned ones are at most 64 bytes) without a call to
/// libc's memcmp, whose call and dispatch cost more than the compare at these lengths.
enum ShortBytes {
    /// Whether the `count` bytes at `a` and `b` are equal. Only reads inside both ranges:
    /// the last word (or half word) overlaps the one before instead of reading past the end.
    @inline(__always)
    static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
        let left = UnsafeRawPointer(a)
        let right = UnsafeRawPointer(b)
        if count >= 8 {
            var offset = 0
            while offset + 8 < count {
                if left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    != right.loadUnaligned(fromByteOffset: offset, as: UInt64.self) { return false }
                offset += 8
            }
            return left.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                == right.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        }
        if count >= 4 {
            let first = left.loadUnaligned(as: UInt32.self) ^ right.loadUnaligned(as: UInt32.self)
            let last = left.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
                ^ right.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            return first | last == 0
        }
        if count == 0 { return true }
        // One to three bytes: the first, the middle and the last cover them all.
        return a[0] == b[0] && a[count >> 1] == b[count >> 1] && a[count - 1] == b[count - 1]
    }
}
