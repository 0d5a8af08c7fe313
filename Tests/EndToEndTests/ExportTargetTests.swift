import AlmanacPostgres
import Foundation
import PostgresCluster
import Testing

/// Where an export into PostgreSQL writes is decided by the server, not the URL's text
/// (issue 31): the table being read, reached through another spelling of its server, is
/// refused at once (it deadlocked until the statement timeout, or `--force` dropped it under
/// its own read); a name longer than the server's identifiers is refused (PostgreSQL cut it
/// to the existing 63-character table, and `--force` dropped that).
@Suite("Exports into PostgreSQL: the server decides what a table is")
struct ExportTargetTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
        try Database.cluster().kindsTable()
    }

    func run(_ lines: [String]) throws -> PipeResult {
        try PipeRun.run(["--no-rc"], input: lines.joined(separator: "\n") + "\n", environment: home.environment(), directory: home.root,
                        timeout: .seconds(60))
    }

    @Test("the table being read, through its socket or another table spelling, is refused at once, --force or not")
    func theTableBeingReadIsRefused() throws {
        let cluster = try Database.cluster()
        let socket = (cluster.folder + "/socket").addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let before = try Database.column("SELECT md5(string_agg(k::text, '|' ORDER BY id)) FROM kinds AS k")
        for target in ["postgresql://postgres@\(socket):\(cluster.port)/almanac?table=kinds",
                       "postgresql://postgres@\(socket):\(cluster.port)/almanac?table=public.KINDS",
                       "postgresql:///almanac?host=\(socket)&port=\(cluster.port)&user=postgres&table=%22kinds%22"] {
            let started = ContinuousClock.now
            let result = try run(["load k from \(try Database.url("kinds"))", "use k", "export \(target) --force"])
            let took = ContinuousClock.now - started
            #expect(result.stderr.contains("'") && result.stderr.contains("is the table being read"), "\(target): \(result)")
            #expect(took < .seconds(20), "\(target): \(took)")
        }
        #expect(try Database.column("SELECT md5(string_agg(k::text, '|' ORDER BY id)) FROM kinds AS k") == before)
    }

    @Test("a table or column name longer than max_identifier_length is refused, and the table it would cut to is kept")
    func longNamesAreRefused() throws {
        let cluster = try Database.cluster()
        let cut = String(repeating: "x", count: 63)
        try cluster.once("63-character table") {
            try cluster.execute("CREATE TABLE \(cut) (id int PRIMARY KEY, kept text); INSERT INTO \(cut) VALUES (1, 'still here')")
        }
        let url = try Database.url(cut + "extra")
        let result = try run(["load k from \(try Database.url("kinds"))", "use k", "export \(url) --force",
                              "use countries", "export \(url) --force"])
        #expect(result.stderr.components(separatedBy: "is 68 bytes, longer than this server's 63-byte names").count == 3, "\(result)")
        #expect(try Database.column("SELECT kept FROM \(cut)") == ["still here"])
        // A key of 70 bytes in the records would be cut to another column.
        let file = try home.write("[{\"name\": \"a\", \"\(String(repeating: "k", count: 70))\": 1}]", to: home.root + "/long-key.json")
        let keys = try run(["load lk from \(file)", "use lk", "export \(try Database.url("long_key_copy")) --force"])
        #expect(keys.stderr.contains("the column name 'kkkk") && keys.stderr.contains("is 70 bytes"), "\(keys)")
        #expect(try Database.column("SELECT to_regclass('long_key_copy') IS NULL") == ["t"])
    }
}
