import Foundation
import Testing

/// TAB on a name typed as several words without quotes completes the whole name; a name's
/// translations and other spellings complete as search finds them; field names complete
/// forgivingly. On the emulated screen (ForgivingCompletionTests' suite, its helpers);
/// expected names come from Data/*.json.
extension ForgivingCompletionTests {
    func cancelLine(_ session: PseudoTerminalSession) throws {
        // A listing redraws the prompt: the next prompt to wait for is the one after Ctrl-C.
        session.settle()
        session.skipReceived()
        try session.send(Key.ctrlC)
        try session.waitForPrompt()
    }

    nonisolated(unsafe) static let countries = ValueReadingTests.records("countries")

    static func countryNames(startingWith prefix: String) -> [String] {
        countries.compactMap { $0["name"] as? String }.filter { $0.lowercased().hasPrefix(prefix) }.sorted()
    }

    @Test("`show united k` TAB completes the whole name; `show united ` TAB TAB lists the names starting with both words")
    func countryOfSeveralWords() throws {
        let kingdom = Self.countryNames(startingWith: "united k")
        #expect(kingdom.count == 1)
        let united = Self.countryNames(startingWith: "united ")
        #expect(united.count > 1)
        let session = try start(rows: 100)
        try use("countries", in: session)
        try session.send("show united k" + Key.tab)
        try expectLine(session, "countries> show \"\(kingdom[0])\" ")
        let shown = try session.enter("")
        #expect(shown.contains("Alpha-3            GBR"), "\(shown.visible)")
        try session.send("show united " + Key.tab + Key.tab)
        try session.waitForScreen("the United … names listed") { screen in united.allSatisfy { name in screen.lines.contains { $0.contains(name) } } }
        // The listing's lines (the detail shown before has its rows indented).
        let listed = session.screen.lines.filter { $0.hasPrefix("United") }
        // (The detail shown before is titled with one of them.)
        #expect(Set(listed.flatMap { $0.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) } }.filter { !$0.isEmpty }) == Set(united),
                "\(listed)")
        try cancelLine(session)
        try leave(session)
    }

    @Test("`trip from 9864 to Казанский в` TAB offers the arrivals starting with both words, not every station starting with В")
    func stationOfSeveralWords() throws {
        let arrivals = DatasetCompletionTests.titles(startingWith: "Казанский в") { $0.to }
        #expect(arrivals.count == 3, "\(arrivals)")
        let every = DatasetCompletionTests.titles(startingWith: "в") { $0.to }
        #expect(every.count > 100)
        let session = try start(rows: 100)
        try use("stations", in: session)
        // Their common beginning is inserted in an open quote, replacing both words; a second TAB lists them.
        try session.send("trip from 9864 to Казанский в" + Key.tab)
        try expectLine(session, "stations> trip from 9864 to \"Казанский вокзал")
        try session.send(Key.tab)
        try session.waitForScreen("the three arrivals listed") { screen in arrivals.allSatisfy { name in screen.lines.contains { $0.contains(name) } } }
        #expect(!every.filter { !$0.hasPrefix("Казанский") }.contains { name in session.screen.lines.contains { $0.contains(name) } })
        try cancelLine(session)
        // The one departure completes whole.
        try session.send("trip from Казанский в" + Key.tab)
        try expectLine(session, "stations> trip from \"Казанский вокзал. Рязанский переулок, д.13, стр.1\" ")
        try cancelLine(session)
        try leave(session)
    }

    @Test("`show Герм` TAB completes the Russian name Германия, which show finds")
    func translationsComplete() throws {
        // Every other name search looks at for a country: spellings and translations.
        var others: [String: String] = [:]
        for country in Self.countries {
            let name = country["name"] as? String ?? ""
            for spelling in country["altSpellings"] as? [String] ?? [] { others[spelling] = name }
            for (_, translation) in country["translations"] as? [String: Any] ?? [:] {
                if let text = translation as? String { others[text] = name }
            }
        }
        let matches = others.keys.filter { $0.lowercased().hasPrefix("герм") }
        #expect(matches == ["Германия"] && others["Германия"] == "Germany", "\(matches)")
        #expect(Self.countryNames(startingWith: "герм").isEmpty)
        let session = try start(rows: 100)
        try use("countries", in: session)
        try session.send("show Герм" + Key.tab)
        try expectLine(session, "countries> show Германия ")
        let shown = try session.enter("")
        #expect(shown.contains("Alpha-3            DEU"), "\(shown.visible)")
        try leave(session)
    }

    @Test("`sort popluation` TAB completes population, as record names complete forgivingly")
    func fieldNamesCompleteForgivingly() throws {
        let fields = Set(Self.countries.flatMap(\.keys))
        #expect(fields.contains("population") && !fields.contains { $0.hasPrefix("popl") })
        let session = try start(rows: 100)
        try use("countries", in: session)
        try session.send("sort popluation" + Key.tab)
        try expectLine(session, "countries> sort population ")
        try cancelLine(session)
        try session.send("describe captial" + Key.tab)
        try expectLine(session, "countries> describe capital ")
        try cancelLine(session)
        try leave(session)
    }
}
