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

extension ShortBytes {
    /// Copies `count` bytes (the ranges do not overlap). Up to 32 bytes in word loads that
    /// may overlap each other, all inside both ranges; longer ones by memcpy.
    @inline(__always)
    static func copy(_ source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>, count: Int) {
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(target)
        if count >= 16 {
            guard count <= 32 else {
                to.copyMemory(from: from, byteCount: count)
                return
            }
            let a = from.loadUnaligned(as: UInt64.self)
            let b = from.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            let c = from.loadUnaligned(fromByteOffset: count - 16, as: UInt64.self)
            let d = from.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            to.storeBytes(of: a, as: UInt64.self)
            to.storeBytes(of: b, toByteOffset: 8, as: UInt64.self)
            to.storeBytes(of: c, toByteOffset: count - 16, as: UInt64.self)
            to.storeBytes(of: d, toByteOffset: count - 8, as: UInt64.self)
        } else if count >= 8 {
            let a = from.loadUnaligned(as: UInt64.self)
            let b = from.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            to.storeBytes(of: a, as: UInt64.self)
            to.storeBytes(of: b, toByteOffset: count - 8, as: UInt64.self)
        } else if count >= 4 {
            let a = from.loadUnaligned(as: UInt32.self)
            let b = from.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            to.storeBytes(of: a, as: UInt32.self)
            to.storeBytes(of: b, toByteOffset: count - 4, as: UInt32.self)
        } else if count > 0 {
            // One to three bytes: the first, the middle and the last cover them all.
            let a = source[0], b = source[count >> 1], c = source[count - 1]
            target[0] = a
            target[count >> 1] = b
            target[count - 1] = c
        }
    }
}
