/// A CSV's rows parsed into columns (`CSVTableBuilder`) when every column is numbers or
/// strings as it is written: the document reads as the tape the other path makes (the same
/// kinds, texts, Doubles and interned words), in about a third of the memory.
extension CSVParser {
    /// Why a parse tried as a table goes back to the tape.
    enum TableOutcome {
        case table(JSONDocument, Summary)
        /// The text holds what the table does not (see `CSVTableBuilder.Miss`).
        case miss
    }

    /// Whether a text with these names and dialect may be a table at all: no decimal comma
    /// (its numbers are normalized), no dotted names (they nest), at most 60 columns.
    static func mayBeTable(_ names: [String], dialect: CSVDialect) -> Bool {
        !dialect.decimalComma && names.count <= 60 && !names.contains { $0.contains(".") }
    }

    /// Parses the whole text as a table (on one thread), or says it cannot.
    mutating func parseTable(expectedBytes: Int) throws(LoadFailure) -> TableOutcome {
        skipBlankLines()
        // No rows at all: the tape's parse makes the empty document.
        guard position < count else { return .miss }
        let names = try dialect.hasHeader ? readHeader() : firstRowNames()
        guard Self.mayBeTable(names, dialect: dialect) else { return .miss }
        var table = CSVTableBuilder(names: names, expectedBytes: expectedBytes)
        columns = names.map { CSVColumn(name: $0, key: (0, 0)) }
        while true {
            skipBlankLines()
            guard position < count else { break }
            // Any error too goes back to the tape, whose parse reports it.
            do { try parseTableRow(into: &table) } catch { return .miss }
            if position >= nextProgress {
                table.populateAhead()
                try reportTableProgress()
            }
        }
        guard columns.allSatisfy({ $0.settling == nil && !$0.commaNumbers }) else { return .miss }
        let rows = table.rows
        return .table(table.finish(), Summary(dialect: dialect, records: rows, columns: names))
    }

    mutating func reportTableProgress() throws(LoadFailure) {
        nextProgress = position + Self.populateInterval
        parsed?(position)
        guard let progress else { return }
        do { try progress(position) } catch { throw .cancelled }
    }

    /// `parseRow`'s walk over a row's fields, each cell written to the table.
    @inline(__always)
    mutating func parseTableRow(into table: inout CSVTableBuilder) throws(CSVTableBuilder.Miss) {
        var field = 0
        while true {
            let (cell, stable): (UnsafeBufferPointer<UInt8>, Bool)
            do { (cell, stable) = try readField() } catch { throw CSVTableBuilder.Miss() }
            guard field < columns.count else { throw CSVTableBuilder.Miss() }
            if cell.count > 0 { try writeTableCell(cell, stable: stable, column: field, into: &table) }
            field += 1
            guard position < count else { break }
            let byte = base[position]
            if byte == dialect.delimiter {
                position += 1
                continue
            }
            guard field == columns.count else { throw CSVTableBuilder.Miss() }
            position += 1
            if byte == Self.carriageReturn, position < count, base[position] == Self.newline { position += 1 }
            line += 1
            lineStart = position
            break
        }
        guard field == columns.count else { throw CSVTableBuilder.Miss() }
        table.closeRow()
    }

    /// `write`'s typing of a cell by its column so far, for the table: what the tape would
    /// settle at the end (numbers that become text, booleans, words for none among numbers)
    /// or hold as something else (a list, a `+5`) is a miss.
    @inline(__always)
    mutating func writeTableCell(_ cell: UnsafeBufferPointer<UInt8>, stable: Bool, column index: Int, into table: inout CSVTableBuilder) throws(CSVTableBuilder.Miss) {
        if cell[0] | 0x20 == UInt8(ascii: "{") { throw CSVTableBuilder.Miss() }
        if columns[index].kind == .text { return try table.appendString(cell, stable: stable, column: index) }
        let trimmed = CSVCell.trimmed(cell)
        if let number = CSVNumberShape.of(trimmed) {
            // Without a decimal comma every separator is a point: no check of it is needed.
            if columns[index].kind == .empty || columns[index].kind == .number {
                guard !number.plus else { throw CSVTableBuilder.Miss() }
                if columns[index].kind == .empty { columns[index].kind = .number }
                if number.point, columns[index].separator == nil { columns[index].separator = UInt8(ascii: ".") }
                return try table.appendNumber(trimmed, column: index)
            }
            becomeText(index)
        } else {
            typeOther(trimmed, column: index)
        }
        if columns[index].numbersBeforeText { throw CSVTableBuilder.Miss() }
        try table.appendString(cell, stable: stable, column: index)
    }
}
