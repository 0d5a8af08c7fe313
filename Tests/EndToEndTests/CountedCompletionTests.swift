import Foundation
import Testing

/// TAB TAB after `filter FIELD = ` lists the values the records have with their counts, only
/// those among the records the conditions joined by `and` keep; a value is inserted without
/// its count. On the emulated screen.
@Suite("Value completion with counts", .serialized)
struct CountedCompletionTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    func start() throws -> PseudoTerminalSession {
        let session = try PseudoTerminalSession(environment: home.environment(), rows: 40, columns: 120)
        try session.waitForPrompt()
        return session
    }

    func expectLine(_ session: PseudoTerminalSession, _ expected: String) throws {
        try session.waitForScreen("the line '\(expected)'") { $0.beforeCursor == expected }
        session.skipReceived()
    }

    /// `Southern Europe (17)`, … for the records `keep` keeps, most first, equal counts by value.
    static func listed(_ field: String, where keep: ([String: Any]) -> Bool) -> [String] {
        ValueTally.listed(field, of: ValueReadingTests.records("countries").filter(keep))
    }

    /// The candidates as the screen lists them, in order (down, then across: one row here).
    static func pattern(_ listed: [String]) -> String {
        "\n" + listed.map { NSRegularExpression.escapedPattern(for: $0) }.joined(separator: " +") + " *\n"
    }

    /// The candidates listed under the last `typed` line above the cursor, read as libedit lays
    /// them out: down each column, then across.
    static func listing(on screen: TerminalScreen, under typed: String) -> [String] {
        let above = screen.linesAboveCursor
        guard let start = above.lastIndex(where: { $0.trimmingCharacters(in: .whitespaces) == typed }) else { return [] }
        let rows = above[(start + 1)...].map { line in
            line.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        let width = rows.map(\.count).max() ?? 0
        return (0..<width).flatMap { column in rows.compactMap { column < $0.count ? $0[column] : nil } }
    }

    @Test("after `region = Europe and subregion = ` only Europe's subregions, counted; inserted without the count")
    func narrowedByTheConditionBefore() throws {
        let europe = Self.listed("subregion") { $0["region"] as? String == "Europe" }
        let all = Self.listed("subregion") { _ in true }
        #expect(europe.count == 4 && all.count > 20, "\(europe) \(all.count)")
        let session = try start()
        try session.enter("use countries; count", prompt: "countries> ")
        try session.send("filter region = Europe and subregion = " + Key.tab + Key.tab)
        try session.waitFor(pattern: Self.pattern(europe))
        try expectLine(session, "countries> filter region = Europe and subregion = ")
        let southern = try #require(europe.first { $0.hasPrefix("Southern") })
        try session.send("Sou" + Key.tab)
        let value = String(southern.prefix { $0 != "(" }.dropLast())
        try expectLine(session, "countries> filter region = Europe and subregion = \"\(value)\" ")
        let shown = try session.enter("")
        #expect(shown.contains("Italy") && !shown.contains("Norway"), "\(shown.visible)")
        // After `or` nothing narrows: every subregion of the results.
        try session.send("filter region = Europe or subregion = " + Key.tab + Key.tab)
        try session.waitForScreen("the subregions of Southern Europe's records") { screen in
            screen.lines.contains { $0.hasPrefix(southern) }
        }
        session.skipReceived()
        try session.send(Key.ctrlC)
        try session.waitForPrompt()
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0, "\(session.text.tail().visible)")
    }

    @Test("the current results count: after `filter region = Asia`, subregion lists only Asia's")
    func underTheCurrentFilter() throws {
        let asia = Self.listed("subregion") { $0["region"] as? String == "Asia" }
        #expect(asia.count == 5, "\(asia)")
        let session = try start()
        try session.enter("use countries; filter region = Asia; count", prompt: "countries> ")
        try session.send("filter subregion = " + Key.tab + Key.tab)
        try session.waitForScreen("Asia's subregions with their counts, most first") { screen in
            Self.listing(on: screen, under: "countries> filter subregion =") == asia
        }
        try expectLine(session, "countries> filter subregion = ")
        try session.send(Key.ctrlC)
        try session.waitForPrompt()
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0, "\(session.text.tail().visible)")
    }

    @Test("after `~` a value counts the records the completed filter keeps, in memory and on a table alike")
    func containingCountsWhatTheFilterKeeps() throws {
        // planets.json's climates starting "ari", each with the planets whose climate contains it
        // (any case), as `filter climate ~ VALUE` keeps them: most first, equal counts by value.
        let climates = ValueReadingTests.records("planets").compactMap { $0["climate"] as? String }
        let values = Set(climates.filter { $0.lowercased().hasPrefix("ari") })
        let counted = values.map { value in (value, climates.filter { $0.lowercased().contains(value.lowercased()) }.count) }
            .sorted { ($1.1, $0.0) < ($0.1, $1.0) }
        let expected = counted.map { "\($0.0) (\($0.1))" }
        // Before: arid (3), the planets whose climate is arid and nothing else.
        #expect(expected == ["arid (9)", "arid, temperate, tropical (2)", "arid, rocky, windy (1)"], "\(expected)")
        let (_, url) = try Database.exported("planets", as: "tab_containing", in: home)
        let session = try start()
        for (setup, prompt) in [("use planets; count", "planets> "), ("load t from \(url); use t; count", "t> ")] {
            try session.enter(setup, prompt: prompt)
            try session.send("filter climate ~ ari" + Key.tab + Key.tab)
            try session.waitForScreen("the climates with what ~ keeps, from \(prompt)") { screen in
                Self.listing(on: screen, under: prompt + "filter climate ~ arid") == expected
            }
            session.skipReceived()
            try session.send(Key.ctrlC)
            try session.waitForPrompt()
        }
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0, "\(session.text.tail().visible)")
    }
}
