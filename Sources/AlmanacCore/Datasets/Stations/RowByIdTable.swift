import CGlibc

/// The row of each station id, for de-duplicating a load's entries: ids are integers, so an
/// open-addressing table of them, sized once from the entry count, replaces a `Dictionary`
/// (which hashes each id with SipHash and grows as it fills).
struct RowByIdTable {
    private struct Slot {
        var id: Int
        /// The row + 1; 0 marks an empty slot.
        var rowPlusOne: Int
    }

    private var slots: [Slot]
    private let shift: UInt64

    /// Room for `capacity` ids, at most two thirds full.
    init(capacity: Int) {
        var bits: UInt64 = 4
        while 1 << bits < capacity + capacity / 2 { bits += 1 }
        slots = Array(repeating: Slot(id: 0, rowPlusOne: 0), count: 1 << bits)
        shift = 64 - bits
    }

    /// The row of `id`; when it has none yet, `row` becomes its row and the answer is nil.
    @inline(__always)
    mutating func rowOrInsert(_ id: Int, row: Int) -> Int? {
        let (index, found) = probe(id)
        if let found { return found }
        slots[index] = Slot(id: id, rowPlusOne: row + 1)
        return nil
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
