import Foundation
import Testing
@testable import AlmanacShell

/// Paths across links as a user types them, in every command; expected values read from the
/// data files with Foundation.
@Suite struct LinkPathCommandTests {
    static func objects(_ file: String) -> [[String: Any]] {
        let data = FileManager.default.contents(atPath: ShellHarness.dataDirectory + "/" + file) ?? Data()
        return (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] ?? []
    }

    /// The CSV lines the last command of `line` prints, header first.
    static func lines(_ shell: ShellHarness, _ line: String) -> [String] {
        var commands = line.components(separatedBy: "; ")
        let last = commands.removeLast()
        #expect(shell.run((["set format csv"] + commands).joined(separator: "; ")))
        let result = shell.output(last)
        #expect(result.ok, "\(result.err)")
        return result.out.split(separator: "\n").map(String.init)
    }

    /// Each distinct station's country name in English: its `countryTitle` is the country's
    /// Russian name (`Молдова`, `Беларусь` are REST Countries' `Молдавия`, `Белоруссия`).
    static func stationCountryNames() -> [String] {
        let data = FileManager.default.contents(atPath: ShellHarness.dataDirectory + "/stations.json") ?? Data()
        let raw = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        var titles: [Int: String] = [:]
        for side in ["citiesFrom", "citiesTo"] {
            for city in raw[side] as? [[String: Any]] ?? [] {
                for station in city["stations"] as? [[String: Any]] ?? [] {
                    if let id = station["stationId"] as? Int, titles[id] == nil { titles[id] = station["countryTitle"] as? String }
                }
            }
        }
        var byRussianName: [String: String] = [:]
        for country in objects("countries.json") {
            if let russian = (country["translations"] as? [String: Any])?["ru"] as? String { byRussianName[russian.lowercased()] = country["name"] as? String }
        }
        byRussianName["беларусь"] = byRussianName["белоруссия"]
        byRussianName["молдова"] = byRussianName["молдавия"]
        return titles.values.compactMap { byRussianName[$0.lowercased()] }
    }

    @Test("use people; filter homeworld.climate ~ arid lists the people of arid worlds")
    func peopleOfAridWorlds() {
        let planets = Dictionary(uniqueKeysWithValues: Self.objects("planets.json").map { ($0["url"] as? String ?? "", $0) })
        let expected = Self.objects("people.json").compactMap { person -> String? in
            guard let climate = planets[person["homeworld"] as? String ?? ""]?["climate"] as? String, climate.contains("arid") else { return nil }
            // A climate with a comma is quoted in CSV.
            return (person["name"] as? String ?? "") + "," + (climate.contains(",") ? "\"\(climate)\"" : climate)
        }
        let shell = ShellHarness(load: ["planets", "people"])
        #expect(Self.lines(shell, "use people; filter homeworld.climate ~ arid; columns name; limit 100") == ["name,homeworld.climate"] + expected)
        #expect(expected.count == 19)
    }

