import CGlibc
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Short strings to their one copy in a table's arena: a 32-bit offset a slot and a byte of
/// the hash beside it (5 bytes a slot, against the tape's table's 16), so the table of the
/// 640,000 distinct titles of the 100× stations is 5 MB at the load's peak.
struct TableInterner {
    private var offsets: [UInt32]
    private var tags: [UInt8]
    private var mask: Int
    private var count = 0

    init(capacity: Int) {
        var size = 16
        while size * 2 < capacity * 3 { size <<= 1 }
        offsets = [UInt32](repeating: 0, count: size)
        tags = [UInt8](repeating: 0, count: size)
        mask = size - 1
    }

    /// Appends the length (low seven bits last, each byte but the first before it flagged
    /// with the high bit: `TableNodes.length(before:)`) and the bytes; returns their offset.
    static func append(_ bytes: UnsafeBufferPointer<UInt8>, to arena: inout BuilderStorage<UInt8>) -> Int {
        let length = bytes.count
        if length < 1 << 7 {
            arena.append(UInt8(length))
        } else if length < 1 << 14 {
            arena.append(UInt8(length >> 7))
            arena.append(UInt8(length & 0x7F) | 0x80)
        } else {
            arena.append(UInt8(length >> 14))
            arena.append(UInt8((length >> 7) & 0x7F) | 0x80)
            arena.append(UInt8(length & 0x7F) | 0x80)
        }
        arena.append(bytes)
        return arena.count - length
    }

    @inline(__always)
    private static func tag(_ hash: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: hash >> 56) | 1 }

    /// Starts bringing in the slot where a probe for `hash` begins.
    @inline(__always)
    func prefetch(hash: UInt64) {
        let slot = Int(truncatingIfNeeded: hash) & mask
        tags.withUnsafeBufferPointer { almanac_prefetch($0.baseAddress! + slot) }
        offsets.withUnsafeBufferPointer { almanac_prefetch($0.baseAddress! + slot) }
    }

    /// The offset of the one copy of `bytes` (`hash`: `InternTable.hash(bytes)`), appended when new.
    mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64, arena: inout BuilderStorage<UInt8>) -> Int {
        if (count + 1) * 3 > (mask + 1) * 2 { grow(arena: arena.buffer) }
        let tag = Self.tag(hash)
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            // A tag is never 0: an empty slot is told by its tag alone.
            let slotTag = tags[slot]
            if slotTag == 0 { break }
            if slotTag == tag {
                let at = Int(offsets[slot])
                if TableNodes.length(before: at, arena: arena.base) == bytes.count,
                   memcmp(arena.base + at, bytes.baseAddress!, bytes.count) == 0 { return at }
            }
            slot = (slot + 1) & mask
        }
        let at = Self.append(bytes, to: &arena)
        offsets[slot] = UInt32(truncatingIfNeeded: at)
        tags[slot] = tag
        count += 1
        return at
    }

    private mutating func grow(arena: UnsafeBufferPointer<UInt8>) {
        let old = offsets
        let size = (mask + 1) * 2
        offsets = [UInt32](repeating: 0, count: size)
        tags = [UInt8](repeating: 0, count: size)
        mask = size - 1
        for offset in old where offset != 0 {
            let at = Int(offset)
            let length = TableNodes.length(before: at, arena: arena.baseAddress!)
            let hash = InternTable.hash(UnsafeBufferPointer(start: arena.baseAddress! + at, count: length))
            var slot = Int(truncatingIfNeeded: hash) & mask
            while tags[slot] != 0 { slot = (slot + 1) & mask }
            offsets[slot] = offset
            tags[slot] = Self.tag(hash)
        }
    }
}
