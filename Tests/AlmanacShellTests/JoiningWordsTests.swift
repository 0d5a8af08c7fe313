import Testing
@testable import AlmanacShell

/// The words people add to geography commands. `path Portugal to Poland` and `path from
/// Portugal to Poland` read as `path Portugal Poland` (they said "unexpected 'Poland'"):
/// answered alike, `to` and `from` coloured as keywords, TO completing after `to`; a quoted
/// "to" stays a country (Tonga's code). `near Москва 5 km` reads as `near Москва within 5 km`
/// (it said "missing within N km"); a number alone is not a radius.
@Suite struct JoiningWordsTests {
    let shell = ShellHarness(load: ["countries", "stations"])

    @Test func joiningWordsReadAsThePlainForm() {
        _ = shell.output("use countries")
        let plain = shell.output("path Portugal Poland")
        #expect(plain.ok && plain.out.contains("4 borders from Portugal to Poland over land"), "\(plain.err)")
        #expect(shell.output("path Portugal to Poland").out == plain.out)
        #expect(shell.output("path from Portugal TO Poland --map").ok)
        #expect(shell.output("path \"to\" Poland").out.contains("no land route from Tonga to Poland"))
    }

    @Test func joiningWordsAreKeywordsAndTOCompletesAfterThem() {
        _ = shell.output("use countries")
        _ = shell.output("count")  // waits for the load: TAB offers what is loaded
        let words = [Word("from", column: 6), Word("Portugal", column: 11), Word("to", column: 20), Word("Poland", column: 23)]
        #expect(PathCommand.roles(of: words, in: shell.session).map(\.role) == [.keyword, .plain, .keyword, .plain])
        #expect(Completer().complete("path Portugal Pol", in: shell.session).candidates.map(\.text) == ["Poland"])
        let offered = Completer().complete("path Portugal to Pol", in: shell.session).candidates.map(\.text)
        #expect(offered == ["Poland"])
        #expect(Completer().complete("path from Portugal ", in: shell.session).candidates.count == 250)
        #expect(Completer().complete("path from Portugal to Poland ", in: shell.session).candidates.map(\.text) == ["--map"])
    }

    @Test func aClosingNumberAndKmAreTheRadius() {
        _ = shell.output("use stations")
        let plain = shell.output("near Москва within 5 km")
        #expect(plain.ok, "\(plain.err)")
        #expect(shell.output("near Москва 5 km").out == plain.out)
        #expect(shell.output("near 55.75, 37.62 20 km").out == shell.output("near 55.75, 37.62 within 20 km").out)
        #expect(shell.output("near Москва 5").err.contains("missing within N km"))
        #expect(shell.output("near \"Москва 5 km\"").err.contains("missing within N km"))
    }
}
