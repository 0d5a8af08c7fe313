import CGlibc
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a CSV's rows as columns (`TableNodes`) rather than a tape: strings once each in the
/// arena (interned up to `internLimit` bytes, as the tape's builder does), a 32-bit offset a
/// cell; number literals staged per chunk of rows and laid out at the chunk's widths.
struct CSVTableBuilder {
    /// A cell or a column the table does not hold (a list, a `+5`, a column of numbers with
    /// a word for none…): the text is parsed again onto the tape.
    struct Miss: Error {}

    var arena: BuilderStorage<UInt8>
    var keys = InternTable(capacity: 256)
    private var strings: TableInterner
    private(set) var columns: [TableNodes.Column] = []
    /// Per column: numbers (true), strings (false), nothing yet (nil).
    private var numeric: [Bool?]
    private var refs: [BuilderStorage<UInt32>]
    /// Per column, its last cell when a slice of the input (a run of one value, a country's,
    /// skips the table) and where its ref is.
    private var lastCell: [(bytes: UnsafeBufferPointer<UInt8>, ref: Int)]
    /// Cells waiting for their probe of the table, which was prefetched when they came
    /// (the table of the 100× stations' titles is 5 MB: a probe is a cache miss).
    private var waiting: TableProbes
    private(set) var rows = 0
    private var rowMask: UInt64 = 0
    private var firstMask: UInt64?
    private var masks: BuilderStorage<UInt8>?
    private let maskBytes: Int
    // The chunk being filled: per column, literals in 32-byte slots and their lengths.
    private static let slotWidth = 32
    private static let chunkRows = 1 << TableNodes.chunkShift
    private var stage: ChunkStage
    private var chunkStart: [Int] = []
    private var chunkRowWidth: [UInt16] = []
    private var chunkColumnOffset: [UInt16] = []
    private var chunkColumnWidth: [UInt8] = []

    init(names: [String], expectedBytes: Int) {
        arena = BuilderStorage(capacity: max(1 << 12, expectedBytes + expectedBytes / 8))
        strings = TableInterner(capacity: max(1024, expectedBytes / 128))
        maskBytes = (names.count + 7) / 8
        numeric = Array(repeating: nil, count: names.count)
        let rowGuess = max(1024, expectedBytes / 32)
        refs = names.map { _ in BuilderStorage(capacity: rowGuess) }
        lastCell = Array(repeating: (UnsafeBufferPointer(start: nil, count: 0), 0), count: names.count)
        waiting = TableProbes()
        stage = ChunkStage(columns: names.count, rows: Self.chunkRows, width: Self.slotWidth)
        for name in names {
            var name = name
            let key = name.withUTF8 { keys.intern($0, arena: &arena) }
            columns.append(TableNodes.Column(keyWord: JSONDocumentBuilder.stringTag | key.payload, numeric: false, refs: []))
        }
    }

    /// `stable`: the cell is a slice of the input, there until the probe is made.
    @inline(__always)
    mutating func appendString(_ cell: UnsafeBufferPointer<UInt8>, stable: Bool, column: Int) throws(Miss) {
        if numeric[column] != false {
            if numeric[column] == true { throw Miss() }
            numeric[column] = false
        }
        if arena.count >= Int(UInt32.max) - (1 << 22) { throw Miss() }
        rowMask |= 1 << UInt64(column)
        let ref = refs[column].count
        let last = lastCell[column]
        if last.bytes.count == cell.count, memcmp(last.bytes.baseAddress!, cell.baseAddress!, cell.count) == 0 {
            refs[column].append(0)
            waiting.isEmpty ? (refs[column][ref] = refs[column][last.ref]) : wait(TableProbes.Probe(column: column, ref: ref, sameAs: last.ref))
            return
        }
        // (A long string is not interned: each keeps its own copy, as on the tape.)
        let kept = stable && cell.count <= JSONDocumentBuilder.internLimit
        lastCell[column] = (kept ? cell : UnsafeBufferPointer(start: nil, count: 0), ref)
        guard cell.count <= JSONDocumentBuilder.internLimit else {
            guard cell.count < 1 << 21 else { throw Miss() }
            return refs[column].append(UInt32(TableInterner.append(cell, to: &arena)))
        }
        guard stable else { return refs[column].append(UInt32(strings.intern(cell, hash: InternTable.hash(cell), arena: &arena))) }
        let hash = InternTable.hash(cell)
        strings.prefetch(hash: hash)
        refs[column].append(0)
        wait(TableProbes.Probe(column: column, ref: ref, bytes: cell, hash: hash))
    }

    private mutating func wait(_ probe: TableProbes.Probe) {
        if waiting.isFull { resolve(waiting.removeFirst()) }
        waiting.append(probe)
    }

    private mutating func resolve(_ probe: TableProbes.Probe) {
        let offset = probe.sameAs >= 0 ? refs[probe.column][probe.sameAs]
            : UInt32(strings.intern(probe.bytes, hash: probe.hash, arena: &arena))
        refs[probe.column][probe.ref] = offset
    }

