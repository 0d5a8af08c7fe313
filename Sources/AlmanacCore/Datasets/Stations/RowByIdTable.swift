import CGlibc

/// The row of each station id, for de-duplicating a load's entries: ids are integers, so an
/// open-addressing table of them, sized from the expected count (it doubles only when that
/// was too few), replaces a `Dictionary` (which hashes each id with SipHash).
struct RowByIdTable {
    private struct Slot {
        var id: Int
        /// The row + 1; 0 marks an empty slot.
        var rowPlusOne: Int
    }

    private var slots: [Slot]
    private var shift: UInt64
    private var count = 0

    /// Room for `capacity` ids, at most two thirds full. `emptied`: false leaves the slots
    /// as allocated, for `empty()` to clear on the thread that uses the table.
    init(capacity: Int, emptied: Bool = true) {
        var bits: UInt64 = 4
        while 1 << bits < capacity + capacity / 2 { bits += 1 }
        slots = Array(unsafeUninitializedCapacity: 1 << bits) { _, count in count = 1 << bits }
        shift = 64 - bits
        if emptied { empty() }
    }

    /// Every slot empty.
    mutating func empty() {
        slots.withUnsafeMutableBufferPointer { $0.initialize(repeating: Slot(id: 0, rowPlusOne: 0)) }
        count = 0
    }

    /// The row of `id`; when it has none yet, `row` becomes its row and the answer is nil.
    @inline(__always)
    mutating func rowOrInsert(_ id: Int, row: Int) -> Int? {
        let (index, found) = probe(id)
        if let found { return found }
        slots[index] = Slot(id: id, rowPlusOne: row + 1)
        count += 1
        if count * 3 > slots.count * 2 { grow() }
        return nil
    }

    /// Twice the slots, every id placed again: kept at most two thirds full, a probe ends.
    @inline(never)
    private mutating func grow() {
        let old = slots
        shift -= 1
        slots = Array(repeating: Slot(id: 0, rowPlusOne: 0), count: old.count * 2)
        for slot in old where slot.rowPlusOne != 0 {
            let (index, _) = probe(slot.id)
            slots[index] = slot
        }
    }

    /// The row of `id`, or nil.
    @inline(__always)
    func row(of id: Int) -> Int? { probe(id).row }

    /// Starts bringing in the slot where `id`'s probe begins: the table is larger than the
    /// caches, so a probe asked for well before it is made finds its slot there.
    @inline(__always)
    func prefetch(_ id: Int) {
        let index = home(of: id)
        slots.withUnsafeBufferPointer { almanac_prefetch($0.baseAddress! + index) }
    }

    /// Fibonacci hashing: the top bits of the product, so consecutive ids spread out.
    @inline(__always)
    private func home(of id: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(id)) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The slot of `id` (with its row), or the empty slot where it would go.
    @inline(__always)
    private func probe(_ id: Int) -> (index: Int, row: Int?) {
        let mask = slots.count - 1
        var index = home(of: id)
        return slots.withUnsafeBufferPointer { slots in
            while true {
                let slot = slots[index]
                if slot.rowPlusOne == 0 { return (index, nil) }
                if slot.id == id { return (index, slot.rowPlusOne - 1) }
                index = (index + 1) & mask
            }
        }
    }
}
