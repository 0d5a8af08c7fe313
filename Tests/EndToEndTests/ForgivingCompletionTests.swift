import Foundation
import Testing

/// TAB when nothing starts with the word, values of fields with many values, a list longer
/// than the screen, and "did you mean" for `show`, on the emulated screen.
@Suite("Forgiving completion", .serialized)
struct ForgivingCompletionTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    func start(rows: Int = 24, columns: Int = 120) throws -> PseudoTerminalSession {
        let session = try PseudoTerminalSession(environment: home.environment(), rows: rows, columns: columns)
        try session.waitForPrompt()
        return session
    }

    func use(_ dataset: String, in session: PseudoTerminalSession) throws {
        try session.enter("use \(dataset); count", prompt: "\(dataset)> ")
    }

    func expectLine(_ session: PseudoTerminalSession, _ expected: String) throws {
        try session.waitForScreen("the line '\(expected)'") { $0.beforeCursor == expected }
        session.skipReceived()
    }

    func leave(_ session: PseudoTerminalSession) throws {
        session.skipReceived()
        try session.send(Key.ctrlC)
        try session.waitForPrompt()
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0, "\(session.text.tail().visible)")
    }

    static func json(_ file: String) throws -> Any {
        let data = try #require(FileManager.default.contents(atPath: DataFolder.realFile(file)))
        return try JSONSerialization.jsonObject(with: data)
    }

    // MARK: - Names

    @Test("`show kingdom` TAB: the name with a word that starts so; `show norwya` TAB: the name one edit away")
    func namesLikeTheWord() throws {
        let countries = try #require(try Self.json("countries") as? [[String: Any]]).compactMap { $0["name"] as? String }
        #expect(countries.filter { $0.lowercased().contains("kingdom") } == ["United Kingdom of Great Britain and Northern Ireland"])
        #expect(!countries.contains { $0.lowercased().hasPrefix("kingdom") || $0.lowercased().hasPrefix("norwya") })
        // Tall enough for the detail views: no pager.
        let session = try start(rows: 100)
        try use("countries", in: session)
        try session.send("show kingdom" + Key.tab)
        try expectLine(session, "countries> show \"United Kingdom of Great Britain and Northern Ireland\" ")
        let shown = try session.enter("")
        #expect(shown.contains("Alpha-3            GBR"), "\(shown.visible)")
        try session.send("show norwya" + Key.tab)
        try expectLine(session, "countries> show Norway ")
        #expect(try session.enter("").contains("Alpha-3            NOR"))
        try leave(session)
    }

    @Test("`show Norwya` that finds nothing says did you mean Norway")
    func didYouMean() throws {
        let session = try start()
        try use("countries", in: session)
        let shown = try session.enter("show Norwya")
        #expect(shown.contains("nothing called 'Norwya' in countries — did you mean Norway?"), "\(shown.visible)")
        let none = try session.enter("show Qqqzzx")
        #expect(none.contains("nothing called 'Qqqzzx' in countries — try search Qqqzzx"), "\(none.visible)")
        try leave(session)
    }

    // MARK: - Values

    @Test("field values complete by prefix however many the field has")
    func manyValues() throws {
        let countries = try #require(try Self.json("countries") as? [[String: Any]])
        let codes = Set(countries.flatMap { ($0["currencies"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String } })
        #expect(codes.count > 24, "more values than the field catalogue keeps: \(codes.count)")
        #expect(codes.filter { $0.hasPrefix("EU") } == ["EUR"])
        let stations = try #require(try Self.json("stations") as? [String: Any])
        let cities = (stations["citiesFrom"] as? [[String: Any]] ?? []) + (stations["citiesTo"] as? [[String: Any]] ?? [])
        let countryTitles = Set(cities.compactMap { $0["countryTitle"] as? String })
        #expect(countryTitles.filter { $0.hasPrefix("Гер") } == ["Германия"])

        let session = try start()
        try use("countries", in: session)
        try session.send("filter currencies.code = EU" + Key.tab)
        try expectLine(session, "countries> filter currencies.code = EUR ")
        try session.send(Key.ctrlC)
        try session.waitForPrompt()
        try use("stations", in: session)
        try session.send("filter countryTitle = Гер" + Key.tab)
        try expectLine(session, "stations> filter countryTitle = Германия ")
        try leave(session)
    }

    // MARK: - Long lists

    @Test("a list longer than the screen asks first, then shows a screenful at a time")
    func displayAllPossibilities() throws {
        let stations = try #require(try Self.json("stations") as? [String: Any])
        let cities = (stations["citiesFrom"] as? [[String: Any]] ?? []) + (stations["citiesTo"] as? [[String: Any]] ?? [])
        var titles = Set<String>()
        var ids = Set<Int>()
        for city in cities {
            for station in city["stations"] as? [[String: Any]] ?? [] {
                guard let id = station["stationId"] as? Int, ids.insert(id).inserted else { continue }
                if let title = station["stationTitle"] as? String { titles.insert(title) }
            }
        }
        let session = try start(rows: 24, columns: 100)
        try use("stations", in: session)
        try session.send("show " + Key.tab + Key.tab)
        let grouped = titles.count.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
        try session.waitForScreen("the question") { $0.cursorLine == "Display all \(grouped) possibilities? (y or n)" }
        session.skipReceived()
        try session.send("n")
        try expectLine(session, "stations> show ")
        let screen = session.screen
        #expect(screen.lines[screen.cursorRow - 1] == "Display all \(grouped) possibilities? (y or n)", "\(screen.lines.suffix(3))")

        try session.send(Key.tab + Key.tab)
        try session.waitForScreen("the question again") { $0.cursorLine.hasPrefix("Display all ") }
        try session.send("y")
        let page = try session.waitForScreen("a screenful, then --More--") { $0.cursorLine == "--More--" }
        // The 23 rows above --More-- are names (one column: the longest name is wide).
        let listed = page.lines[(page.cursorRow - 23)..<page.cursorRow]
        #expect(listed.allSatisfy { titles.contains($0) }, "\(listed)")
        try session.send("q")
        try expectLine(session, "stations> show ")
        #expect(!session.screen.lines.contains("--More--"), "the --More-- line was taken back")
        try leave(session)
    }
}
