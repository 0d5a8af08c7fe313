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
    /// Per column, the last string written, for a run of one value (a country) to skip the table.
    private var lastString: [(offset: Int, length: Int)]
    private(set) var rows = 0
    private var rowMask: UInt64 = 0
    private var firstMask: UInt64?
    private var masks: BuilderStorage<UInt8>?
    private let maskBytes: Int
    // The chunk being filled: per column, literals in 32-byte slots and their lengths.
    private static let slotWidth = 32
    private static let chunkRows = 1 << TableNodes.chunkShift
    private var staged: [[UInt8]]
    private var stagedLengths: [[UInt8]]
    private var chunkStart: [Int] = []
    private var chunkRowWidth: [UInt16] = []
    private var chunkColumnOffset: [UInt16] = []
    private var chunkColumnWidth: [UInt8] = []

    init(names: [String], expectedBytes: Int) {
        arena = BuilderStorage(capacity: max(1 << 12, expectedBytes + expectedBytes / 8))
        strings = TableInterner(capacity: max(1024, expectedBytes / 64))
        maskBytes = (names.count + 7) / 8
        numeric = Array(repeating: nil, count: names.count)
        let rowGuess = max(1024, expectedBytes / 32)
        refs = names.map { _ in BuilderStorage(capacity: rowGuess) }
        lastString = Array(repeating: (0, -1), count: names.count)
        staged = Array(repeating: [], count: names.count)
        stagedLengths = Array(repeating: [], count: names.count)
        for name in names {
            var name = name
            let key = name.withUTF8 { keys.intern($0, arena: &arena) }
            columns.append(TableNodes.Column(keyWord: JSONDocumentBuilder.stringTag | key.payload, numeric: false, refs: []))
        }
    }

    @inline(__always)
    mutating func appendString(_ cell: UnsafeBufferPointer<UInt8>, column: Int) throws(Miss) {
        if numeric[column] == true { throw Miss() }
        numeric[column] = false
        let last = lastString[column]
        let offset: Int
        if last.length == cell.count, memcmp(arena.base + last.offset, cell.baseAddress!, cell.count) == 0 {
            offset = last.offset
        } else if cell.count <= JSONDocumentBuilder.internLimit {
            offset = strings.intern(cell, arena: &arena)
            lastString[column] = (offset, cell.count)
        } else {
            guard cell.count < 1 << 21 else { throw Miss() }
            offset = TableInterner.append(cell, to: &arena)
        }
        guard offset <= Int(UInt32.max) else { throw Miss() }
        refs[column].append(UInt32(offset))
        rowMask |= 1 << UInt64(column)
    }

    @inline(__always)
    mutating func appendNumber(_ literal: UnsafeBufferPointer<UInt8>, column: Int) throws(Miss) {
        if numeric[column] == false || literal.count > Self.slotWidth { throw Miss() }
        if numeric[column] == nil {
            numeric[column] = true
            staged[column] = [UInt8](repeating: 0, count: Self.chunkRows * Self.slotWidth)
            stagedLengths[column] = [UInt8](repeating: 0, count: Self.chunkRows)
        }
        let place = rows & (Self.chunkRows - 1)
        staged[column].withUnsafeMutableBufferPointer {
            ShortBytes.copy(literal.baseAddress!, to: $0.baseAddress! + place * Self.slotWidth, count: literal.count)
        }
        stagedLengths[column][place] = UInt8(literal.count)
        rowMask |= 1 << UInt64(column)
    }

    /// Ends a row: the absent cells' places filled, its shape kept when it differs.
    mutating func closeRow() {
        for column in columns.indices where rowMask & (1 << UInt64(column)) == 0 {
            if numeric[column] != true { refs[column].append(0) }
            if numeric[column] == true { stagedLengths[column][rows & (Self.chunkRows - 1)] = 0 }
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
            widths[column] = Int(stagedLengths[column][0..<chunkRows].max() ?? 0)
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
            staged[column].withUnsafeBufferPointer { slots in
                for row in 0..<chunkRows {
                    let length = Int(stagedLengths[column][row])
                    if length > 0 { (block + row * rowWidth + offset).update(from: slots.baseAddress! + row * Self.slotWidth, count: length) }
                }
            }
            offset += widths[column]
        }
    }

    /// The document: the root array's two words on the tape, the rows in columns.
    mutating func finish() -> JSONDocument {
        if rows & (Self.chunkRows - 1) != 0 { flushChunk(rows: rows & (Self.chunkRows - 1)) }
        strings = TableInterner(capacity: 0)
        for column in columns.indices {
            columns[column].numeric = numeric[column] == true
            if numeric[column] != true { columns[column].refs = refs[column].finished() }
            refs[column] = BuilderStorage(capacity: 1)
        }
        staged = []
        stagedLengths = []
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

    /// The offset of the one copy of `bytes`, appended when new.
    mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>, arena: inout BuilderStorage<UInt8>) -> Int {
        if (count + 1) * 3 > (mask + 1) * 2 { grow(arena: arena.buffer) }
        let hash = InternTable.hash(bytes)
        let tag = Self.tag(hash)
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let offset = offsets[slot]
            if offset == 0 { break }
            if tags[slot] == tag {
                let at = Int(offset)
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
            while offsets[slot] != 0 { slot = (slot + 1) & mask }
            offsets[slot] = offset
            tags[slot] = Self.tag(hash)
        }
    }
}
