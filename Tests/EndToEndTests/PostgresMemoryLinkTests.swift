import Foundation
import PostgresCluster
import Testing

/// A path from an attached table across a link into a small dataset in memory joins the
/// dataset's keys and fields sent as a VALUES list, and answers as the same path does when the
/// table's records are in memory; into a dataset of more than 10,000 keys it is refused.
@Suite("PostgreSQL: paths from a table into a small dataset in memory, joined as VALUES")
struct PostgresMemoryLinkTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    static let script = [
        "link pp.homeworld to planets.url", "use pp", "filter homeworld.climate ~ arid", "count",
        "columns name, homeworld.climate, homeworld.diameter", "sort homeworld.name, name", "page", "filter clear", "columns reset",
        "filter homeworld.diameter > 12000", "count", "filter clear", "group homeworld.climate",
        "filter homeworld.name = Tatooine", "count", "filter clear", "group homeworld.terrain", "filter homeworld.nme = x",
        "filter homeworld.residents.name = 'Luke Skywalker'", "count", "columns name, homeworld.residents.name", "sort name", "page",
        "filter clear", "columns reset", "group homeworld.films", "describe homeworld.diameter",
    ]

    func run(_ lines: [String]) throws -> PipeResult { try LinkDifferential.run(lines, in: home) }

    @Test("people as a table, the bundled planets in memory: the same answers as in memory, 19 of arid worlds")
    func sameAnswers() throws {
        let people = try Database.exported("people", as: "memory_links_people", in: home)
        let memory = try run(["load pp from \(people.file)"] + Self.script)
        let database = try run(["load pp from \(people.url)"] + Self.script)
        let expected = try LinkDifferential.compare(memory: memory, database: database, atLeast: 6)
        // Computed from Data/people.json and Data/planets.json with python3: 19 people of a
        // world whose climate mentions arid, 10 of Tatooine.
        #expect(expected.contains("{\"count\":19}") && expected.contains("{\"count\":10}"), "\(expected.prefix(5))")
    }

    @Test("planets as a table, the bundled people in memory: a link followed backwards answers as in memory")
    func backwards() throws {
        let planets = try Database.exported("planets", as: "memory_links_planets", in: home)
        let script = ["link people.homeworld to pl.url", "use pl", "columns name, count(people) as n", "sort n desc, name", "page",
                      "filter people.name = 'Luke Skywalker'", "count", "filter clear", "columns reset", "group people.gender"]
        let memory = try run(["load pl from \(planets.file)"] + script)
        let database = try run(["load pl from \(planets.url)"] + script)
        let expected = try LinkDifferential.compare(memory: memory, database: database, atLeast: 3)
        #expect(expected.contains("{\"count\":1}"), "\(expected.prefix(5))")
    }

    /// A dataset of `records` records keyed by planets' urls, the first one Tatooine's.
    func worlds(_ records: Int) throws -> String {
        let file = home.root + "/worlds\(records).json"
        let rows = (1...records).map { "{\"url\": \"https://swapi.dev/api/planets/\($0)/\", \"n\": \($0)}" }
        try ("[" + rows.joined(separator: ",\n") + "]").write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test("10,000 keys are sent; 10,001 are refused, saying the limit and the count")
    func limit() throws {
        let people = try Database.exported("people", as: "memory_links_people_limit", in: home)
        let accepted = try PipeRun.run(["--no-rc", "--format", "json", "-c", "load pp from \(people.url)", "-c", "load w from \(try worlds(10_000))",
                                        "-c", "link pp.homeworld to w.url", "-c", "use pp", "-c", "filter homeworld.n = 1", "-c", "count"],
                                       environment: home.environment(), directory: home.root)
        // Tatooine, the first of the 10,000, is the homeworld of 10 people (python3 on Data/people.json).
        let answers = try JSONDocuments.split(accepted.stdout).map(PostgresDifferentialTests.canonical)
        #expect(accepted.status == 0 && answers.last == "{\"count\":10}", "\(accepted)")
        let refused = try PipeRun.run(["--no-rc", "-c", "load pp from \(people.url)", "-c", "load w from \(try worlds(10_001))",
                                       "-c", "link pp.homeworld to w.url", "-c", "use pp", "-c", "filter homeworld.n = 1"],
                                      environment: home.environment(), directory: home.root)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("'homeworld.n' crosses pp.homeworld into w, which is in memory with 10,001 keys — "
            + "a path from a table sends at most 10,000 to the database"), "\(refused)")
    }
}
