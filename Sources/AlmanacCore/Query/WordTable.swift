/// Open addressing from 64-bit words (node words, packed value numbers, a Double's bits) to
/// small numbers: faster than a Dictionary in the loops over every record, which hash a word
/// per record. Group counting, value numbering and the per-string caches of sort and filter
/// all hash with `WordHash`.
struct WordTable: Sendable {
    private var keys: [UInt64]
    private var values: [Int32]
    private var mask: Int
    private(set) var count = 0

    init(expected: Int = 512) {
        var size = 1024
        while size < expected * 2 { size <<= 1 }
        keys = [UInt64](repeating: 0, count: size)
        values = [Int32](repeating: -1, count: size)
        mask = size - 1
    }

    subscript(key: UInt64) -> Int32? {
        var slot = WordHash.slot(key, mask: mask)
        while values[slot] >= 0 {
            if keys[slot] == key { return values[slot] }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// The value of `key`, after storing `make()` when it has none.
    @inline(__always)
    mutating func value(of key: UInt64, or make: () -> Int32) -> Int32 {
        var slot = WordHash.slot(key, mask: mask)
        while values[slot] >= 0 {
            if keys[slot] == key { return values[slot] }
            slot = (slot + 1) & mask
        }
        let value = make()
        keys[slot] = key
        values[slot] = value
        count += 1
        if count * 2 > keys.count { grow() }
        return value
    }

    /// Stores `value` for `key`, which has none yet.
    mutating func insert(_ key: UInt64, _ value: Int32) {
        _ = self.value(of: key) { value }
    }

    private mutating func grow() {
        let oldKeys = keys
        let oldValues = values
        keys = [UInt64](repeating: 0, count: oldKeys.count * 2)
        values = [Int32](repeating: -1, count: oldKeys.count * 2)
        mask = keys.count - 1
        for index in oldKeys.indices where oldValues[index] >= 0 {
            var slot = WordHash.slot(oldKeys[index], mask: mask)
            while values[slot] >= 0 { slot = (slot + 1) & mask }
            keys[slot] = oldKeys[index]
            values[slot] = oldValues[index]
        }
    }
}

/// The one hash of a 64-bit word (Fibonacci hashing): the slot in a table of `mask + 1`
/// entries, or in a direct-mapped cache of 4,096.
enum WordHash {
    @inline(__always)
    static func slot(_ key: UInt64, mask: Int) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 20) & mask }

    /// A slot of a 4,096-entry direct-mapped cache (the top twelve bits of the product).
    @inline(__always)
    static func cacheSlot(_ key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 52) }

    static let cacheSize = 4096
}
