import Foundation
import Testing

/// Tables on a terminal, checked on the screen a person sees: they fit its width by cutting
/// their widest text column (never wrapping a line), switch to one block per record under
/// `set expanded auto` when they would not fit, and cut a huge value instead of printing it.
@Suite("Tables fit the terminal")
struct TableFittingTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    func start(columns: Int, rows: Int = 40) throws -> PseudoTerminalSession {
        let session = try PseudoTerminalSession(["--no-rc"], environment: home.environment(), rows: rows, columns: columns)
        try session.waitForPrompt()
        try session.waitUntilReady()
        try session.enter("set pager off")
        return session
    }

    func leave(_ session: PseudoTerminalSession) throws {
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0)
    }

    /// The first page of ten of `search моск` (then `more`) on a terminal `columns` wide: the
    /// session, the screen and the line of the table's header.
    func moscowStations(columns: Int, then more: [String] = []) throws -> (session: PseudoTerminalSession, screen: TerminalScreen, header: Int) {
        let session = try start(columns: columns)
        try session.enter("use stations", prompt: "stations> ")
        try session.enter("set pagesize 10")
        try session.enter("search моск")
        for command in more { try session.enter(command) }
        let screen = session.screen
        let header = try #require(screen.lines.lastIndex { $0.hasPrefix(" #  stationId") }, "\(screen.lines.suffix(20))")
        return (session, screen, header)
    }

    @Test("a wide table cuts its widest text columns with … and every row stays one line")
    func wideTableIsCut() throws {
        let (session, screen, header) = try moscowStations(columns: 80)
        let rows = Array(screen.lines[(header + 2)..<(header + 12)])
        #expect(rows.allSatisfy { $0.range(of: #"^ *[0-9]+  +[0-9]+  "#, options: .regularExpression) != nil },
                "every row starts with its number and id: none wrapped\n\(rows.joined(separator: "\n"))")
        #expect(rows.contains { $0.contains("…") }, "long titles are cut\n\(rows.joined(separator: "\n"))")
        #expect(screen.lines[header + 12].hasPrefix("rows 1–10 of "), "\(screen.lines[header + 12])")
        try leave(session)
    }

    @Test("set expanded auto: a table wider than the terminal becomes one block per record; a narrow one stays a table")
    func expandedAuto() throws {
        let session = try start(columns: 80)
        try session.enter("use countries", prompt: "countries> ")
        try session.enter("set expanded auto")
        let wide = try session.enter("search united")
        #expect(wide.contains("─[ 1 ]"), "\(wide.visible)")
        try session.waitForScreen("a name line of the first record") { screen in
            screen.lines.contains { $0.range(of: #"^name +United "#, options: .regularExpression) != nil }
        }
        try session.enter("columns name, region")
        let narrow = try session.enter("search united")
        #expect(!narrow.contains("─[ 1 ]") && narrow.contains("name"), "\(narrow.visible)")
        try leave(session)
    }

    @Test("a 2 MB value is cut to the terminal's width, not printed whole")
    func hugeValueIsCut() throws {
        let huge = String(repeating: "ab", count: 1 << 20)
        let file = try home.write("[{\"name\": \"Big\", \"text\": \"\(huge)\"}, {\"name\": \"Small\", \"text\": \"tiny\"}]", to: "big.json")
        let session = try start(columns: 100)
        try session.enter("load big from \(file)")
        try session.enter("use big", prompt: "big> ")
        let before = session.rawText.utf8.count
        try session.enter("page")
        let printed = session.rawText.utf8.count - before
        #expect(printed < 20_000, "the listing printed \(printed) bytes")
        let screen = session.screen
        #expect(screen.lines.contains { $0.hasPrefix("1  Big") && $0.hasSuffix("…") }, "\(screen.lines.suffix(8))")
        try leave(session)
    }

    /// The stations `search моск` lists on its first page of ten, as the data has them: id,
    /// title, city, country (search orders them; the test only needs each row's values).
    static func stationRow(_ line: String) -> (id: Int, rest: String)? {
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard parts.count == 3, Int(parts[0]) != nil, let id = Int(parts[1]) else { return nil }
        return (id, String(parts[2]))
    }

    /// Each station's city and country from Data/stations.json.
    static let places: [Int: (city: String, country: String)] = {
        guard let data = FileManager.default.contents(atPath: DataFolder.realFile("stations")),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
        var places: [Int: (city: String, country: String)] = [:]
        for key in ["citiesFrom", "citiesTo"] {
            for city in object[key] as? [[String: Any]] ?? [] {
                for station in city["stations"] as? [[String: Any]] ?? [] {
                    guard let id = station["stationId"] as? Int, places[id] == nil else { continue }
                    places[id] = (station["cityTitle"] as? String ?? "", station["countryTitle"] as? String ?? "")
                }
            }
        }
        return places
    }()

    @Test("at 120 and 100 columns the short columns stay whole and long station titles give way", arguments: [120, 100])
    func shortColumnsStayWhole(_ columns: Int) throws {
        let (session, screen, header) = try moscowStations(columns: columns)
        #expect(screen.lines[header].hasSuffix("cityTitle     regionTitle  countryTitle  directions"), "titles whole: \(screen.lines[header])")
        let rows = screen.lines[(header + 2)..<(header + 12)].compactMap(Self.stationRow)
        #expect(rows.count == 10, "\(screen.lines.suffix(16))")
        for row in rows {
            let place = try #require(Self.places[row.id])
            #expect(row.rest.contains("  \(place.city)  ") && row.rest.contains("  \(place.country)  "), "\(row)")
        }
        #expect(screen.lines[(header + 2)..<(header + 12)].allSatisfy { $0.count <= columns })
        try leave(session)
    }

    @Test("at 100 columns the sort key stays whole while the long titles give way")
    func sortKeyStaysWhole() throws {
        let (session, screen, header) = try moscowStations(columns: 100, then: ["sort cityTitle"])
        let rows = screen.lines[(header + 2)..<(header + 12)].compactMap(Self.stationRow)
        #expect(rows.count == 10)
        let cities = rows.map { Self.places[$0.id]?.city ?? "?" }
        for (row, city) in zip(rows, cities) { #expect(row.rest.contains("  \(city)  "), "\(city) whole in \(row.rest)") }
        #expect(rows.contains { $0.rest.contains("…") }, "the long titles are cut")
        try leave(session)
    }

    @Test("describe never cuts a number: too wide for 120 columns, it shows one field at a time")
    func describeKeepsNumbersWhole() throws {
        let session = try start(columns: 120)
        try session.enter("use countries", prompt: "countries> ")
        try session.enter("describe population, area")
        let populations = ValueReadingTests.records("countries").compactMap { $0["population"] as? Int }
        let largest = ValueReadingTests.grouped(String(populations.max()!))
        let screen = session.screen
        #expect(screen.lines.contains("max           \(largest)"), "\(screen.lines.suffix(30))")
        #expect(!screen.lines.contains { $0.contains("…") }, "\(screen.lines.suffix(30))")
        // Narrow enough to fit, it stays a table.
        try session.enter("describe region")
        #expect(session.screen.lines.contains { $0.hasPrefix("region  text") }, "\(session.screen.lines.suffix(8))")
        try leave(session)
    }
}
