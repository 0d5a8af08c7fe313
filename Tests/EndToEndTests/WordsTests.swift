import Foundation
import Testing

/// What a new user types and the words that come back: apostrophes inside words, `==`, typo
/// suggestions, `use` alone, a data folder that does not exist, `set pagesize`, ambiguous
/// `show`, and `about`. Expected values come from Data/*.json.
@Suite("Words a new user types")
struct WordsTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    func run(_ commands: [String], arguments: [String] = [], input: String = "") throws -> PipeResult {
        var all = ["--no-rc"] + arguments
        for command in commands { all += ["-c", command] }
        return try PipeRun.run(all, input: input, environment: home.environment(), directory: home.root)
    }

    nonisolated(unsafe) static let countries = ValueReadingTests.records("countries")

    @Test("a quote inside a word is a letter: search d'Ivoire, show Yoda's species")
    func apostrophesInsideWords() throws {
        let ivoire = try #require(Self.countries.first { ($0["name"] as? String)?.contains("d'Ivoire") == true }?["name"] as? String)
        let search = try run(["use countries", "search d'Ivoire"])
        #expect(search.status == 0 && search.stderr.isEmpty, "\(search)")
        #expect(search.stdout.contains(ivoire), "\(search)")
        let yoda = try run(["use species", "show Yoda's species"])
        #expect(yoda.status == 0 && yoda.stdout.hasPrefix("Yoda's species\n"), "\(yoda)")
        // A quote at the start of a word still quotes.
        let quoted = try run(["use countries", "show \"\(ivoire)\""])
        #expect(quoted.status == 0 && quoted.stdout.hasPrefix(ivoire + "\n"), "\(quoted)")
    }

    @Test("filter region == Europe is filter region = Europe")
    func doubleEqualsIsEquals() throws {
        let europe = Self.countries.filter { ($0["region"] as? String) == "Europe" }.count
        let result = try run(["use countries", "filter region == Europe", "count"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        #expect(result.stdout.lines.last == String(europe), "\(result)")
    }

    @Test("q suggests quit; use stat suggests stations")
    func suggestionsByBeginning() throws {
        let quit = try run(["q"])
        #expect(quit.stderr.contains("unknown command 'q' — did you mean 'quit'?"), "\(quit)")
        let stations = try run(["use stat"])
        #expect(stations.stderr.contains("unknown dataset 'stat' — did you mean 'stations'?"), "\(stations)")
    }

    @Test("use alone says the dataset count answers for, even while it loads")
    func useAloneSaysTheCurrentDataset() throws {
        let result = try run(["use countries", "use", "count"])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.lines
        #expect(lines.first == "using countries (\(Self.countries.count) countries)", "\(result)")
        #expect(lines.last == String(Self.countries.count), "\(result)")
        let all = try run(["use"])
        #expect(all.stdout.hasPrefix("using all datasets: countries, species, planets, people, stations"), "\(all)")
    }

    @Test("--data with a folder that does not exist says so at start; a script exits 2")
    func missingDataFolder() throws {
        let missing = home.root + "/no-such-folder"
        let result = try run(["count"], arguments: ["--data", missing])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("the data folder \(missing) does not exist"), "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
    }

    @Test("at the prompt, a missing --data folder is said once: no load failure per dataset after it")
    func missingDataFolderAtThePrompt() throws {
        let missing = home.root + "/no-such-folder"
        let session = try PseudoTerminalSession(["--no-rc", "--data", missing], environment: home.environment(), rows: 30, columns: 200)
        try session.waitForPrompt()
        // Every bundled dataset has tried and failed (datasets says so), and the prompt is back.
        var failed = 0
        for _ in 0..<50 where failed < 5 {
            failed = try session.enter("datasets").components(separatedBy: "failed: ").count - 1
            if failed < 5 { Thread.sleep(forTimeInterval: 0.1) }
        }
        #expect(failed == 5, "\(session.text.visible)")
        _ = try session.enter("count")
        // Everything it printed, scrolled away or not.
        let all = session.text
        #expect(all.components(separatedBy: "the data folder \(missing) does not exist").count == 2, "\(all.visible)")
        #expect(!all.contains("load failed"), "\(all.visible)")
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0)
    }

    @Test("set pagesize 0 and -3: one rule, one message", arguments: ["0", "-3", "1000001", "ten"])
    func pageSizeRule(_ value: String) throws {
        let result = try run(["set pagesize \(value)", "set pagesize"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("pagesize must be a whole number from 1 to 1,000,000, or auto — not '\(value)'"), "\(result)")
        #expect(result.stdout == "auto\n", "\(result)")
    }

    /// Stations named exactly `name`, ignoring case, as show compares names: id → city.
    static func stations(named name: String) -> [Int: String] {
        guard let data = FileManager.default.contents(atPath: DataFolder.realFile("stations")),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
        var result: [Int: String] = [:]
        for key in ["citiesFrom", "citiesTo"] {
            for city in object[key] as? [[String: Any]] ?? [] {
                for station in city["stations"] as? [[String: Any]] ?? [] {
                    guard let id = station["stationId"] as? Int, let title = station["stationTitle"] as? String,
                          title.lowercased() == name.lowercased(), result[id] == nil else { continue }
                    result[id] = station["cityTitle"] as? String ?? ""
                }
            }
        }
        return result
    }

    @Test("an ambiguous show in a script: one error line with ids and cities, and how many more")
    func ambiguousShowInAScript() throws {
        let stations = Self.stations(named: "Трасса")
        #expect(stations.count > 10)
        let result = try run(["use stations", "show Трасса"])
        #expect(result.status == 1 && result.stdout.isEmpty, "\(result)")
        let lines = result.stderr.lines
        #expect(lines.count == 1, "every error is one line in a script\n\(result)")
        let prefix = "-c:2:6: 'Трасса' matches \(stations.count) stations — be more precise or use an id: "
        let line = try #require(lines.first)
        #expect(line.hasPrefix(prefix), "\(result)")
        let items = line.dropFirst(prefix.count).components(separatedBy: "; ")
        #expect(items.count == 11 && items.last == "… and \(stations.count - 10) more", "\(result)")
        for item in items.dropLast() {
            let id = try #require(Int(item.prefix { $0.isNumber }), "\(item)")
            let city = try #require(stations[id], "\(item) is a station called Трасса")
            #expect(item.hasSuffix("(\(city))"), "\(item)")
        }
    }

    @Test("an ambiguous show at the prompt lists id, name and city, as many as fit the screen")
    func ambiguousShowAtThePrompt() throws {
        let stations = Self.stations(named: "Трасса")
        let session = try PseudoTerminalSession(["--no-rc"], environment: home.environment(), rows: 24, columns: 100)
        try session.waitForPrompt()
        _ = try session.enter("use stations; count", prompt: "stations> ")
        try session.sendLine("show Трасса")
        let screen = try session.waitForScreen("the candidates and how many more") { $0.lines.contains { $0.hasPrefix("  … and ") } }
        let lines = screen.lines
        let heading = try #require(lines.firstIndex { $0.hasSuffix("'Трасса' matches \(stations.count) stations — be more precise or use an id:") },
                                   "\(lines.joined(separator: "\n"))")
        let more = try #require(lines.firstIndex { $0.hasPrefix("  … and ") })
        let listed = lines[(heading + 1)..<more]
        // 24 rows: the heading, 20 candidates, the "more" line and the prompt.
        #expect(listed.count == 20, "\(lines.joined(separator: "\n"))")
        #expect(lines[more] == "  … and \(stations.count - 20) more", "\(lines.joined(separator: "\n"))")
        for line in listed {
            let parts = line.split(separator: " ")
            let id = try #require(Int(parts[0]), "\(line)")
            let city = try #require(stations[id], "\(line)")
            #expect(line.hasSuffix(city) && line.lowercased().contains("трасса"), "\(line)")
        }
        // The list is on the screen before the prompt: a Ctrl-D typed while the terminal is
        // still cooked is the line discipline's end of file, which libedit never sees.
        try session.waitUntilReady()
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0)
    }

    @Test("about names who made almanac and each dataset's count, in a script too")
    func aboutNamesTheMakersAndCounts() throws {
        let result = try run(["about"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("Author: the almanac project and its contributors"), "\(result)")
        let stations = Set(DatasetCompletionTests.stations.keys).count
        for line in ["countries (\(Self.countries.count) countries)", "species (\(ValueReadingTests.records("species").count) species)",
                     "stations (\(ValueReadingTests.grouped(String(stations))) stations in "] {
            #expect(result.stdout.contains(line), "\(line) in\n\(result)")
        }
    }
}