    mutating func resolveWaiting() {
        while !waiting.isEmpty { resolve(waiting.removeFirst()) }
    }

    @inline(__always)
    mutating func appendNumber(_ literal: UnsafeBufferPointer<UInt8>, column: Int) throws(Miss) {
        if numeric[column] == false || literal.count > Self.slotWidth { throw Miss() }
        if numeric[column] == nil {
            numeric[column] = true
            stage.open(column)
        }
        let place = rows & (Self.chunkRows - 1)
        ShortBytes.copy(literal.baseAddress!, to: stage.slots[column]! + place * Self.slotWidth, count: literal.count)
        stage.lengths[column]![place] = UInt8(literal.count)
        rowMask |= 1 << UInt64(column)
    }

    /// Faults in the next pages the cells will write, with one call each rather than a fault
    /// a page (called at each progress report, every quarter megabyte of text).
    mutating func populateAhead() {
        arena.populate(ahead: 1 << 18)
        for column in refs.indices where numeric[column] == false { refs[column].populate(ahead: 1 << 14) }
    }

    /// Ends a row: the absent cells' places filled, its shape kept when it differs.
    mutating func closeRow() {
        for column in columns.indices where rowMask & (1 << UInt64(column)) == 0 {
            if numeric[column] != true { refs[column].append(0) }
            if numeric[column] == true { stage.lengths[column]![rows & (Self.chunkRows - 1)] = 0 }
        }
        if firstMask == nil { firstMask = rowMask }
        if rowMask != firstMask, masks == nil {
            var all = BuilderStorage<UInt8>(capacity: max(1024, refs[0].capacity * maskBytes))
            for _ in 0..<rows { appendMask(firstMask!, to: &all) }
            masks = all
        }
        if masks != nil { appendMask(rowMask, to: &masks!) }
        rowMask = 0
        rows += 1
        if rows & (Self.chunkRows - 1) == 0 { flushChunk(rows: Self.chunkRows) }
    }

    private func appendMask(_ mask: UInt64, to storage: inout BuilderStorage<UInt8>) {
        for byte in 0..<maskBytes { storage.append(UInt8(truncatingIfNeeded: mask >> UInt64(8 * byte))) }
    }

    /// Lays the staged chunk's literals out in the arena, each column as wide as its widest.
    private mutating func flushChunk(rows chunkRows: Int) {
        var widths = [Int](repeating: 0, count: columns.count)
        for column in columns.indices where numeric[column] == true {
            widths[column] = Int(UnsafeBufferPointer(start: stage.lengths[column]!, count: chunkRows).max() ?? 0)
        }
        let rowWidth = widths.reduce(0, +)
        chunkStart.append(arena.count)
        chunkRowWidth.append(UInt16(rowWidth))
        var offset = 0
        for column in columns.indices {
            chunkColumnOffset.append(UInt16(offset))
            chunkColumnWidth.append(UInt8(widths[column]))
            offset += widths[column]
        }
        guard rowWidth > 0 else { return }
        let block = arena.claim(chunkRows * rowWidth)
        block.initialize(repeating: 0, count: chunkRows * rowWidth)
        offset = 0
        for column in columns.indices where widths[column] > 0 {
            let (slots, lengths) = (stage.slots[column]!, stage.lengths[column]!)
            for row in 0..<chunkRows {
                let length = Int(lengths[row])
                if length > 0 { (block + row * rowWidth + offset).update(from: slots + row * Self.slotWidth, count: length) }
            }
            offset += widths[column]
        }
    }

    /// The document: the root array's two words on the tape, the rows in columns.
    mutating func finish() -> JSONDocument {
        resolveWaiting()
        if rows & (Self.chunkRows - 1) != 0 { flushChunk(rows: rows & (Self.chunkRows - 1)) }
        strings = TableInterner(capacity: 0)
        for column in columns.indices {
            columns[column].numeric = numeric[column] == true
            if numeric[column] != true { columns[column].refs = refs[column].finished() }
            refs[column] = BuilderStorage(capacity: 1)
        }
        stage = ChunkStage(columns: 0, rows: 0, width: 0)
        var widest = 2
        for column in columns { widest += column.numeric ? 3 : 2 }
        var shift = 0
        while 1 << shift < widest { shift += 1 }
        let common = firstMask ?? 0
        let table = TableNodes(rows: rows, shift: shift, columns: columns, masks: masks?.finished(), maskBytes: maskBytes, commonMask: common,
                               commonSlots: TableNodes.slots(mask: common, columns: columns, stride: 1 << shift),
                               commonCount: common.nonzeroBitCount, chunkStart: chunkStart, chunkRowWidth: chunkRowWidth,
                               chunkColumnOffset: chunkColumnOffset, chunkColumnWidth: chunkColumnWidth)
        let nodes: [UInt64] = [UInt64(JSONDocument.Kind.array.rawValue) << JSONDocument.tagShift | UInt64(rows), UInt64(2 + rows << shift)]
        return JSONDocument(nodes: nodes, arena: arena.finished(), roots: [0], interned: keys, table: table)
    }
}
