/// How a delimited text is written: its delimiter, whether `"` quotes fields (CSV, RFC 4180)
/// or backslashes escape (TSV as almanac, PostgreSQL's COPY and Miller write it), and whether
/// its first row names the columns.
public struct CSVDialect: Sendable, Equatable, CustomStringConvertible {
    public enum Style: Sendable, Equatable {
        /// RFC 4180: `"` around a field that holds the delimiter, a quote (doubled) or a line break.
        case quoted
        /// Linear TSV: no quotes; `\t`, `\n`, `\r` and `\\` stand for a tab, line breaks, a backslash.
        case escaped
    }

    public var delimiter: UInt8
    public var style: Style
    public var hasHeader: Bool

    public init(delimiter: UInt8, style: Style, hasHeader: Bool = true) {
        self.delimiter = delimiter
        self.style = style
        self.hasHeader = hasHeader
    }

    /// `1,5` is a number in a `;` file: the decimal comma of the spreadsheets that write them.
    public var decimalComma: Bool { delimiter == UInt8(ascii: ";") }

    public var isTSV: Bool { style == .escaped }

    /// `CSV (;)`, `TSV`: what a load summary says of the format.
    public var description: String {
        if style == .escaped { return "TSV" }
        let shown = delimiter == 0x09 ? "tab" : String(UnicodeScalar(delimiter))
        return delimiter == UInt8(ascii: ",") ? "CSV" : "CSV (\(shown))"
    }

    static let candidates: [UInt8] = [UInt8(ascii: ","), 0x09, UInt8(ascii: ";"), UInt8(ascii: "|")]

    /// The dialect of `sample` (the text's first kilobytes): the candidate delimiter that splits
    /// its lines into the same number of fields most often (more fields breaking ties, then
    /// `,` tab `;` `|` in that order), and a header unless the first row holds a number, a date
    /// or a boolean (names are none of those). `tsv`: the text is TSV (its extension said so).
    /// `complete`: the sample is the whole text (its last line counts without a line break).
    static func sniff(_ sample: UnsafeBufferPointer<UInt8>, tsv: Bool, complete: Bool) -> CSVDialect {
        var best: (delimiter: UInt8, agreeing: Int, fields: Int)?
        for delimiter in tsv ? [0x09] : candidates {
            let rows = CSVSample.rows(sample, dialect: CSVDialect(delimiter: delimiter, style: tsv ? .escaped : .quoted), limit: 50, complete: complete)
            guard let first = rows.first, first.count > 1 else { continue }
            let agreeing = rows.count(where: { $0.count == first.count })
            if best == nil || agreeing > best!.agreeing || (agreeing == best!.agreeing && first.count > best!.fields) {
                best = (delimiter, agreeing, first.count)
            }
        }
        var dialect = CSVDialect(delimiter: best?.delimiter ?? (tsv ? 0x09 : UInt8(ascii: ",")), style: tsv ? .escaped : .quoted)
        let rows = CSVSample.rows(sample, dialect: dialect, limit: 50, complete: complete)
        dialect.hasHeader = rows.first.map { first in
            !first.contains { cell in
                cell.withUnsafeBufferPointer { CSVCell.kind(of: $0, decimalComma: dialect.decimalComma) != .text }
            }
        } ?? true
        return dialect
    }
}

/// The rows of a text's first kilobytes, cell by cell, for sniffing: slow and simple (the
/// parser proper is `CSVParser`). A last line cut by the sample's end is left out.
enum CSVSample {
    static func rows(_ bytes: UnsafeBufferPointer<UInt8>, dialect: CSVDialect, limit: Int, complete: Bool) -> [[[UInt8]]] {
        var rows: [[[UInt8]]] = []
        var row: [[UInt8]] = []
        var cell: [UInt8] = []
        var index = ByteOrderMark.length(atStartOf: bytes)
        var quoted = false
        var inQuotes = false
        func endRow() {
            row.append(cell)
            cell = []
            // Blank lines are no rows.
            if !(row.count == 1 && row[0].isEmpty) { rows.append(row) }
            row = []
        }
        while index < bytes.count, rows.count < limit {
            let byte = bytes[index]
            index += 1
            if inQuotes {
                if byte == UInt8(ascii: "\"") {
                    if index < bytes.count, bytes[index] == UInt8(ascii: "\"") { cell.append(byte); index += 1 } else { inQuotes = false }
                } else {
                    cell.append(byte)
                }
                continue
            }
            switch byte {
            case dialect.delimiter:
                row.append(cell)
                cell = []
                quoted = false
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                if byte == UInt8(ascii: "\r"), index < bytes.count, bytes[index] == UInt8(ascii: "\n") { index += 1 }
                endRow()
                quoted = false
            case UInt8(ascii: "\"") where dialect.style == .quoted && cell.isEmpty && !quoted:
                inQuotes = true
                quoted = true
            default:
                cell.append(byte)
            }
        }
        if complete, rows.count < limit, !cell.isEmpty || !row.isEmpty { endRow() }
        return rows
    }
}
