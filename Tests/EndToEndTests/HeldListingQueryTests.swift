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

    @Test("a held listing that fails when made at the end is reported at its command's line, and the script fails")
    func failingListingIsReported() throws {
        // A regular expression PostgreSQL refuses only when it runs.
        let (result, _) = try statements(["filter name =~ 'a{2,1}'"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.hasPrefix("-c:3: "), "\(result)")
    }
}
