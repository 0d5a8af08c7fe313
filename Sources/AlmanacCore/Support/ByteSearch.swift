import CGlibc
#if canImport(Glibc)
import Glibc
#endif

/// Substring search in bytes. For the short texts of names, finding the needle's last byte
/// with memchr and checking the rest with memcmp is several times faster than memmem, whose
/// set-up per call dominates. The last byte, because in UTF-8 Cyrillic every other byte is a
/// lead byte 0xD0 or 0xD1, while the last byte of a character varies. Long texts go to memmem.
public enum ByteSearch {
    @inline(__always)
    public static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = needle.count
        guard count > 0 else { return true }
        guard haystack.count >= count, let hay = haystack.baseAddress, let pin = needle.baseAddress else { return false }
        if haystack.count > 256 { return almanac_memmem(hay, haystack.count, pin, count) != nil }
        let last = Int32(pin[count - 1])
        var position = hay + (count - 1)
        let end = hay + haystack.count
        while position < end {
            guard let found = memchr(position, last, end - position) else { return false }
            let candidate = UnsafePointer(found.assumingMemoryBound(to: UInt8.self))
            if count == 1 || memcmp(candidate - (count - 1), pin, count - 1) == 0 { return true }
            position = candidate + 1
        }
        return false
    }

    /// Where `needle` first occurs in `haystack`. Eight positions at a time: the needle's
    /// first and last bytes compared at once in two 64-bit words (exact zero-byte test, no
    /// false hits), and only the positions where both match checked in full; a search for
    /// `моск` in a 60-byte name is then a few word operations rather than a memchr per
    /// Cyrillic `к` and a memcmp after each.
    @inline(__always)
    public static func firstIndex(of needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>) -> Int? {
        let count = needle.count
        guard count > 0 else { return 0 }
        guard haystack.count >= count, let hay = haystack.baseAddress, let pin = needle.baseAddress else { return nil }
        if haystack.count > 256 {
            return almanac_memmem(hay, haystack.count, pin, count).map { hay.distance(to: $0.assumingMemoryBound(to: UInt8.self)) }
        }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let first = UInt64(pin[0]) &* ones
        let last = UInt64(pin[count - 1]) &* ones
        let raw = UnsafeRawPointer(hay)
        var index = 0
        // While both 8-byte loads stay inside the haystack.
        while index + count - 1 + 8 <= haystack.count {
            let heads = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ first
            let tails = raw.loadUnaligned(fromByteOffset: index + count - 1, as: UInt64.self) ^ last
            // The high bit of each byte that is zero in both (little-endian: lane 0 lowest).
            let x = heads | tails
            var both = ~(((x & low) &+ low) | x | low)
            while both != 0 {
                let lane = both.trailingZeroBitCount / 8
                if count <= 2 || memcmp(hay + index + lane + 1, pin + 1, count - 2) == 0 { return index + lane }
                both &= both - 1
            }
            index += 8
        }
        while index + count <= haystack.count {
            if hay[index] == pin[0], hay[index + count - 1] == pin[count - 1],
               count <= 2 || memcmp(hay + index + 1, pin + 1, count - 2) == 0 {
                return index
            }
            index += 1
        }
        return nil
    }
}
