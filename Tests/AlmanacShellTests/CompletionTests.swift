import Testing
@testable import AlmanacShell

@Suite struct CompletionTests {
    let shell = ShellHarness()

    func complete(_ text: String) -> Completer.Result {
        Completer().complete(text, in: shell.session)
    }

    @Test func commandNames() {
        #expect(complete("he").insertion == "help ")
        let several = complete("s")
        #expect(several.candidates.map(\.text).contains("search"))
        #expect(several.candidates.map(\.text).contains("set"))
    }

    @Test func longestCommonPrefix() {
        // search, set, show, sort: the common prefix of "se" is "se" itself, so nothing is inserted.
        #expect(complete("se").insertion == nil)
        #expect(complete("sea").insertion == "search ")
    }

    @Test func datasetNames() {
        #expect(complete("use cou").insertion == "countries ")
        #expect(complete("use ").candidates.map(\.text).contains("all"))
    }

    @Test func accentedNamesAreQuotedWhenNeeded() throws {
        _ = shell.output("use countries")
        _ = shell.output("count")
        #expect(complete("show aland").insertion == "\"Åland Islands\" ")
    }

    @Test func cyrillicNames() throws {
        _ = shell.output("use stations")
        _ = shell.output("count")
        let result = complete("show Чистопол")
        #expect(result.candidates.map(\.text).contains("Чистополь"))
    }

    @Test func fieldValuesWhenFew() {
        _ = shell.output("use countries")
        _ = shell.output("count")
        let regions = complete("filter region = ").candidates.map(\.text)
        #expect(regions == ["Africa", "Americas", "Asia", "Europe", "Oceania", "Polar"])
        #expect(complete("filter popu").insertion == "population ")
        #expect(complete("filter currencies.co").insertion == "currencies.code ")
    }

    @Test func declaredKeywordsFlagsAndWords() {
        _ = shell.output("use stations")
        _ = shell.output("count")
        func texts(_ line: String) -> [String] { complete(line).candidates.map(\.text) }
        #expect(texts("trip ") == ["from", "--map", "--countries"])
        #expect(Array(texts("trip from 9864 ").suffix(3)) == ["to", "--map", "--countries"])
        #expect(texts("trip from 9864 to 9362 on ") == ["today", "tomorrow", "monday", "tuesday", "wednesday", "thursday", "friday",
                                                      "saturday", "sunday", "next"])
        #expect(texts("map ") == ["world", "--size"])
        #expect(texts("map world ") == ["--size"])
        #expect(texts("map --size ") == [])
        #expect(texts("export out.csv ") == ["--force"])
        #expect(texts("load quotes ") == ["from"])
        #expect(texts("load ") == ["countries", "species", "planets", "people", "stations", "from"])
        #expect(texts("set format ") == ["table", "expanded", "json", "ndjson", "csv", "tsv", "markdown"])
        #expect(texts("set format json ") == [])
        #expect(texts("page ") == ["next", "prev", "first", "last"])
        #expect(texts("help so") == ["sort"])
        #expect(texts("help k") == ["keys"])
    }

    @Test func quoting() {
        #expect(Completer.quoted("Åland Islands", close: true) == "\"Åland Islands\"")
        #expect(Completer.quoted("plain", close: true) == "plain")
        #expect(Completer.quoted(#"say "hi""#, close: true) == #""say \"hi\"""#)
        #expect(Completer.quoted("United ", close: false) == "\"United ")
    }
}
