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
        // A role whose statements the server logs, so the log holds this test's alone.
        try Database.cluster().once("logged role") {
            try Database.cluster().execute("""
                CREATE ROLE almanac_logged LOGIN; GRANT pg_read_all_data TO almanac_logged;
                ALTER ROLE almanac_logged SET log_min_duration_statement = 0
                """)
        }
    }

    /// The statements on `kinds` the script ran, each by its first words.
    func statements(_ commands: [String]) throws -> (PipeResult, [String]) {
        let log = try Database.cluster().folder + "/data/server.log"
        let before = (try? Data(contentsOf: URL(fileURLWithPath: log)).count) ?? 0
        let url = try Database.url("kinds", user: "almanac_logged")
        let result = try PipeRun.run(["--no-rc"] + (["load k from \(url)", "use k"] + commands).flatMap { ["-c", $0] },
                                     environment: home.environment(), directory: home.root)
        let data = try Data(contentsOf: URL(fileURLWithPath: log))
        let text = String(decoding: data.dropFirst(before), as: UTF8.self)
        let ran = text.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "execute <unnamed>: "), line.contains("\"kinds\" AS t WHERE") else { return nil }
            return String(line[range.upperBound...].prefix(20))
        }
        return (result, ran)
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
