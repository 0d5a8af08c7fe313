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

    /// Where `needle` first occurs in `haystack`: for a name, sixteen positions at a time
    /// (`almanac_find_short`); a search for `моск` in a 60-byte row is then four vector steps
    /// rather than a memchr per Cyrillic `к` and a memcmp after each.
    @inline(__always)
    public static func firstIndex(of needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>) -> Int? {
        let count = needle.count
        guard count > 0 else { return 0 }
        guard haystack.count >= count, let hay = haystack.baseAddress, let pin = needle.baseAddress else { return nil }
        if haystack.count > 256 {
            return almanac_memmem(hay, haystack.count, pin, count).map { hay.distance(to: $0.assumingMemoryBound(to: UInt8.self)) }
        }
        let found = almanac_find_short(hay, haystack.count, pin, count)
        return found < 0 ? nil : found
    }
}
