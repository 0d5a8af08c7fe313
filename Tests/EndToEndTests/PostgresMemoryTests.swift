import Foundation
import PostgresCluster
import Testing

extension HeavyReliabilityTests {
/// Exploring the 2,000,000-row table (PostgresCluster/Fixtures.swift) keeps almanac's resident
/// memory small whatever the table's size: the database counts, filters, sorts and groups, and
/// almanac holds one page at a time; `export FILE` streams through a cursor. The issue's bound
/// is 150 MB; a debug build peaks near 35 MB, so the bound has a wide margin and does not
/// depend on the machine's load. The peak is read from /proc/PID/status (VmHWM) before the
/// process exits (see MemoryTests for why not wait4).
@Suite("Memory with a 2,000,000-row PostgreSQL table", .serialized)
struct PostgresMemoryTests {
    static let bound = 150 << 20

    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
        try Database.cluster().bigTable()
    }

    @Test("count, search, filter, sort, pages, group and an export of 100,000 rows peak under 150 MB")
    func exploringTheBigTableStaysSmall() throws {
        let rows = TestCluster.bigRows
        let session = try PipeSession(["--no-rc"], environment: home.environment(), directory: home.root)
        let exported = home.root + "/low-buckets.csv"
        // bucket = i % 1000: bucket < 50 holds 50 rows of every 1000.
        let commands = [
            "load big from \(try Database.url("big"))", "use big", "count",
            "search item 1999999", "count", "use big",
            "filter bucket = 7 and info.n = 7", "count", "sort score desc", "page next", "filter clear",
            "page 3", "group category", "filter clear",
            "filter bucket < 50", "export \(exported)", "count",
        ]
        for command in commands { try session.send(command) }
        try session.waitFor("\(rows / 20)\n", timeout: .seconds(600))
        let peak = session.memory("VmHWM") ?? 0
        #expect(try session.finish() == 0, "\(session.stderrText.tail(500))")
        let counts = session.stdoutText.split(separator: "\n").filter { $0.allSatisfy(\.isNumber) }
        #expect(counts == ["\(rows)", "1", "\(rows / 1000)", "\(rows / 20)"], "\(session.stdoutText.tail(300))")
        let lines = try String(contentsOfFile: exported, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == rows / 20 + 1, "a header and every row with bucket < 50")
        #expect(peak > 0 && peak < Self.bound, "peak RSS \(peak >> 20) MB")
        ReliabilityLog.record("memory peak (2,000,000-row PostgreSQL table)",
                              "count, search, filter, sort, pages, group, export of \(rows / 20) rows: peak RSS \(peak >> 20) MB")
    }

    @Test("expressions on the big table are computed by the database: filter, sort, columns, group, describe peak under 150 MB")
    func expressionsOnTheBigTableStaySmall() throws {
        let rows = TestCluster.bigRows
        let session = try PipeSession(["--no-rc"], environment: home.environment(), directory: home.root)
        // bucket / 4 < 2 keeps buckets 0-7 (8 rows in 1000), and info.n = bucket there: n % 7 = 0 keeps 0 and 7.
        let commands = [
            "load big from \(try Database.url("big"))", "use big", "set pagesize 20",
            "filter bucket / 4 < 2 and info.n % 7 = 0", "count", "sort score / (bucket + 1) desc", "columns id, score * 2 as twice",
            "page next", "filter clear", "group round(bucket / 100) as band avg(score / 2) as half", "describe score / 3", "count",
        ]
        for command in commands { try session.send(command) }
        try session.waitFor("\(rows)\n", timeout: .seconds(600))
        let peak = session.memory("VmHWM") ?? 0
        #expect(try session.finish() == 0, "\(session.stderrText.tail(500))")
        let counts = session.stdoutText.split(separator: "\n").filter { $0.allSatisfy(\.isNumber) }
        #expect(counts == ["\(rows / 1000 * 2)", "\(rows)"], "\(session.stdoutText.tail(300))")
        #expect(peak > 0 && peak < Self.bound, "peak RSS \(peak >> 20) MB")
        ReliabilityLog.record("memory peak (expressions on a 2,000,000-row PostgreSQL table)",
                              "computed filter, sort, column, group, describe: peak RSS \(peak >> 20) MB")
    }
}
}
