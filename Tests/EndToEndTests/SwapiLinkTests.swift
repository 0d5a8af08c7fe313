import Foundation
import Testing

/// SWAPI details name what their URLs point at — a person's homeworld and species, a planet's
/// residents, everyone's films — instead of showing the URLs. Expected names are looked up
/// here in Data/planets.json, people.json and species.json.
@Suite("SWAPI links read as names")
struct SwapiLinkTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    func succeed(_ commands: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try home.succeed(commands, options: ["--no-rc"], sourceLocation: sourceLocation)
    }

    nonisolated(unsafe) static let people = ValueReadingTests.records("people")
    nonisolated(unsafe) static let planets = ValueReadingTests.records("planets")
    nonisolated(unsafe) static let species = ValueReadingTests.records("species")

    /// The name of the record with `url` in `records`.
    static func name(of url: String, in records: [[String: Any]]) -> String? {
        records.first { ($0["url"] as? String) == url }?["name"] as? String
    }

    static func id(_ record: [String: Any]) -> String {
        (record["url"] as? String)?.split(separator: "/").last.map(String.init) ?? "?"
    }

    @Test("a person's homeworld, species and films are names; no detail shows a URL")
    func peopleDetails() throws {
        let shown = try succeed(["use people"] + Self.people.map { "show \(Self.id($0))" })
        #expect(!shown.contains("http"), "\(shown)")
        let withSpecies = try #require(Self.people.first { !(($0["species"] as? [String]) ?? []).isEmpty })
        let speciesName = try #require(Self.name(of: ((withSpecies["species"] as? [String]) ?? [])[0], in: Self.species))
        let homeworldURL = try #require(withSpecies["homeworld"] as? String)
        let homeworld = try #require(Self.name(of: homeworldURL, in: Self.planets))
        let detail = try succeed(["use people", "show \(Self.id(withSpecies))"])
        #expect(detail.hasPrefix((withSpecies["name"] as? String ?? "?") + "\n"), "\(detail)")
        #expect(detail.contains("Species      \(speciesName)\n"), "\(detail)")
        #expect(detail.contains("Homeworld    \(homeworld)\n"), "\(detail)")
        let luke = try succeed(["use people", "show Luke Skywalker"])
        #expect(luke.contains("Films        A New Hope, The Empire Strikes Back, Return of the Jedi, Revenge of the Sith\n"), "\(luke)")
    }

    @Test("a planet's residents are names, in the source's order")
    func planetResidents() throws {
        let shown = try succeed(["use planets"] + Self.planets.map { "show \(Self.id($0))" })
        #expect(!shown.contains("http"), "\(shown)")
        let tatooine = try #require(Self.planets.first { ($0["name"] as? String) == "Tatooine" })
        let residents = ((tatooine["residents"] as? [String]) ?? []).compactMap { Self.name(of: $0, in: Self.people) }
        #expect(residents.count > 1)
        let detail = try succeed(["use planets", "show Tatooine"])
        #expect(detail.contains("Residents        \(residents.joined(separator: ", "))\n"), "\(detail)")
        let population = try #require(tatooine["population"] as? String)
        #expect(detail.contains("Population       \(ValueReadingTests.grouped(population))\n"), "\(detail)")
    }

    @Test("species details name films by title too, and leave out a homeworld called unknown")
    func speciesFilmsAndUnknownHomeworld() throws {
        let shown = try succeed(["use species"] + Self.species.map { "show \(Self.id($0))" })
        #expect(!shown.contains("http") && !shown.contains("Episode"), "\(shown)")
        let yoda = try #require(Self.species.first { ($0["name"] as? String) == "Yoda's species" })
        let yodaHome = try #require(yoda["homeworld"] as? String)
        #expect(Self.name(of: yodaHome, in: Self.planets) == "unknown")
        let detail = try succeed(["use species", "show \"Yoda's species\""])
        #expect(!detail.contains("Homeworld") && !detail.contains("from unknown"), "\(detail)")
    }

    @Test("a loaded films dataset gives the titles; links to what is not loaded read as 'vehicle 14'")
    func loadedFilmsAndUnloadedResources() throws {
        let films = try home.write("""
            [{"title": "Un nouvel espoir", "episode_id": 4, "url": "https://swapi.dev/api/films/1/"}]
            """, to: "films.json")
        let person = try home.write("""
            [{"name": "Test Pilot", "homeworld": "https://swapi.dev/api/planets/1/",
              "films": ["https://swapi.dev/api/films/1/", "https://swapi.dev/api/films/2/"],
              "vehicles": ["https://swapi.dev/api/vehicles/14/"], "url": "https://swapi.dev/api/people/999/"}]
            """, to: "pilot.json")
        let detail = try succeed(["load films from \(films)", "load people from \(person)", "use people", "show Test Pilot"])
        #expect(detail.contains("Films      Un nouvel espoir, The Empire Strikes Back\n"), "\(detail)")
        #expect(detail.contains("Vehicles   vehicle 14\n"), "\(detail)")
        let homeworld = try #require(Self.name(of: "https://swapi.dev/api/planets/1/", in: Self.planets))
        #expect(detail.contains("Homeworld  \(homeworld)\n"), "\(detail)")
    }

    @Test("a link from a list writes a list, bundled or declared: people's species, one or none each")
    func bundledAndDeclaredLinksWriteOneShape() throws {
        let lines = ["columns name, species.name", "limit 3"]
        let bundled = try home.succeed(["use people"] + lines, options: ["--no-rc"], format: "json")
        let declared = try home.succeed(["load mp from \(DataFolder.realFile("people"))", "load ms from \(DataFolder.realFile("species"))",
                                         "link mp.species to ms.url", "use mp"] + lines, options: ["--no-rc"], format: "json")
        // Data/people.json: Luke's species is [], C-3PO's and R2-D2's the Droid's url.
        #expect(bundled == """
            [
              {"name":"Luke Skywalker","species.name":null},
              {"name":"C-3PO","species.name":["Droid"]},
              {"name":"R2-D2","species.name":["Droid"]}
            ]

            """, "\(bundled)")
        #expect(declared == bundled, "\(declared)")
        // The field itself reads as the names, in a list too.
        let names = try home.succeed(["use people", "columns name, species", "limit 2"], options: ["--no-rc"], format: "json")
        #expect(names.contains(#"{"name":"C-3PO","species":["Droid"]}"#), "\(names)")
    }
}
