import Foundation
import Testing

/// filter, sort and group read SWAPI links as details do: by the names of what they point at
/// (`homeworld = Tatooine`, films by title), never the URLs. Expected names and counts are
/// looked up here in Data/planets.json, people.json and species.json.
@Suite("SWAPI links in filter, sort and group")
struct SwapiLinkQueryTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    /// The last answer of `commands`, in csv: a listing's chosen columns (else whole records,
    /// as the source has them), or a group's values.
    func csv(_ commands: [String]) throws -> (header: [String], records: [[String: String]]) {
        var all = ["--no-rc", "--format", "csv"]
        for command in commands { all += ["-c", command] }
        let result = try PipeRun.run(all, environment: home.environment(), directory: home.root)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        // `columns` answers with a listing too: the last answer starts at the last header.
        let lines = result.stdout.lines
        let start = lines.lastIndex(of: lines.first ?? "") ?? 0
        return try RecordFormats.table(try RecordFormats.csv(lines[start...].joined(separator: "\n") + "\n"))
    }

    nonisolated(unsafe) static let people = SwapiLinkTests.people
    nonisolated(unsafe) static let planets = SwapiLinkTests.planets
    nonisolated(unsafe) static let species = SwapiLinkTests.species
    static let films = [1: "A New Hope", 2: "The Empire Strikes Back", 3: "Return of the Jedi", 4: "The Phantom Menace",
                        5: "Attack of the Clones", 6: "Revenge of the Sith", 7: "The Force Awakens"]

    /// A record's homeworld by name; nil when it has none or its planet's name is absent.
    static func homeworld(of record: [String: Any]) -> String? {
        guard let url = record["homeworld"] as? String, let name = SwapiLinkTests.name(of: url, in: planets) else { return nil }
        return ValueReadingTests.isAbsent(name) ? nil : name
    }

    static func names(_ records: [[String: Any]]) -> [String] { records.compactMap { $0["name"] as? String } }

    @Test("group homeworld counts people per planet name, planets named unknown under none")
    func groupByHomeworld() throws {
        var expected: [String: Int] = [:]
        for person in Self.people { expected[Self.homeworld(of: person) ?? "", default: 0] += 1 }
        #expect(expected["Naboo"] == 11 && expected["Tatooine"] == 10)
        let groups = try csv(["use people", "group homeworld"])
        var counted: [String: Int] = [:]
        for row in groups.records { counted[row["homeworld"] ?? "?"] = Int(row["count"] ?? "") }
        #expect(counted == expected, "\(groups.records)")
        #expect(!groups.records.contains { ($0["homeworld"] ?? "").contains("http") })
    }

    @Test("filter homeworld = Tatooine matches the people of planet 1, for people and species alike")
    func filterByHomeworld() throws {
        let people = try csv(["use people", "filter homeworld = Tatooine"])
        let born = Self.names(Self.people.filter { Self.homeworld(of: $0) == "Tatooine" })
        #expect(born.count == 10)
        #expect(people.records.compactMap { $0["name"] } == born)
        let kashyyyk = Self.names(Self.species.filter { Self.homeworld(of: $0) == "Kashyyyk" })
        #expect(kashyyyk == ["Wookie"])
        #expect(try csv(["use species", "filter homeworld = kashyyyk"]).records.compactMap { $0["name"] } == kashyyyk)
    }

    @Test("sort homeworld orders by the planet's name, absent last")
    func sortByHomeworld() throws {
        let sorted = try csv(["use people", "columns name, homeworld", "sort homeworld"])
        let expected = Self.people.enumerated().sorted { one, other in
            switch (Self.homeworld(of: one.element)?.lowercased(), Self.homeworld(of: other.element)?.lowercased()) {
            case let (first?, second?): first == second ? one.offset < other.offset : first < second
            case (.some, nil): true
            case (nil, .some): false
            case (nil, nil): one.offset < other.offset
            }
        }.map { Self.homeworld(of: $0.element) ?? "" }
        #expect(sorted.records.map { $0["homeworld"] ?? "?" } == expected)
        #expect(expected.first == "Alderaan")
    }

    @Test("films by title: filter, and group counting each film of a list")
    func filmsByTitle() throws {
        let inFirst = Self.names(Self.people.filter { (($0["films"] as? [String]) ?? []).contains { $0.hasSuffix("/films/1/") } })
        #expect(inFirst.count == 18)
        #expect(try csv(["use people", "filter films = \"A New Hope\""]).records.compactMap { $0["name"] } == inFirst)
        var expected: [String: Int] = [:]
        for planet in Self.planets {
            for url in (planet["films"] as? [String]) ?? [] {
                let number = url.split(separator: "/").last.flatMap { Int($0) } ?? 0
                expected[Self.films[number] ?? "?", default: 0] += 1
            }
        }
        let groups = try csv(["use planets", "group films"])
        var counted: [String: Int] = [:]
        for row in groups.records where !(row["films"] ?? "").isEmpty { counted[row["films"] ?? "?"] = Int(row["count"] ?? "") }
        #expect(counted == expected, "\(groups.records)")
    }

    @Test("planets loaded after people: group homeworld then reads the names, not the answer from before")
    func planetsLoadedLater() throws {
        let folder = try home.makeFolder("swapi")
        let people = try String(contentsOfFile: DataFolder.realFile("people"), encoding: .utf8)
        _ = try home.write(people, to: folder + "/people.json")
        var arguments = ["--no-rc", "--data", folder, "--format", "csv"]
        let questions = ["use people", "group homeworld", "use people", "filter homeworld = Tatooine", "count", "fields"]
        for command in questions + ["load planets from \(DataFolder.realFile("planets"))"] + questions {
            arguments += ["-c", command]
        }
        let result = try PipeRun.run(arguments, environment: home.environment(), directory: home.root)
        let lines = result.stdout.lines
        // Without planets, Tatooine is no homeworld: count says 0; the groups are the links' numbers.
        let counts = lines.filter { Int($0) != nil }
        #expect(counts == ["0", "10"], "\(result)")
        #expect(lines.contains { $0.hasPrefix("planet 1,10,") }, "\(result)")
        #expect(lines.contains { $0.hasPrefix("Tatooine,10,") } && lines.contains { $0.hasPrefix("Naboo,11,") }, "\(result)")
        // fields, computed once per state of the linked datasets: Luke's homeworld as the example.
        let examples = lines.filter { $0.hasPrefix("homeworld,text,") }
        let named = Self.people.filter { Self.homeworld(of: $0) != nil }.count
        #expect(named == 77, "five people come from the planet called unknown")
        #expect(examples == ["homeworld,text,\(Self.people.count),planet 1,true", "homeworld,text,\(named),Tatooine,true"], "\(result)")
    }
}
