import Foundation
import PostgresCluster
import Testing

/// `limit N` keeps the first N results in their order, as a step: later commands work on
/// them, `back` undoes it, `limit` alone takes the limits away; on an attached table the
/// database answers it (LIMIT), alike.
@Suite("limit")
struct LimitCommandTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    func run(_ lines: [String], arguments: [String] = ["--format", "csv"]) throws -> PipeResult {
        try PipeRun.run(["--no-rc"] + arguments, input: lines.joined(separator: "\n") + "\n", environment: home.environment(),
                        directory: home.root)
    }

    func names(_ result: PipeResult) throws -> [String] {
        try RecordFormats.table(try RecordFormats.csv(result.stdout)).records.compactMap { $0["name"] }
    }

    /// Countries with an area, largest first (ties in file order, as a stable sort keeps them).
    static var byArea: [String] {
        ValueReadingTests.records("countries").enumerated()
            .compactMap { index, record in (record["area"] as? NSNumber).map { (index, $0.doubleValue, record["name"] as? String ?? "") } }
            .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.map(\.2)
    }

    @Test("after a sort: the top N; sort and filter then work on those N")
    func topN() throws {
        #expect(try names(run(["use countries", "sort area desc", "limit 5"])) == Array(Self.byArea.prefix(5)))
        let sorted = try names(run(["use countries", "sort area desc", "limit 5", "sort name"]))
        #expect(sorted == Self.byArea.prefix(5).sorted { $0.lowercased() < $1.lowercased() })
        let europe = Set(ValueReadingTests.records("countries").filter { $0["region"] as? String == "Europe" }.compactMap { $0["name"] as? String })
        let filtered = try names(run(["use countries", "sort area desc", "limit 10", "filter region = Europe"]))
        #expect(filtered == Self.byArea.prefix(10).filter(europe.contains), "\(filtered)")
    }

    @Test("back undoes it; limit alone clears every limit and keeps the steps after them")
    func undoAndClear() throws {
        let all = ValueReadingTests.records("countries").count
        #expect(try run(["use countries", "limit 3", "back", "count"]).stdout == "count\n\(all)\n")
        let cleared = try names(run(["use countries", "sort area desc", "limit 5", "sort name", "limit"]))
        #expect(cleared.count == all && cleared.first == "Afghanistan", "by name, all of them: \(cleared.prefix(3))")
        #expect(try run(["use countries", "limit 0", "count"]).stdout == "count\n0\n")
        #expect(try run(["use countries", "limit 9999999", "count"]).stdout == "count\n\(all)\n")
    }

    @Test("bad N and nothing to clear are errors that say so", arguments: [
        ("limit -1", "stdin:2:7: N must be a whole number from 0 up, not '-1'"),
        ("limit five", "stdin:2:7: N must be a whole number from 0 up, not 'five'"),
        ("limit", "stdin:2: the results have no limit to clear"),
    ])
    func errors(_ line: String, _ message: String) throws {
        let result = try run(["use countries", line])
        #expect(result.status == 1 && result.stderr.hasPrefix(message), "\(result)")
    }

    @Test("on an attached PostgreSQL table: LIMIT in the database, the same answers as in memory")
    func sameOnATable() throws {
        let url = try Database.url("limit_countries")
        let file = home.root + "/countries.json"
        #expect(try run(["use countries", "export \(file)", "export \(url) --force"]).status == 0)
        let script = [
            "set pagesize 10", "use d", "sort area desc", "limit 7", "page", "count", "sort name", "filter region = Europe", "count",
            "group region", "describe area", "back", "back", "limit", "count", "limit 25", "page 2", "page last", "limit 3",
            "limit 2", "sort population", "limit", "count", "search island", "limit 4", "sort name desc", "show #2", "group region",
            "show #1", "back", "columns name, area", "limit 0", "count", "back", "filter clear", "sort capital desc", "limit 5", "page",
            "describe population",
        ]
        let echo = ["--no-rc", "--echo", "--format", "json"]
        let memory = try run(["load d from \(file)"] + script, arguments: echo)
        let database = try run(["load d from \(url)"] + script, arguments: echo)
        #expect(memory.status == 0 && memory.stderr.isEmpty, "\(memory)")
        #expect(database.status == 0 && database.stderr.isEmpty, "\(database)")
        let expected = try JSONDocuments.split(memory.stdout).map(PostgresDifferentialTests.canonical)
        let answered = try JSONDocuments.split(database.stdout).map(PostgresDifferentialTests.canonical)
        #expect(expected.count == answered.count && expected.count >= script.count - 3, "\(expected.count) answers from memory, \(answered.count) from the table")
        for (index, (want, got)) in zip(expected, answered).enumerated() where want != got {
            Issue.record("answer \(index + 1) differs:\nmemory:   \(want.prefix(1500))\ndatabase: \(got.prefix(1500))")
        }
        // The database was asked for LIMIT: the first 7 by area, as computed from the file.
        let top = try run(["load d from \(url)", "use d", "sort area desc", "limit 7"])
        #expect(try names(top) == Array(Self.byArea.prefix(7)), "\(top)")
    }
}