    @Test("stations find every country; count(stations) per country sorts Russia first; group country.region")
    func stationsAndTheirCountries() {
        let countries = Self.stationCountryNames()
        #expect(countries.count == 4037)
        var perCountry: [String: Int] = [:]
        for name in countries { perCountry[name, default: 0] += 1 }
        let top = perCountry.sorted { $0.value > $1.value }.prefix(3).map { "\($0.key),\($0.value)" }
        let shell = ShellHarness(load: ["countries", "stations"])
        #expect(Self.lines(shell, "use countries; columns name, count(stations) as n; sort n desc; limit 3") == ["name,n"] + top)
        let regions = Dictionary(uniqueKeysWithValues: Self.objects("countries.json").map { ($0["name"] as? String ?? "", $0["region"] as? String ?? "") })
        var perRegion: [String: Int] = [:]
        for name in countries { perRegion[regions[name] ?? "", default: 0] += 1 }
        let grouped = Self.lines(shell, "use stations; group country.region")
        #expect(grouped.dropFirst().map { $0.split(separator: ",").prefix(2).joined(separator: ",") }
            == perRegion.sorted { $0.value > $1.value }.map { "\($0.key),\($0.value)" })
        #expect(Self.lines(shell, "use stations; filter country.name = \"Moldova (Republic of)\"; count") == ["count", "\(perCountry["Moldova (Republic of)"] ?? -1)"])
    }

    @Test("use planets; sort count(residents) desc puts the most inhabited planets first")
    func planetsByResidents() {
        let planets = Self.objects("planets.json").map { ($0["name"] as? String ?? "", ($0["residents"] as? [Any] ?? []).count) }
        let expected = planets.sorted { $0.1 > $1.1 }.prefix(2).map { "\($0.0),\($0.1)" }
        let shell = ShellHarness(load: ["planets", "people"])
        #expect(Self.lines(shell, "use planets; sort count(residents) desc; columns name, count(residents); limit 2")
            == ["name,count(residents)"] + expected)
    }

    @Test("a declared link is followed by paths, through a second link too, and shown in details")
    func declaredLinks() throws {
        let folder = NSTemporaryDirectory() + "almanac-links-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #"[{"name":"Rex","owner_id":1},{"name":"Tom","owner_id":2},{"name":"Nemo","owner_id":1},{"name":"Stray","owner_id":9}]"#
            .write(toFile: folder + "/pets.json", atomically: true, encoding: .utf8)
        try #"[{"id":1,"name":"Ann","country":"Norway"},{"id":2,"name":"Bob","country":"Chad"}]"#
            .write(toFile: folder + "/owners.json", atomically: true, encoding: .utf8)
        let shell = ShellHarness(load: ["countries"])
        #expect(shell.run("load pets from \(folder)/pets.json; load owners from \(folder)/owners.json"))
        #expect(shell.run("link pets.owner_id to owners.id; link owners.country to countries.name"))
        #expect(Self.lines(shell, "use pets; filter owner_id.name = Ann; columns name") == ["name,owner_id.name", "Rex,Ann", "Nemo,Ann"])
        #expect(Self.lines(shell, "use pets; columns name, owner_id.country.region")
            == ["name,owner_id.country.region", "Rex,Europe", "Tom,Africa", "Nemo,Europe", "Stray,"])
        #expect(Self.lines(shell, "use owners; columns name, count(pets)") == ["name,count(pets)", "Ann,2", "Bob,1"])
        #expect(shell.run("set format table; use owners"))
        let owner = shell.output("show Ann").out
        #expect(owner.contains("  Country\n    countries  Norway\n\n  Pets\n    2 pets     Rex, Nemo\n"), "\(owner)")
        #expect(shell.run("use pets"))
        let pet = shell.output("show Rex").out
        #expect(pet.contains("  Owner_id\n    owners    Ann\n"), "\(pet)")
        let wrong = shell.output("use pets; filter owner.name = Ann")
        #expect(!wrong.ok && wrong.err.contains("'owner' is no field or link of pets; the links of pets are owner_id — did you mean 'owner_id'?"),
                "\(wrong.err)")
    }

    @Test("a path through a field that is no link names the field and the links")
    func notALink() {
        let shell = ShellHarness(load: ["planets", "people", "species"])
        let result = shell.output("use people; sort name.climate")
        #expect(!result.ok && result.err.contains("in 'name.climate', name is a field of people, not a link; the links of people are homeworld, species"),
                "\(result.err)")
    }

    @Test("TAB after a link offers the linked dataset's fields and links; a link takes no space, so a dot may follow")
    func completion() {
        let shell = ShellHarness(load: ["planets", "people", "species"])
        #expect(shell.run("use people; count; use planets; count; use species; count; use people"))
        let planetFields = Set(Self.objects("planets.json").flatMap { $0.keys })
        let offered = Completer().complete("columns name, homeworld.", in: shell.session).candidates.map(\.text)
        #expect(Set(offered.filter { !["homeworld.people", "homeworld.species"].contains($0) }) == Set(planetFields.map { "homeworld." + $0 }))
        #expect(offered.contains("homeworld.people") && offered.contains("homeworld.species"))
        #expect(Completer().complete("filter species.home", in: shell.session).insertion == "species.homeworld")
        #expect(Completer().complete("filter species.homeworld.clim", in: shell.session).insertion == "species.homeworld.climate ")
    }

    @Test("help links describes paths, and every example of it runs")
    func helpLinks() {
        let shell = ShellHarness()
        let help = shell.output("help links")
        #expect(help.ok && help.out.contains("homeworld.climate is the climate of each person's planet"), "\(help.out)")
        #expect(help.out.contains("VALUES") && help.out.contains("10,000"), "the limit on a dataset in memory a table's path joins: \(help.out)")
        for example in LinkHelp.examples where !example.hasPrefix("link pets") {
            #expect(shell.output(example).ok, "\(example)")
        }
    }

    @Test("a path across links is coloured as a field; a path through no link as unknown")
    func highlighting() {
        let shell = ShellHarness(load: ["planets", "people", "species"])
        #expect(shell.run("use people; count; use planets; count; use species; count; use people"))
        let known = Highlighter().spans(of: "sort species.homeworld.population desc", cursor: 0, in: shell.session)
        #expect(known.contains { $0.role == .field && $0.characters == 5..<33 }, "\(known)")
        let typing = Highlighter().spans(of: "sort homeworld.pop", cursor: 18, in: shell.session)
        #expect(!typing.contains { $0.role == .unknownField }, "\(typing)")
        let unknown = Highlighter().spans(of: "sort nme.climate", cursor: 0, in: shell.session)
        #expect(unknown.contains { $0.role == .unknownField && $0.characters == 5..<16 }, "\(unknown)")
    }
}
