/// Whether a cell is a number, without its value: the table's parse (`CSVTableParsing`)
/// keeps the literal and makes the Double when it is read, so it asks only this, eight
/// digits a step. It accepts what `CSVCell.number(_:decimalComma: false)` accepts, and
/// nothing else (`CSVTableStoreTests` compares the two paths' documents).
enum CSVNumberShape {
    struct Shape {
        /// A `+` in front: the tape writes it normalized, the table does not hold it.
        var plus: Bool
        /// A decimal point.
        var point: Bool
    }

    @inline(__always)
    static func of(_ bytes: UnsafeBufferPointer<UInt8>) -> Shape? {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return nil }
        let count = bytes.count
        var index = 0
        var plus = false
        if base[0] == UInt8(ascii: "-") { index = 1 } else if base[0] == UInt8(ascii: "+") { plus = true; index = 1 }
        guard index < count, base[index] &- 48 < 10 else { return nil }
        if base[index] == UInt8(ascii: "0") {
            // Not `007`: leading zeros mark a code, which stays text.
            index += 1
            if index < count, base[index] &- 48 < 10 { return nil }
        } else {
            index = digitsEnd(base, from: index, count: count)
        }
        var point = false
        if index < count, base[index] == UInt8(ascii: ".") {
            point = true
            index += 1
            guard index < count, base[index] &- 48 < 10 else { return nil }
            index = digitsEnd(base, from: index, count: count)
        }
        if index < count, base[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < count, base[index] == UInt8(ascii: "+") || base[index] == UInt8(ascii: "-") { index += 1 }
            guard index < count, base[index] &- 48 < 10 else { return nil }
            index = digitsEnd(base, from: index, count: count)
        }
        return index == count ? Shape(plus: plus, point: point) : nil
    }

    /// The index of the first byte from `index` that is not a digit (or `count`).
    @inline(__always)
    static func digitsEnd(_ base: UnsafePointer<UInt8>, from index: Int, count: Int) -> Int {
        var index = index
        let raw = UnsafeRawPointer(base)
        while index + 8 <= count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            // Each byte 0x30…0x39: its high nibble 3, and adding 6 keeps it 3.
            let high: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
            let threes: UInt64 = 0x3030_3030_3030_3030
            guard word & high == threes, (word &+ 0x0606_0606_0606_0606) & high == threes else { break }
            index += 8
        }
        while index < count, base[index] &- 48 < 10 { index += 1 }
        return index
    }
}
