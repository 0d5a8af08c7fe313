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

    @Test("set pagesize 0 and -3: one rule, one message", arguments: ["0", "-3", "1000001", "ten"])
    func pageSizeRule(_ value: String) throws {
        let result = try run(["set pagesize \(value)", "set pagesize"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("pagesize must be a whole number from 1 to 1,000,000, or auto — not '\(value)'"), "\(result)")
        #expect(result.stdout == "auto\n", "\(result)")
    }

    @Test("an ambiguous show lists id, title and city of the candidates, and how many more")
    func ambiguousShowListsCandidates() throws {
        // Exactly that name, ignoring case, as show compares names.
        let stations = DatasetCompletionTests.stations.filter { $0.value.title.lowercased() == "трасса" }
        #expect(stations.count > 20)
        let result = try run(["use stations", "show Трасса"])
        #expect(result.status == 1, "\(result)")
        let lines = result.stderr.lines
        #expect(lines.first == "-c:2: 'Трасса' matches \(stations.count) stations — be more precise or use an id:", "\(result)")
        let listed = lines.dropFirst().filter { $0.hasPrefix("  ") && !$0.contains("more") }
        #expect(listed.count == 20, "\(result)")
        for line in listed {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            let id = try #require(Int(parts[0]), "\(line)")
            #expect(stations[id] != nil, "\(line)")
            #expect(line.lowercased().contains("трасса") && line.contains("город "), "\(line)")
        }
        #expect(lines.last == "  … and \(stations.count - 20) more", "\(result)")
    }

    @Test("about names who made almanac and each dataset's count, in a script too")
    func aboutNamesTheMakersAndCounts() throws {
        let result = try run(["about"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("Made by the almanac project and its contributors."), "\(result)")
        let stations = Set(DatasetCompletionTests.stations.keys).count
        for line in ["countries (\(Self.countries.count) countries)", "species (\(ValueReadingTests.records("species").count) species)",
                     "stations (\(ValueReadingTests.grouped(String(stations))) stations in "] {
            #expect(result.stdout.contains(line), "\(line) in\n\(result)")
        }
    }
}
