import Testing
@testable import AlmanacShell

/// A cell is quoted when it holds the separator, found byte for byte.
@Suite struct DelimitedCellTests {
    @Test("the separator is found in ASCII, Cyrillic and accented text, one byte or several")
    func separatorIsFound() {
        #expect(DelimitedRows.contains("a,b", ","))
        #expect(!DelimitedRows.contains("Москва", ","))
        #expect(DelimitedRows.contains("Вена, Австрия", ","))
        #expect(DelimitedRows.contains("é;x", ";"))
        #expect(DelimitedRows.contains("a::b", "::") && !DelimitedRows.contains("a:b", "::") && !DelimitedRows.contains("", ","))
        #expect(DelimitedRows.cell("Вена, Австрия", quoting: .doubleQuotes, separator: ",") == "\"Вена, Австрия\"")
        #expect(DelimitedRows.cell("Вена", quoting: .doubleQuotes, separator: ",") == "Вена")
    }
}
