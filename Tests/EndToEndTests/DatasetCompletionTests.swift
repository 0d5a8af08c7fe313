import Foundation
import Testing

/// TAB at the prompt with the real datasets: Cyrillic and accented record names, field values,
/// dataset names, and stations that `trip` can use. Checked on the screen as a terminal shows
/// it (the completed word replaces the typed one), then by running the line.
@Suite("Completing dataset names, values and records", .serialized)
struct DatasetCompletionTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    /// A tall, wide terminal: the detail views fit, so no pager starts.
    func start() throws -> PseudoTerminalSession {
        let session = try PseudoTerminalSession(environment: home.environment(), rows: 100, columns: 120)
        try session.waitForPrompt()
        return session
    }

    func leave(_ session: PseudoTerminalSession) throws {
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0, "\(session.text.tail().visible)")
    }

    /// Waits until the line being edited reads `expected` up to the cursor (trailing space
    /// included), then moves past it: a redrawn line holds the prompt, which the next `enter`
    /// must not take for the one after the command's output.
    func expectLine(_ session: PseudoTerminalSession, _ expected: String) throws {
        try session.waitForScreen("the line '\(expected)'") { $0.beforeCursor == expected }
        session.skipReceived()
    }

    func historyLines() -> [String] { home.read(home.historyPath)?.lines ?? [] }

    /// `use NAME`, then `count`: the count waits for the background load, so record names are
    /// there to complete. (A TAB before the load has finished has nothing to offer.)
    func use(_ dataset: String, in session: PseudoTerminalSession) throws {
        let counted = try session.enter("use \(dataset); count", prompt: "\(dataset)> ")
        // (A slow load's message may follow the count, on a busy machine.)
        #expect(counted.range(of: #"[0-9]+\n"#, options: .regularExpression) != nil, "\(counted.visible)")
    }

    /// Stations from Data/stations.json: id → (title, serves departures, serves arrivals).
    nonisolated(unsafe) static let stations: [Int: (title: String, from: Bool, to: Bool)] = {
        var result: [Int: (title: String, from: Bool, to: Bool)] = [:]
        guard let data = FileManager.default.contents(atPath: DataFolder.realFile("stations")),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return result }
        for (key, isFrom) in [("citiesFrom", true), ("citiesTo", false)] {
            for city in object[key] as? [[String: Any]] ?? [] {
                for station in city["stations"] as? [[String: Any]] ?? [] {
                    guard let id = station["stationId"] as? Int, let title = station["stationTitle"] as? String else { continue }
                    var entry = result[id] ?? (title, false, false)
                    if isFrom { entry.from = true } else { entry.to = true }
                    result[id] = entry
                }
            }
        }
        return result
    }()

    static func titles(startingWith prefix: String, where include: ((title: String, from: Bool, to: Bool)) -> Bool) -> [String] {
        stations.values.filter { $0.title.lowercased().hasPrefix(prefix.lowercased()) && include($0) }.map(\.title).sorted()
    }

    // MARK: - Record names

    @Test("`show Чистопол` TAB completes the Cyrillic station name; Enter shows it")
    func cyrillicStation() throws {
        #expect(Self.titles(startingWith: "Чистопол") { _ in true } == ["Чистополь"], "the data has one such station")
        let session = try start()
        try use("stations", in: session)
        try session.send("show Чистопол" + Key.tab)
        try expectLine(session, "stations> show Чистополь ")
        let shown = try session.enter("")
        #expect(shown.contains("Station id   9362"), "\(shown.visible)")
        #expect(shown.contains("город Чистополь, Чистопольский район, Республика Татарстан, Россия"), "\(shown.visible)")
        // Several candidates: a second TAB lists them, the line stays.
        try session.send("show Чист" + Key.tab + Key.tab)
        try session.waitFor(pattern: #"Чистополь +Чистюнька +Чистюнька \(поворот\)"#)
        try expectLine(session, "stations> show Чист")
        try session.send(Key.ctrlC)
        try session.waitForPrompt()
        try leave(session)
        #expect(historyLines() == ["use stations; count", "show Чистополь"])
    }

    @Test("`show aland` TAB inserts \"Åland Islands\" quoted; Enter shows it")
    func accentedCountry() throws {
        let session = try start()
        try use("countries", in: session)
        try session.send("show aland" + Key.tab)
        try expectLine(session, "countries> show \"Åland Islands\" ")
        let shown = try session.enter("")
        #expect(shown.contains("Åland Islands\n"), "\(shown.visible)")
        #expect(shown.contains("Mariehamn"), "the detail view of Åland Islands\n\(shown.visible)")
        #expect(shown.contains("Alpha-3            ALA"), "\(shown.visible)")
        try leave(session)
        #expect(historyLines() == ["use countries; count", "show \"Åland Islands\""])
    }

    // MARK: - Values and dataset names

    @Test("`filter region = ` TAB TAB lists the regions with their counts, most first; a value completes and runs")
    func regionValues() throws {
        let regions = ValueTally.listed("region", of: ValueReadingTests.records("countries"))
        #expect(regions.count == 6)
        let session = try start()
        try use("countries", in: session)
        try session.send("filter region = " + Key.tab + Key.tab)
        let listed = regions.map { NSRegularExpression.escapedPattern(for: $0) }.joined(separator: " +")
        try session.waitFor(pattern: "\n" + listed + " *\n")
        try expectLine(session, "countries> filter region = ")
        try session.send("Oc" + Key.tab)
        try expectLine(session, "countries> filter region = Oceania ")
        let shown = try session.enter("")
        #expect(shown.contains("Australia") && shown.contains("New Zealand"), "\(shown.visible)")
        #expect(!shown.contains("Norway"), "\(shown.visible)")
        try leave(session)
    }

    @Test("`use ` TAB TAB lists the datasets and all")
    func datasetNames() throws {
        let session = try start()
        try session.send("use " + Key.tab + Key.tab)
        try session.waitFor(pattern: #"\ncountries +species +planets +people +stations +all *\n"#)
        try expectLine(session, "almanac> use ")
        try session.send("sta" + Key.tab)
        try expectLine(session, "almanac> use stations ")
        try session.enter("", prompt: "stations> ")
        #expect(try session.enter("count").contains("4037"))
        try leave(session)
    }

    // MARK: - Trip stations

    @Test("`trip from` completes only stations that serve departures; `to` only arrivals")
    func tripStations() throws {
        // What the data says, so the test's premise is visible.
        #expect(Self.stations[9362].map { !$0.from && $0.to } == true, "9362 Чистополь serves arrivals only")
        #expect(Self.stations[9864]?.from == true, "9864 serves departures")
        let departures = Self.titles(startingWith: "Казан") { $0.from }
        #expect(departures == ["Казанский вокзал. Рязанский переулок, д.13, стр.1"], "\(departures)")
        #expect(Self.titles(startingWith: "Казан") { $0.to }.count > 1)

        let session = try start()
        try use("stations", in: session)

        // Arrivals only: nothing to complete, nothing to list.
        try session.send("trip from Чистопол" + Key.tab)
        try session.waitForRaw(Key.bell)
        try session.send(Key.tab)
        try session.waitForRaw(Key.bell)
        session.settle()
        #expect(session.screen.beforeCursor == "stations> trip from Чистопол", "\(session.screen.lines.suffix(5))")
        #expect(!session.unmatchedText.contains("Чистополь"), "no candidate offered\n\(session.unmatchedText.visible)")
        try session.send(Key.ctrlC)
        try session.waitForPrompt()

        // Among the Казан… stations only one serves departures: it completes alone, quoted.
        try session.send("trip from Казан" + Key.tab)
        try expectLine(session, "stations> trip from \"Казанский вокзал. Рязанский переулок, д.13, стр.1\" ")
        try session.send(Key.ctrlC)
        try session.waitForPrompt()

        // As the arrival, Чистополь is offered; Enter plans the trip.
        try session.send("trip from 9864 to Чистопол" + Key.tab)
        try expectLine(session, "stations> trip from 9864 to Чистополь ")
        let shown = try session.enter("")
        #expect(shown.contains("Чистополь [9362]"), "\(shown.visible)")
        #expect(shown.contains("2,459.4 km"), "\(shown.visible)")
        try leave(session)
    }
}
