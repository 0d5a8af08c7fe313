import Foundation
import PostgresCluster
import Testing

/// TAB after a link's name on an attached table, on the emulated screen: the table's results
/// offered no path across links, so `filter homeworld.na` TAB was taken for a typo of the
/// column `homeworld` and the line lost `.na`. Now the linked table's columns (or a dataset in
/// memory's fields, and on across its links) complete as they do in memory.
@Suite("PostgreSQL: TAB completes paths across links", .serialized)
struct PostgresLinkCompletionTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    func expectLine(_ session: PseudoTerminalSession, _ expected: String) throws {
        try session.waitForScreen("the line '\(expected)'") { $0.beforeCursor == expected }
        session.skipReceived()
    }

    @Test("homeworld.na completes to homeworld.name into a table and into memory; homeworld.residents.na on into memory")
    func pathsAcrossLinksComplete() throws {
        let (_, people) = try Database.exported("people", as: "tab_people", in: home)
        let (_, planets) = try Database.exported("planets", as: "tab_planets", in: home)
        let session = try PseudoTerminalSession(environment: home.environment(), rows: 40, columns: 120)
        try session.waitForPrompt()
        try session.enter("load pp from \(people)")
        try session.enter("load pl from \(planets)")
        try session.enter("link pp.homeworld to pl.url; use pp", prompt: "pp> ")
        // planets.json's fields starting "na": name alone.
        try session.send("filter homeworld.na" + Key.tab)
        try expectLine(session, "pp> filter homeworld.name ")
        try session.enter("Tatooine; count")
        // Into the bundled planets in memory, and from there across its residents link.
        try session.enter("filter clear; link drop pp.homeworld; link pp.homeworld to planets.url")
        try session.send("filter homeworld.cli" + Key.tab)
        try expectLine(session, "pp> filter homeworld.climate ")
        try session.enter("~ arid; filter clear")
        try session.send("filter homeworld.residents.eye" + Key.tab)
        try expectLine(session, "pp> filter homeworld.residents.eye_color ")
    }
}
