import AlmanacCore
import Testing
@testable import AlmanacShell

/// A table of text cells rendered in the table format.
func renderTable(_ titles: [String], _ rows: [[String]], numeric: Set<Int> = [], width: Int?) -> String {
    let columns = titles.enumerated().map { ResultColumn($0.element, numeric.contains($0.offset) ? .integer : .text) }
    let table = ResultTable(columns: columns, rows: rows.map { $0.map { ResultValue.text($0) } })
    let sink = TextSink()
    TableRenderer.render(CommandResult(table), to: sink, context: RenderContext(width: width, color: false, format: .table))
    return String(sink.text.dropLast())
}

@Suite struct RenderingTests {
    @Test func displayWidthCountsCells() {
        #expect(TextWidth.of("abc") == 3)
        #expect(TextWidth.of("東京") == 4)
        #expect(TextWidth.of("Москва") == 6)
        #expect(TextWidth.of("e\u{301}") == 1)
    }

    @Test func tableColumnsAlignWithCJKCyrillicAndPersian() {
        let text = renderTable(["name", "native", "n"], [["Japan", "日本", "1"], ["Russia", "Россия", "22"], ["Iran", "ایران", "333"]],
                               numeric: [2], width: nil)
        let lines = text.split(separator: "\n").map(String.init)
        // Every cell of the third column ends at the same display column.
        let widths = lines.map { TextWidth.of($0) }
        #expect(Set(widths).count == 1, "\(lines)")
        // Right-to-left text is isolated so it cannot reorder the columns after it.
        #expect(lines[4].contains("\u{2068}ایران\u{2069}"))
    }

    @Test func longCellsAreCutToTheTerminal() {
        let text = renderTable(["a", "b"], [[String(repeating: "x", count: 100), "y"]], width: 40)
        #expect(text.split(separator: "\n").allSatisfy { TextWidth.of($0) <= 40 })
        #expect(text.contains("…"))
    }

    @Test func theLeadingColumnIsCutLastSoRowsStayTellable() {
        let rows = [["currencies.code", "list of text", "AFN, EUR, USD, GBP, CHF"], ["currencies.name", "list of text", "Afghan afghani"]]
        let lines = renderTable(["field", "type", "example"], rows, width: 40).split(separator: "\n").map(String.init)
        // The field keeps its 15 columns; type and example share the other 21 (40 − 15 − 2 × 2).
        #expect(lines[2].hasPrefix("currencies.code  list of "), "\(lines)")
        #expect(lines[3].hasPrefix("currencies.name  list of "), "\(lines)")
        #expect(lines.allSatisfy { TextWidth.of($0) <= 40 } && TextWidth.of(lines[2]) == 40, "\(lines)")
        // Narrower than the floor of the others: then the leading column gives way too.
        let narrow = renderTable(["field", "type", "example"], rows, width: 24).split(separator: "\n").map(String.init)
        // 24 − 6 − 6 − 2 × 2 leaves the field 8 columns.
        #expect(narrow[2].hasPrefix("currenc…  "), "\(narrow)")
    }

    @Test func controlCharactersAreShownNotSent() {
        #expect(SafeText.escape("a\u{1B}[31mb") == "a\\e[31mb")
        #expect(SafeText.escape("x\u{202E}y") == "x\\u{202E}y")
        #expect(SafeText.escape("line\nbreak") == "line\\nbreak")
        #expect(SafeText.escape("\u{9B}") == "\\x9B")
    }
}
