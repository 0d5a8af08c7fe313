import CGlibc

/// Open-addressing table from short byte strings to their one copy in the arena. Each slot
/// keeps 32 bits of the hash beside the payload, so probing rarely touches the arena, and
/// growing never rehashes bytes. (The builder's guesses, `InternGuesses`, answer most
/// strings before the table is asked.)
///
/// Every entry also has an ordinal, its number in insertion order: a builder parsing part of
/// a text on another thread names its strings by ordinal, so that merging it into the main
/// builder maps each distinct string once instead of hashing every occurrence again.
struct InternTable {
    /// Two words per slot: the hash's low 32 bits with the ordinal above them, and the
    /// payload (offset and length) with the top bit set.
    private var slots: [UInt64]
    private var mask: Int
    private(set) var count = 0

    init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = [UInt64](repeating: 0, count: size * 2)
        mask = size - 1
    }

    private static let occupied: UInt64 = 1 << 63
    private static let hashMask: UInt64 = 0xFFFF_FFFF

    /// The payload of `bytes` when it was interned, without adding it.
    func existingPayload(for bytes: UnsafeBufferPointer<UInt8>, arena: [UInt8]) -> UInt64? {
        arena.withUnsafeBufferPointer { lookup(hash: Self.hash(bytes) & Self.hashMask, bytes: bytes, arena: $0) }
    }

    /// The payload of `bytes` (whose `hash` another table kept) when this table has them,
    /// its texts being in `arena`. Only reads: threads may ask at once.
    func existingPayload(hash: UInt64, bytes: UnsafeBufferPointer<UInt8>, arena: UnsafeBufferPointer<UInt8>) -> UInt64? {
        lookup(hash: hash & Self.hashMask, bytes: bytes, arena: arena)
    }

    private func lookup(hash: UInt64, bytes: UnsafeBufferPointer<UInt8>, arena: UnsafeBufferPointer<UInt8>) -> UInt64? {
        let entry = slots[2 * find(hash: hash, bytes: bytes, arena: arena) + 1]
        return entry == 0 ? nil : entry & ~Self.occupied
    }

    static func slice(_ payload: UInt64, of arena: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        let length = Int(payload & ((1 << JSONDocument.lengthBits) - 1))
        let offset = Int(payload >> JSONDocument.lengthBits)
        return UnsafeBufferPointer(rebasing: arena[offset..<(offset + length)])
    }

    /// The payload of the one copy of `bytes`, appending them to `arena` when new; and the
    /// entry's ordinal. `hash`: `hash(bytes)`, when the caller has it already.
    @inline(__always)
    mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64? = nil,
                         arena: inout BuilderStorage<UInt8>) -> (payload: UInt64, ordinal: Int) {
        let hash = (hash ?? Self.hash(bytes)) & Self.hashMask
        growWhenHalfFull()
        let slot = find(hash: hash, bytes: bytes, arena: arena.buffer)
        if slots[2 * slot + 1] == 0 {
            fill(slot, hash: hash, payload: UInt64(arena.count) << JSONDocument.lengthBits | UInt64(bytes.count))
            arena.append(bytes)
        }
        return (slots[2 * slot + 1] & ~Self.occupied, Int(slots[2 * slot] >> 32))
    }

    /// The payload of the text at `payload` in `arena` (already there) in this table, adding
    /// that payload when the text is new. For merging another table's entries by their hash.
    mutating func adopt(hash: UInt64, payload: UInt64, arena: UnsafeBufferPointer<UInt8>) -> UInt64 {
        growWhenHalfFull()
        let slot = find(hash: hash & Self.hashMask, bytes: Self.slice(payload, of: arena), arena: arena)
        if slots[2 * slot + 1] == 0 { fill(slot, hash: hash & Self.hashMask, payload: payload) }
        return slots[2 * slot + 1] & ~Self.occupied
    }

    /// Starts bringing in the slot where a probe for a text of this `hash` begins.
    @inline(__always)
    func prefetch(hash: UInt64) {
        let slot = Int(truncatingIfNeeded: hash & Self.hashMask) & mask
        slots.withUnsafeBufferPointer { almanac_prefetch($0.baseAddress! + 2 * slot) }
    }

    /// The slot holding `bytes`, or the empty slot where they belong.
    @inline(__always)
    private func find(hash: UInt64, bytes: UnsafeBufferPointer<UInt8>, arena: UnsafeBufferPointer<UInt8>) -> Int {
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = slots[2 * slot + 1]
            if entry == 0 { return slot }
            if slots[2 * slot] & Self.hashMask == hash, Self.matches(entry & ~Self.occupied, bytes, arena) { return slot }
            slot = (slot + 1) & mask
        }
    }

    @inline(__always)
    private mutating func fill(_ slot: Int, hash: UInt64, payload: UInt64) {
        slots[2 * slot] = hash | UInt64(count) << 32
        slots[2 * slot + 1] = payload | Self.occupied
        count += 1
    }

    /// The number of slots, for visiting the entries a range of them at a time.
    var slotCount: Int { mask + 1 }

    /// Every entry's hash (32 bits), payload and ordinal, in slot order (of the slots in `range`).
    func forEachEntry(inSlots range: Range<Int>? = nil, _ body: (_ hash: UInt64, _ payload: UInt64, _ ordinal: Int) -> Void) {
        for slot in range ?? 0..<(mask + 1) where slots[2 * slot + 1] != 0 {
            let word = slots[2 * slot]
            body(word & Self.hashMask, slots[2 * slot + 1] & ~Self.occupied, Int(word >> 32))
        }
    }

    /// Whether the arena text at `payload` is `bytes` (the builder's guesses check theirs here too).
    @inline(__always)
    static func matches(_ payload: UInt64, _ bytes: UnsafeBufferPointer<UInt8>, _ arena: UnsafeBufferPointer<UInt8>) -> Bool {
        let length = Int(payload & ((1 << JSONDocument.lengthBits) - 1))
        guard length == bytes.count else { return false }
        if length == 0 { return true }
        guard let text = bytes.baseAddress, let stored = arena.baseAddress else { return false }
        return ShortBytes.equal(stored + Int(payload >> JSONDocument.lengthBits), text, count: length)
    }

    /// Before a fill: the table stays at most half full.
    @inline(__always)
    private mutating func growWhenHalfFull() {
        if count * 2 >= mask + 1 { grow() }
    }

    private mutating func grow() {
        let old = slots
        let size = (mask + 1) * 2
        slots = [UInt64](repeating: 0, count: size * 2)
        mask = size - 1
        for index in stride(from: 0, to: old.count, by: 2) where old[index + 1] != 0 {
            var slot = Int(truncatingIfNeeded: old[index] & Self.hashMask) & mask
            while slots[2 * slot + 1] != 0 { slot = (slot + 1) & mask }
            slots[2 * slot] = old[index]
            slots[2 * slot + 1] = old[index + 1]
        }
    }

    /// A fast multiplicative hash over 8-byte words.
    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var tail: UInt64 = 0
        // An empty buffer may have no address: it must hash as any other empty one.
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            var offset = 0
            while offset + 8 <= bytes.count {
                hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
                hash ^= hash >> 32
                offset += 8
            }
            // The last 0–7 bytes in two loads that may overlap (the length is in the seed).
            let remaining = bytes.count - offset
            if remaining >= 4 {
                tail = UInt64(raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
                    | UInt64(raw.loadUnaligned(fromByteOffset: bytes.count - 4, as: UInt32.self)) << 32
            } else if remaining > 0 {
                tail = UInt64(base[offset]) | UInt64(base[offset + remaining >> 1]) << 8 | UInt64(base[bytes.count - 1]) << 16
            }
        }
        hash = (hash ^ tail) &* 0xC4CE_B9FE_1A85_EC53
        return hash ^ (hash >> 29)
    }
}
