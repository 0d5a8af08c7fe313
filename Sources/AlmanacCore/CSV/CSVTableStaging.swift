/// What `CSVTableBuilder` holds while a chunk of rows is parsed: the chunk's number literals
/// and the cells waiting for their probe of the string table.

/// The literals of the chunk of rows being parsed, per column of numbers: 32-byte slots and
/// their lengths (a class, to free them however the parse ends).
final class ChunkStage {
    // Pointers, not arrays: a class's arrays would have each access checked for exclusivity.
    let slots: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>
    let lengths: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>
    private let columns: Int
    private let rows: Int
    private let width: Int

    init(columns: Int, rows: Int, width: Int) {
        slots = .allocate(capacity: max(1, columns))
        slots.initialize(repeating: nil, count: max(1, columns))
        lengths = .allocate(capacity: max(1, columns))
        lengths.initialize(repeating: nil, count: max(1, columns))
        (self.columns, self.rows, self.width) = (columns, rows, width)
    }

    func open(_ column: Int) {
        slots[column] = .allocate(capacity: rows * width)
        let counts = UnsafeMutablePointer<UInt8>.allocate(capacity: rows)
        counts.initialize(repeating: 0, count: rows)
        lengths[column] = counts
    }

    deinit {
        for column in 0..<columns {
            slots[column]?.deallocate()
            lengths[column]?.deallocate()
        }
        slots.deallocate()
        lengths.deallocate()
    }
}

/// A short queue of cells waiting for their probe of `TableInterner`.
struct TableProbes {
    struct Probe {
        var column: Int
        var ref: Int
        var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        var hash: UInt64 = 0
        /// Another cell's ref (an earlier one of the column, equal): copied when resolved.
        var sameAs = -1
    }

    private static let capacity = 16
    /// (A pointer: an array's writes checked its uniqueness, 3% of the parse.)
    private let storage = ProbeStorage(capacity: capacity)
    private var head = 0
    private var count = 0

    var isEmpty: Bool { count == 0 }
    var isFull: Bool { count == Self.capacity }

    mutating func append(_ probe: Probe) {
        storage.probes[(head + count) & (Self.capacity - 1)] = probe
        count += 1
    }

    mutating func removeFirst() -> Probe {
        let probe = storage.probes[head]
        head = (head + 1) & (Self.capacity - 1)
        count -= 1
        return probe
    }
}

final class ProbeStorage {
    let probes: UnsafeMutablePointer<TableProbes.Probe>

    init(capacity: Int) {
        probes = .allocate(capacity: capacity)
        probes.initialize(repeating: TableProbes.Probe(column: 0, ref: 0), count: capacity)
    }

    deinit { probes.deallocate() }
}
