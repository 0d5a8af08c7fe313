/// A CSV's records kept as typed columns yet read as the tape (`JSONDocument.node`): the
/// nodes from `JSONDocument.virtualBase` on are made from the columns when read. Row r's
/// object starts at `r << shift` (past the base); its header, end, keys and values are
/// computed, and the words after its last value up to the next row are gaps, never read
/// (every walk goes by count and `end(of:)`).
///
/// Why: the tape spends 20 words a row on the 100× stations CSV (160 bytes for 144 bytes of
/// text). Here a string cell is a 32-bit arena offset (its length in the bytes before it) and
/// a number's literal sits in a fixed-width slot of its chunk of rows, its Double parsed when
/// read: about 125 bytes a row in all, which the load's 1.25× memory target needs.
struct TableNodes: Sendable {
    let rows: Int
    /// Each row has `1 << shift` node indices, at least its widest tape (2 + 3 a column).
    let shift: Int
    let columns: [Column]
    struct Column {
        var keyWord: UInt64
        /// Numbers (a literal and a Double word) or strings (one word).
        var numeric: Bool
        /// A string column's arena offset per row (0 where the row has no cell).
        var refs: [UInt32]
    }
    /// The columns each row has, `maskBytes` a row (bit c of byte c / 8); nil when all rows
    /// have `commonMask`.
    let masks: [UInt8]?
    let maskBytes: Int
    let commonMask: UInt64
    /// What each word of a row with `commonMask` is (see `slotCode`).
    let commonSlots: [UInt16]
    let commonCount: Int
    /// Number slots: rows in chunks of `1 << chunkShift`, each chunk a block in the arena of
    /// fixed-width rows (per chunk and column: the widest literal there, zeros after shorter ones).
    static let chunkShift = 12
    let chunkStart: [Int]
    let chunkRowWidth: [UInt16]
    /// Per chunk and column: the column's offset in the row, and its width.
    let chunkColumnOffset: [UInt16]
    let chunkColumnWidth: [UInt8]

    static let keyPart: UInt16 = 0, valuePart: UInt16 = 1, doublePart: UInt16 = 2, gapPart: UInt16 = 3

    /// The words of a row with the columns in `mask`: column << 2 | part.
    static func slots(mask: UInt64, columns: [Column], stride: Int) -> [UInt16] {
        var codes = [UInt16](repeating: gapPart, count: stride)
        var slot = 2
        for (index, column) in columns.enumerated() where mask & (1 << UInt64(index)) != 0 {
            codes[slot] = UInt16(index) << 2 | keyPart
            codes[slot + 1] = UInt16(index) << 2 | valuePart
            if column.numeric { codes[slot + 2] = UInt16(index) << 2 | doublePart }
            slot += column.numeric ? 3 : 2
        }
        return codes
    }

    /// What word `slot` of a row with the columns in `mask` is (as `slots` would say).
    func slotCode(mask: UInt64, slot: Int) -> UInt16 {
        var at = 2
        for (index, column) in columns.enumerated() where mask & (1 << UInt64(index)) != 0 {
            let width = column.numeric ? 3 : 2
            // Key, value, Double: parts 0, 1, 2, as the word's place after the key.
            if slot < at + width { return UInt16(index) << 2 | UInt16(slot - at) }
            at += width
        }
        return Self.gapPart
    }

    @inline(__always)
    func mask(of row: Int) -> UInt64 {
        guard let masks else { return commonMask }
        var mask: UInt64 = 0
        for byte in 0..<maskBytes { mask |= UInt64(masks[row * maskBytes + byte]) << UInt64(8 * byte) }
        return mask
    }

    /// The word at `offset` past the base (`arena`: the document's).
    func word(_ offset: Int, base: Int, arena: UnsafePointer<UInt8>) -> UInt64 {
        let row = offset >> shift
        let slot = offset & ((1 << shift) - 1)
        let mask = mask(of: row)
        switch slot {
        case 0:
            let count = mask == commonMask ? commonCount : mask.nonzeroBitCount
            return UInt64(JSONDocument.Kind.object.rawValue) << JSONDocument.tagShift | UInt64(count)
        case 1:
            return UInt64(base + (row + 1) << shift)
        default:
            let code = mask == commonMask ? commonSlots[slot] : slotCode(mask: mask, slot: slot)
            let column = Int(code >> 2)
            switch code & 3 {
            case Self.keyPart: return columns[column].keyWord
            case Self.valuePart:
                if columns[column].numeric { return literalWord(row: row, column: column, arena: arena) }
                return stringWord(columns[column].refs[row], arena: arena)
            case Self.doublePart: return doubleWord(row: row, column: column, arena: arena)
            default: return 0
            }
        }
    }

    /// A string's word from its offset: the length is in the bytes before it, low seven bits
    /// first, each with the high bit set when another byte (before it) follows.
    @inline(__always)
    func stringWord(_ ref: UInt32, arena: UnsafePointer<UInt8>) -> UInt64 {
        let offset = Int(ref)
        let length = Self.length(before: offset, arena: arena)
        return JSONDocumentBuilder.stringTag | UInt64(offset) << JSONDocument.lengthBits | UInt64(length)
    }

    @inline(__always)
    static func length(before offset: Int, arena: UnsafePointer<UInt8>) -> Int {
        var length = 0
        var shift = 0
        var at = offset - 1
        while true {
            let byte = arena[at]
            length |= Int(byte & 0x7F) << shift
            guard byte & 0x80 != 0 else { return length }
            shift += 7
            at -= 1
        }
    }

    func literalRange(row: Int, column: Int, arena: UnsafePointer<UInt8>) -> Range<Int> {
        let chunk = row >> Self.chunkShift
        let place = chunk * columns.count + column
        let width = Int(chunkColumnWidth[place])
        let start = chunkStart[chunk] + (row & ((1 << Self.chunkShift) - 1)) * Int(chunkRowWidth[chunk]) + Int(chunkColumnOffset[place])
        var length = width
        while length > 0, arena[start + length - 1] == 0 { length -= 1 }
        return start..<(start + length)
    }

    func literalWord(row: Int, column: Int, arena: UnsafePointer<UInt8>) -> UInt64 {
        let range = literalRange(row: row, column: column, arena: arena)
        return UInt64(JSONDocument.Kind.number.rawValue) << JSONDocument.tagShift | UInt64(range.lowerBound) << JSONDocument.lengthBits
            | UInt64(range.count)
    }

    /// The Double of a literal the parser accepted as a plain number (no `+`, no comma), so
    /// parsed again the same way.
    func doubleWord(row: Int, column: Int, arena: UnsafePointer<UInt8>) -> UInt64 {
        let range = literalRange(row: row, column: column, arena: arena)
        let literal = UnsafeBufferPointer(start: arena + range.lowerBound, count: range.count)
        return (CSVCell.number(literal, decimalComma: false)?.value ?? 0).bitPattern
    }
}
