import Foundation
import PostgresCluster
import Testing

/// `group` lists at most 10,000 groups unless asked for all (`--all`), with a line saying how
/// many more there are (issue 31: 5M distinct values on a table took 1.83 GB and 111 s and
/// printed everything into a pipe). On a table the LIMIT is the server's.
@Suite("group is bounded unless asked for all")
struct GroupLimitTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    func run(_ lines: [String]) throws -> PipeResult {
        try PipeRun.run(["--no-rc"], input: lines.joined(separator: "\n") + "\n", environment: home.environment(), directory: home.root,
                        timeout: .seconds(120))
    }

    @Test("12,000 distinct values in memory and 250,000 on a table: 10,000 listed and the rest counted; --all lists every one")
    func boundedUnlessAll() throws {
        let records = (0..<12_000).map { "{\"name\": \"n\($0)\", \"v\": \($0 % 7)}" }
        let file = try home.write("[" + records.joined(separator: ",\n") + "]\n", to: home.root + "/many.json")
        let cluster = try Database.cluster()
        try cluster.once("many groups") {
            try cluster.execute("CREATE TABLE many_groups AS SELECT i AS id, 'n' || i AS name FROM generate_series(1, 250000) AS i")
        }
        for (setup, groups) in [(["load m from \(file)"], 12_000), (["load m from \(try Database.url("many_groups"))"], 250_000)] {
            let limited = try run(setup + ["use m", "set format csv", "group name"])
            #expect(limited.stdout.split(separator: "\n").count == 10_001, "a header and 10,000 groups")
            #expect(limited.stderr == "note: \((groups - 10_000).grouped) more groups not listed (the 10,000 largest are) — "
                    + "group name --all lists every one\n", "\(limited.stderr)")
            let shown = try run(setup + ["use m", "group name"])
            #expect(shown.stdout.hasSuffix("\((groups - 10_000).grouped) more groups not listed (the 10,000 largest are) — "
                    + "group name --all lists every one\n"), "\(shown.stdout.suffix(300))")
            let all = try run(setup + ["use m", "set format csv", "group name --all"])
            #expect(all.stdout.split(separator: "\n").count == groups + 1 && all.stderr.isEmpty, "\(all.stderr)")
        }
    }
}
