import Foundation
import PostgresCluster
import Testing

/// `why` on a table whose filter crosses a declared link: the record is a row the database
/// sent, which cannot follow the link itself, so why failed with "homeworld is a field of
/// people, not a link" though the filter had run. Whether the path's condition holds is now
/// the database's to say; the row's own fields show their values as before.
@Suite("PostgreSQL: why over a declared link")
struct PostgresWhyLinkTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    @Test("a row of the results meets every condition; a row named by name meets the path's as the database says")
    func acrossALink() throws {
        let (_, people) = try Database.exported("people", as: "why_people", in: home)
        let (_, planets) = try Database.exported("planets", as: "why_planets", in: home)
        try Database.cluster().execute("ALTER TABLE why_people ADD PRIMARY KEY (url)")
        let result = try home.run(["load p from \(people)", "load pl from \(planets)", "link p.homeworld to pl.url", "use p",
                                   "filter homeworld.climate ~ arid and height > 150", "why \"Luke Skywalker\"", "why \"Leia Organa\""],
                                  options: ["--no-rc"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        // Luke (172 cm) lives on Tatooine (arid), Leia (150 cm) on Alderaan (temperate): people.json, planets.json.
        #expect(result.stdout.lines == [
            "Luke Skywalker meets all 2 conditions:", "  ✓ homeworld.climate ~ arid", "  ✓ height > 150               height 172",
            "Leia Organa meets 0 of 2 conditions:", "  ✗ homeworld.climate ~ arid", "  ✗ height > 150               height 150",
        ], "\(result)")
    }
}
