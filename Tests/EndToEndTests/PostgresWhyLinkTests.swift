import Foundation
import PostgresCluster
import Testing

/// `why` on a table whose filter crosses a declared link: the record is a row the database
/// sent, which cannot follow the link itself, so why failed with "homeworld is a field of
/// people, not a link" though the filter had run. Whether the path's condition holds is now
/// the database's to say, and its values are the database's too (shown as in memory, where
/// they were left out); a computed condition over the path (`homeworld.population / 1000 >
/// 1000`) is the database's to decide as well, where it failed as the filter once had.
@Suite("PostgreSQL: why over a declared link")
struct PostgresWhyLinkTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    @Test("a row of the results meets every condition; a row named by name meets the path's as the database says")
    func acrossALink() throws {
        let (peopleFile, people) = try Database.exported("people", as: "why_people", in: home)
        let (planetsFile, planets) = try Database.exported("planets", as: "why_planets", in: home)
        try Database.cluster().execute("ALTER TABLE why_people ADD PRIMARY KEY (url)")
        let result = try home.run(["load p from \(people)", "load pl from \(planets)", "link p.homeworld to pl.url", "use p",
                                   "filter homeworld.climate ~ arid and height > 150 and homeworld.population / 1000 > 100",
                                   "why \"Luke Skywalker\"", "why \"Leia Organa\"", "why #1"],
                                  options: ["--no-rc"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        // Luke (172 cm) lives on Tatooine (arid, 200,000 people), Leia (150 cm) on Alderaan
        // (temperate, 2,000,000,000), the first of the results Luke: people.json, planets.json.
        let luke = [
            "  ✓ homeworld.climate ~ arid            homeworld.climate arid",
            "  ✓ height > 150                        height 172",
            "  ✓ homeworld.population / 1000 > 100   homeworld.population / 1000 200",
        ]
        #expect(result.stdout.lines == ["Luke Skywalker meets all 3 conditions:"] + luke + [
            "Leia Organa meets 1 of 3 conditions:",
            "  ✗ homeworld.climate ~ arid            homeworld.climate temperate",
            "  ✗ height > 150                        height 150",
            "  ✓ homeworld.population / 1000 > 100   homeworld.population / 1000 2,000,000",
            "#1 Luke Skywalker meets all 3 conditions:",
        ] + luke, "\(result)")
        // The same session in memory says the same.
        let memory = try home.run(["load p from \(peopleFile)", "load pl from \(planetsFile)",
                                   "link p.homeworld to pl.url", "use p",
                                   "filter homeworld.climate ~ arid and height > 150 and homeworld.population / 1000 > 100",
                                   "why \"Luke Skywalker\"", "why \"Leia Organa\"", "why #1"], options: ["--no-rc"])
        #expect(memory.stdout == result.stdout, "\(memory)")
    }
}
