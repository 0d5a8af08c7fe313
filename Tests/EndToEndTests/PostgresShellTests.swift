import Foundation
import PostgresCluster
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// PostgreSQL tables attached in the shell, through the real binary against the run's test
/// cluster: commands answer from the database; libpq's variables and ~/.pgpass apply;
/// passwords never reach any output; hostile values change nothing. The `kinds` table
/// (PostgresCluster/Fixtures.swift) has five rows: 1 Åland 30000, 2 Москва 13010112,
/// 3 `x' OR '1'='1` with no population, 4 Zürich 421878, 5 aland islands 30129.
@Suite("PostgreSQL tables in the shell")
struct PostgresShellTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
        try Database.cluster().kindsTable()
    }

    /// A script on standard input, as a pipe runs it.
    func run(_ lines: [String], arguments: [String] = [], environment: TestEnvironment? = nil) throws -> PipeResult {
        // --echo: each shaping command's listing too, as each test counts them.
        try PipeRun.run(["--no-rc", "--echo"] + arguments, input: lines.joined(separator: "\n") + "\n", environment: environment ?? home.environment(),
                        directory: home.root)
    }

    @Test("a table attached from a URL answers count, filter, sort, show and group from the database")
    func commandsAnswerFromTheDatabase() throws {
        let url = try Database.url("kinds")
        let result = try run(["load k from \(url)", "use k", "count", "filter population > 100000", "count", "sort population desc",
                              "show #1", "show 4", "filter clear", "group city"], arguments: ["--format", "json"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        let documents = try JSONDocuments.split(result.stdout)
        #expect(documents.count == 8, "one document per command that answers: \(result)")
        guard documents.count == 8 else { return }
        #expect(documents[0] as? [String: Int] == ["count": 5])
        #expect(try names(documents[1]) == ["Москва", "Zürich"])
        #expect(documents[2] as? [String: Int] == ["count": 2])
        #expect(try names(documents[3]) == ["Москва", "Zürich"], "population desc")
        #expect((documents[4] as? [String: Any])?["name"] as? String == "Москва", "#1 of the sorted results")
        #expect((documents[5] as? [String: Any])?["name"] as? String == "Zürich", "4 is the primary key of Zürich")
        #expect(try names(documents[6]).count == 5, "filter clear: every row again")
        let groups = (documents[7] as? [[String: Any]] ?? []).map { "\($0["city"] as? String ?? "none")=\($0["count"] as? Int ?? -1)" }
        #expect(groups.first == "Mariehamn=2" && Set(groups.dropFirst()) == ["none=1", "Zürich=1", "Москва=1"], "\(groups)")
    }

    @Test("key, as and at after a table's URL are refused, not ignored: show would not find rows by that key")
    func fileOptionsRefusedForATable() throws {
        let url = try Database.url("kinds")
        for option in ["key city", "as csv", "at data.items"] {
            let line = "load k from \(url) \(option)"
            let result = try run([line, "datasets k"])
            #expect(result.status == 1, "\(result)")
            // The column of the option's keyword (key, as, at), the word refused: not its value.
            let column = line.count - option.count + 1
            #expect(result.stderr.hasPrefix("stdin:1:\(column): as, at and key go with a file: a table's rows are found by its primary key, else an id, "
                                            + "key or uuid column (ALTER TABLE … ADD PRIMARY KEY (column) makes one)"), "\(result)")
            #expect(result.stderr.contains("\nstdin:2:10: unknown dataset 'k'"), "nothing attached: \(result)")
        }
    }

    /// A listing of a table for a program stops at 1,000 rows and says so on standard error:
    /// only when it is written. A script's filter that the next command answers says nothing.
    @Test("the note that a table's listing has more rows comes only with the listing")
    func moreRowsNoteComesWithTheListing() throws {
        try Database.cluster().bigTable()
        let url = try Database.url("big")
        func script(_ commands: [String]) throws -> PipeResult {
            try PipeRun.run(["--no-rc"] + commands.flatMap { ["-c", $0] }, environment: home.environment(), directory: home.root)
        }
        // bucket = i % 1000: 2,000 of the 2,000,000 rows each.
        let answered = try script(["load b from \(url)", "use b", "filter bucket = 7", "count"])
        #expect(answered.status == 0 && answered.stdout == "2000\n" && answered.stderr.isEmpty, "\(answered)")
        let listed = try script(["load b from \(url)", "use b", "filter bucket = 7", "columns id"])
        #expect(listed.status == 0 && listed.stdout.lines.count == 1_002, "a header, a rule and 1,000 rows: \(listed.stdout.prefix(200))")
        #expect(listed.stderr == "rows 1–1,000 of 2,000 · page 1/2 — 'page next' shows more, 'export FILE' writes them all\n", "\(listed)")
    }

    @Test("on a table, back restores the question before each filter and sort, and describe profiles in the database")
    func backAndDescribeOnATable() throws {
        let url = try Database.url("kinds")
        let result = try run(["load k from \(url)", "use k", "filter population > 100000", "sort population", "back", "back",
                              "describe population"], arguments: ["--format", "json"])
        let documents = try JSONDocuments.split(result.stdout)
        #expect(documents.count == 5, "\(result)")
        guard documents.count == 5 else { return }
        #expect(try names(documents[1]) == ["Zürich", "Москва"], "population ascending")
        #expect(try names(documents[2]) == ["Москва", "Zürich"], "back: the filter's order (the primary key's)")
        #expect(try names(documents[3]).count == 5, "back again: every row")
        // The fixture's populations: 30000, 13010112, none, 421878, 30129.
        let populations = [30000.0, 13010112, 421878, 30129]
        let profile = try #require((documents[4] as? [[String: Any]])?.first, "\(documents[4])")
        #expect(profile["present"] as? Int == 4 && profile["absent"] as? Int == 1, "\(profile)")
        #expect((profile["min"] as? NSNumber)?.doubleValue == populations.min() && (profile["max"] as? NSNumber)?.doubleValue == populations.max())
        #expect(abs(((profile["mean"] as? NSNumber)?.doubleValue ?? 0) - populations.reduce(0, +) / 4) < 0.01, "\(profile)")
    }

    @Test("on a table, show #N after group lists the group's rows, asked of the database; back returns")
    func drillDownOnATable() throws {
        let url = try Database.url("kinds")
        let result = try run(["load k from \(url)", "use k", "group city", "show #1", "count", "back", "count"], arguments: ["--format", "json"])
        let documents = try JSONDocuments.split(result.stdout)
        #expect(documents.count == 5, "\(result)")
        guard documents.count == 5 else { return }
        // Mariehamn is the city of rows 1 (Åland) and 5 (aland islands).
        #expect((documents[0] as? [[String: Any]])?.first?["city"] as? String == "Mariehamn")
        #expect(try names(documents[1]) == ["Åland", "aland islands"], "\(documents[1])")
        #expect(documents[2] as? [String: Int] == ["count": 2])
        #expect(try names(documents[3]).count == 5 && documents[4] as? [String: Int] == ["count": 5])
    }

    func names(_ document: Any) throws -> [String] {
        guard let rows = document as? [[String: Any]] else { throw HarnessError("not an array of rows: \(document)") }
        return rows.map { $0["name"] as? String ?? "?" }
    }

    @Test("datasets says where each dataset lives: memory, or the server and the table")
    func datasetsSaysWhereEachLives() throws {
        let port = try Database.cluster().port
        let result = try run(["load k from \(try Database.url("kinds"))", "datasets"], arguments: ["--format", "json"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        let rows = try RecordFormats.jsonArray(result.stdout)
        let byName = Dictionary(rows.map { ($0["name"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        #expect(byName["k"]?["where"] as? String == "PostgreSQL 127.0.0.1:\(port)/almanac, table public.kinds")
        #expect(byName["k"]?["records"] as? Int == 5)
        #expect(byName["k"]?["state"] as? String == "attached")
        #expect(byName["countries"]?["where"] as? String == "memory")
    }

    @Test("PGHOST, PGPORT, PGUSER, PGDATABASE and ~/.pgpass in $HOME fill in what the URL leaves out")
    func libpqEnvironmentApplies() throws {
        let cluster = try Database.cluster()
        let environment = home.environment().with("PGHOST", "127.0.0.1").with("PGPORT", String(cluster.port))
            .with("PGUSER", TestCluster.passwordRole).with("PGDATABASE", TestCluster.database)
        // Without a password anywhere, the role that needs one is refused…
        let refused = try run(["load k from postgresql:///?table=kinds"], environment: environment)
        #expect(refused.status != 0 && refused.stderr.contains("cannot connect to"), "\(refused)")
        // …and ~/.pgpass (mode 0600, as libpq requires) gives it.
        let passwords = try home.write("127.0.0.1:\(cluster.port):\(TestCluster.database):\(TestCluster.passwordRole):\(TestCluster.password)\n",
                                       to: home.home + "/.pgpass")
        chmod(passwords, 0o600)
        let result = try run(["load k from postgresql:///?table=kinds", "use k", "count"], environment: environment)
        #expect(result.status == 0 && result.stdout == "5\n", "\(result)")
    }

    @Test("a wrong password, in the URL or as password=, reaches no output")
    func aFailingPasswordIsNeverShown() throws {
        let secret = "Wr0ng-Secret-77"
        let port = try Database.cluster().port
        let urls = [
            try Database.url("kinds", user: TestCluster.passwordRole, password: secret),
            try Database.url("kinds", user: TestCluster.passwordRole, password: "Wr0ng%2DSecret%2D77"),
            "postgresql://\(TestCluster.passwordRole)@127.0.0.1:\(port)/almanac?password=\(secret)&table=kinds",
        ]
        for url in urls {
            let result = try run(["load k from \(url)", "datasets", "about", "load from \(url) extra", "export \(url)"], arguments: ["--verbose"])
            #expect(result.stderr.contains("password authentication failed"), "\(result)")
            for output in [result.stdout, result.stderr] {
                #expect(!output.contains(secret) && !output.contains("Wr0ng%2D"), "\(result)")
            }
        }
    }

    @Test("at the prompt a password is in no output, and history keeps the line without it")
    func passwordsStayOutOfHistory() throws {
        let cluster = try Database.cluster()
        let good = try Database.url("kinds", user: TestCluster.passwordRole, password: TestCluster.password)
        let bad = try Database.url("kinds", user: TestCluster.passwordRole, password: "Wr0ng-Secret-77")
        let session = try PseudoTerminalSession(["--no-rc"], environment: home.environment(), rows: 40, columns: 200)
        defer { session.close() }
        try session.waitForPrompt()
        let failed = try session.enter("load k from \(bad)")
        #expect(failed.contains("password authentication failed"), "\(failed)")
        try session.enter("load k from \(good)")
        try session.enter("use k", prompt: "k> ")
        let shown = try session.enter("datasets") + session.enter("about") + session.enter("use")
        try session.send(Key.ctrlD)
        _ = try session.waitForExit()
        // Typed lines are echoed as typed; nothing almanac printed holds a password.
        #expect(!shown.contains(TestCluster.password) && !shown.contains("Wr0ng-Secret-77"), "\(shown)")
        #expect(shown.contains("127.0.0.1:\(cluster.port)/almanac, table public.kinds"), "\(shown)")
        let history = home.read(home.historyPath) ?? ""
        #expect(!history.contains(TestCluster.password) && !history.contains("Wr0ng-Secret-77"), "\(history)")
        let remembered = "load k from postgresql://\(TestCluster.passwordRole)@127.0.0.1:\(cluster.port)/almanac?table=kinds"
        // Both lines read the same without their passwords: one entry, as a repeated line is.
        #expect(history.components(separatedBy: "\n").filter { $0 == remembered }.count == 1, "\(history)")
    }

    @Test("libpq is opened when a database is first used, not at start")
    func libpqIsOpenedOnFirstUse() throws {
        let session = try PseudoTerminalSession(["--no-rc"], environment: home.environment())
        defer { session.close() }
        try session.waitForPrompt()
        // /proc files say they are empty: read them to the end rather than by their size.
        func mapsLibpq() -> Bool {
            let maps = FileHandle(forReadingAtPath: "/proc/\(session.pid)/maps")?.readDataToEndOfFile() ?? Data()
            return String(decoding: maps, as: UTF8.self).contains("libpq.so")
        }
        try session.enter("count")
        #expect(!mapsLibpq(), "started and answered without libpq")
        let attached = try session.enter("load k from \(try Database.url("kinds"))")
        #expect(mapsLibpq(), "opened for the table: \(attached.visible)")
    }

    @Test("values holding quotes and SQL match only themselves and change nothing")
    func injectionMatchesNothingAndChangesNothing() throws {
        let contents = "SELECT md5(string_agg(k::text, '|' ORDER BY id)) FROM kinds AS k"
        let before = try Database.column(contents)
        // The table and anything named after it: other suites make and drop tables of their own meanwhile.
        let ownTables = "SELECT count(*) FROM pg_class WHERE relname LIKE 'kinds%'"
        let tables = try Database.column(ownTables)
        let url = try Database.url("kinds")
        let result = try run([
            "load k from \(url)", "use k",
            "filter name = \"' OR '1'='1\"", "count",
            "filter clear", "filter name = \"x' OR '1'='1\"", "count",
            "filter clear", "filter city = \"'; DROP TABLE kinds; --\" or city ~ \"1); DELETE FROM kinds; --\"", "count",
            "filter clear", "search \"'; DROP TABLE kinds; --\"", "count",
            "show \"1 OR 1=1\"",
            "filter \"name; DROP TABLE kinds; --\" = 1",
            "export postgresql://postgres@127.0.0.1:\(try Database.cluster().port)/almanac?table=kinds",
        ])
        let counts = result.stdout.split(separator: "\n").filter { Int($0) != nil }
        #expect(counts == ["0", "1", "0", "0"], "only the row whose name is that text matches: \(result)")
        #expect(result.stderr.contains("nothing called '1 OR 1=1'"), "\(result)")
        #expect(result.stderr.contains("unknown field"), "\(result)")
        #expect(result.stderr.contains("'kinds' is the table being read") || result.stderr.contains("already exists"), "\(result)")
        #expect(try Database.column(contents) == before, "the table's contents are unchanged")
        #expect(try Database.column(ownTables) == tables, "no table was made or dropped")
    }
}

/// Several JSON documents printed one after another (one per command under --format json).
enum JSONDocuments {
    static func split(_ text: String) throws -> [Any] {
        var documents: [Any] = []
        var depth = 0
        var inString = false
        var escaped = false
        var start: String.Index?
        for index in text.indices {
            let character = text[index]
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                continue
            }
            switch character {
            case "\"": inString = true
            case "{", "[":
                if depth == 0 { start = index }
                depth += 1
            case "}", "]":
                depth -= 1
                if depth == 0, let begin = start {
                    let slice = String(text[begin...index])
                    documents.append(try JSONSerialization.jsonObject(with: Data(slice.utf8), options: [.fragmentsAllowed]))
                }
            default: break
            }
        }
        return documents
    }
}
