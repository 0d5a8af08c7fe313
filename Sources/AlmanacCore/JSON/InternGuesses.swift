/// Guesses of which interned string comes next, each confirmed by its length and bytes
/// before use: objects of one kind name the same keys in the same order (so the previous key
/// tells the next one), and a key's value often repeats from one object to the next (the
/// country and city of consecutive stations). A right guess skips hashing and probing the
/// table; a wrong one costs a length check, at most a byte compare, and then the table.
///
/// A guess is an entry the table returned earlier (payload and ordinal), and entries are
/// never removed nor moved in the arena, so a confirmed guess is what the table would return.
struct InternGuesses {
    /// Per slot, two guesses (the most recent first), each two words: the payload (offset
    /// and length) and the ordinal. Two, because a slot's follower may alternate: a city's
    /// region is followed by its stations, a station's by its id.
    private var slots: [UInt64]
    /// Slots are chosen by a number modulo this; a collision only makes a guess miss.
    static let slotCount = 256
    /// No interned string is this long, so an empty guess never matches.
    private static let empty: UInt64 = (1 << JSONDocument.lengthBits) - 1
    /// Without remembering, every guess misses: for comparing with a builder without guesses.
    let remembers: Bool

    init(remembers: Bool = true) {
        var slots = [UInt64](repeating: 0, count: 4 * Self.slotCount)
        for guess in stride(from: 0, to: slots.count, by: 2) { slots[guess] = Self.empty }
        self.slots = slots
        self.remembers = remembers
    }

    /// The entry first guessed at `slot` (taken modulo `slotCount`) when its text is `bytes`.
    @inline(__always)
    func first(at slot: Int, _ bytes: UnsafeBufferPointer<UInt8>, arena: UnsafeBufferPointer<UInt8>)
        -> (payload: UInt64, ordinal: Int)? {
        let index = 4 * (slot & (Self.slotCount - 1))
        guard InternTable.matches(slots[index], bytes, arena) else { return nil }
        return (slots[index], Int(slots[index + 1]))
    }

    /// The entry second guessed at `slot` when its text is `bytes`; it becomes the first.
    @inline(__always)
    mutating func second(at slot: Int, _ bytes: UnsafeBufferPointer<UInt8>, arena: UnsafeBufferPointer<UInt8>)
        -> (payload: UInt64, ordinal: Int)? {
        let index = 4 * (slot & (Self.slotCount - 1))
        guard InternTable.matches(slots[index + 2], bytes, arena) else { return nil }
        let entry = (payload: slots[index + 2], ordinal: Int(slots[index + 3]))
        makeFirst(entry, at: index)
        return entry
    }

    /// Remembers the entry the table gave for `slot` as its first guess; the first becomes the second.
    @inline(__always)
    mutating func remember(_ entry: (payload: UInt64, ordinal: Int), at slot: Int) {
        guard remembers else { return }
        makeFirst(entry, at: 4 * (slot & (Self.slotCount - 1)))
    }

    /// `entry` becomes the first guess at slot word `index`; the first becomes the second.
    @inline(__always)
    private mutating func makeFirst(_ entry: (payload: UInt64, ordinal: Int), at index: Int) {
        slots[index + 2] = slots[index]
        slots[index + 3] = slots[index + 1]
        slots[index] = entry.payload
        slots[index + 1] = UInt64(entry.ordinal)
    }
}
