import Foundation
import PostgresCluster
import Testing

/// A script's shaping command prints nothing unless last (ScriptAnswer), and its listing is
/// made only then: the statements the server ran, read from its log, show that a filter
/// followed by `count` never asks for the filter's page or its count.
@Suite("A script's held listing asks the database nothing")
struct HeldListingQueryTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
        try Database.cluster().kindsTable()
    }

    /// The statements with a condition on `kinds` the script ran, each by its first words.
    func statements(_ commands: [String]) throws -> (PipeResult, [String]) {
        let (result, ran) = try LoggedStatements.run(commands, table: "kinds", in: home)
        return (result, ran.filter { $0.contains("AS t WHERE") }.map { String($0.prefix(20)) })
    }

    @Test("filter then count: the filter asks only whether a row is left, count counts once")
    func filterThenCount() throws {
        let (result, ran) = try statements(["filter population > 100000", "count"])
        #expect(result.status == 0 && result.stdout == "2\n" && result.stderr.isEmpty, "\(result)")
        // Before: count, a page of 1,000 rows, count again.
        #expect(ran == ["SELECT EXISTS (SELEC", "SELECT count(*) FROM"], "\(ran)")
    }

    @Test("a filter that is last still lists its rows, made at the end")
    func filterLastIsListed() throws {
        let (result, ran) = try statements(["sort id", "filter population > 100000"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        let rows = result.stdout.split(separator: "\n").dropFirst(2)
        #expect(rows.count == 2 && rows.first?.contains("Москва") == true && rows.last?.contains("Zürich") == true, "\(result.stdout)")
        #expect(ran == ["SELECT EXISTS (SELEC", "SELECT count(*) FROM", "SELECT row_to_json(t"], "\(ran)")
    }

    @Test("within then count under json: the held GeoJSON asks for no page, and a last within still writes it")
    func heldGeographicStep() throws {
        _ = try Database.exported("stations", as: "held_stations", in: home)
        /// The statements with a condition (a sample of rows without one finds the coordinates).
        func statements(_ commands: [String]) throws -> (PipeResult, [String]) {
            let (result, ran) = try LoggedStatements.run(["set format json"] + commands, table: "held_stations", in: home)
            return (result, ran.filter { $0.contains("AS t WHERE") }.map { String($0.prefix(20)) })
        }
        // Stations within Austria: 7 (an even-odd ray cast over the file's points, PostgresWithinTests).
        let (counted, countRan) = try statements(["within Austria", "count"])
        #expect(counted.status == 0 && counted.stdout == "{\"count\":7}\n" && counted.stderr.isEmpty, "\(counted)")
        // Before: the held step's count and a row_to_json page for its GeoJSON, then the count.
        // Whether any row is left (an empty within explains itself), as filter asks, then the count.
        #expect(countRan == ["SELECT EXISTS (SELEC", "SELECT count(*) FROM"], "\(countRan)")
        let (listed, listRan) = try statements(["within Austria"])
        #expect(listed.status == 0 && listed.stderr.isEmpty, "\(listed)")
        #expect(listed.stdout.hasPrefix("{\"type\":\"FeatureCollection\",\"features\":["), "\(listed.stdout.prefix(200))")
        #expect(listed.stdout.components(separatedBy: "{\"type\":\"Feature\",").count - 1 == 7, "\(listed.stdout)")
        #expect(listRan.contains("SELECT row_to_json(t"), "\(listRan)")
    }

    @Test("a held listing that fails when made at the end is reported at its command's line, and the script fails")
    func failingListingIsReported() throws {
        // A regular expression PostgreSQL refuses only when it runs.
        let (result, _) = try statements(["filter name =~ 'a{2,1}'"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.hasPrefix("-c:3:16: "), "\(result)")
    }
}
