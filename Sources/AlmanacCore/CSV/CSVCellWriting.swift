/// How a CSV cell is written: as what its column is so far (`CSVColumn`), the few cells a
/// later one proves wrong settled at the end.
extension CSVParser {
    /// Writes a cell as what its column is so far.
    @inline(__always)
    mutating func write(_ cell: UnsafeBufferPointer<UInt8>, stable: Bool, column index: Int, into builder: inout JSONDocumentBuilder) {
        builder.appendKey(column: columns[index].key)
        if columns[index].kind == .text {
            builder.appendString(cell, stable: stable)
            return
        }
        let trimmed = CSVCell.trimmed(cell)
        if let number = CSVCell.number(trimmed, decimalComma: dialect.decimalComma) {
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
        } else if CSVCell.boolean(trimmed) != nil {
            if columns[index].kind == .empty { columns[index].kind = .boolean } else if columns[index].kind != .boolean { becomeText(index) }
        } else if CSVCell.isNullWord(trimmed) {
            columns[index].nullWords = true
        } else {
            becomeText(index)
        }
        builder.appendString(cell, stable: stable)
    }

    mutating func becomeText(_ index: Int) {
        if columns[index].kind == .number { columns[index].numbersBeforeText = true }
        columns[index].kind = .text
    }
}
