/// How a CSV cell is written: as what its column is so far (`CSVColumn`), the few cells a
/// later one proves wrong settled at the end.
extension CSVParser {
    /// A cell that is no number types its column so far: `true`/`false` keep a column of
    /// booleans, a word for none (`NA`) is noted, anything else makes the column text. The
    /// tape's writing and the table's (`writeTableCell`) share it.
    @inline(__always)
    mutating func typeOther(_ trimmed: UnsafeBufferPointer<UInt8>, column index: Int) {
        if CSVCell.boolean(trimmed) != nil {
            if columns[index].kind == .empty { columns[index].kind = .boolean } else if columns[index].kind != .boolean { becomeText(index) }
        } else if CSVCell.isNullWord(trimmed) {
            columns[index].nullWords = true
        } else {
            becomeText(index)
        }
    }

    /// Writes a cell as what its column is so far.
    @inline(__always)
    mutating func write(_ cell: UnsafeBufferPointer<UInt8>, stable: Bool, column index: Int, into builder: inout JSONDocumentBuilder) {
        builder.appendKey(column: columns[index].key)
        let first = cell[0]
        if columns[index].kind == .text {
            // One byte tells the common text cell: no list or object (`[` and `{` are the two
            // bytes that are `{` with 0x20 set), no decimal comma's number.
            if first | 0x20 != UInt8(ascii: "{"), !(decimalComma && CSVCell.mayStartNumber(first)) {
                builder.appendString(cell, stable: stable)
            } else {
                writeUnusualText(cell, stable: stable, column: index, into: &builder)
            }
            return
        }
        if first | 0x20 == UInt8(ascii: "{") {
            becomeText(index)
            return writeUnusualText(cell, stable: stable, column: index, into: &builder)
        }
        let trimmed = CSVCell.trimmed(cell)
        if let number = CSVCell.number(trimmed, decimalComma: decimalComma) {
            let kind = columns[index].kind
            let separator = columns[index].separator
            if kind == .empty || kind == .number, number.separator == nil || separator == nil || separator == number.separator {
                columns[index].kind = .number
                if number.separator != nil { columns[index].separator = number.separator }
                if number.needsNormalizing {
                    CSVCell.normalized(trimmed).withUnsafeBufferPointer { builder.appendNumberLeavingProbes($0, value: number.value) }
                } else {
                    builder.appendNumberLeavingProbes(trimmed, value: number.value)
                }
                return
            }
            becomeText(index)
            if number.separator == UInt8(ascii: ",") { return writeCommaNumber(trimmed, value: number.value, column: index, into: &builder) }
        } else {
            typeOther(trimmed, column: index)
        }
        builder.appendString(cell, stable: stable)
    }

    /// A cell of a text column that may be a JSON list or object (`[` or `{` first: an export's
    /// lists) or, in a `;` file, a number with a decimal comma: either is that value, as in a
    /// column of them; anything else is text.
    @inline(never)
    mutating func writeUnusualText(_ cell: UnsafeBufferPointer<UInt8>, stable: Bool, column index: Int, into builder: inout JSONDocumentBuilder) {
        if cell[0] | 0x20 == UInt8(ascii: "{"), CSVJSONCell.append(cell, into: &builder) { return }
        if decimalComma {
            let trimmed = CSVCell.trimmed(cell)
            if let number = CSVCell.number(trimmed, decimalComma: true), number.separator == UInt8(ascii: ",") {
                return writeCommaNumber(trimmed, value: number.value, column: index, into: &builder)
            }
        }
        builder.appendString(cell, stable: stable)
    }

    /// A decimal comma's number in a column of text: its literal as written (`1,5`), which
    /// tells `settle` it stays a number (and is normalized then) when the column's other
    /// numbers become text.
    mutating func writeCommaNumber(_ literal: UnsafeBufferPointer<UInt8>, value: Double, column index: Int, into builder: inout JSONDocumentBuilder) {
        columns[index].commaNumbers = true
        builder.appendNumberLeavingProbes(literal, value: value)
    }

    mutating func becomeText(_ index: Int) {
        if columns[index].kind == .number { columns[index].numbersBeforeText = true }
        columns[index].kind = .text
    }
}
