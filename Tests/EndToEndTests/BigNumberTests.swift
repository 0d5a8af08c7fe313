import Foundation
import PostgresCluster
import Testing

/// Big integers compare exactly, not only display exactly (issue 31): past 2⁵³ one Double is
/// many numbers, so `ExactNumber` (memory) and the value bound as written (SQL) decide. The
/// same answers in memory and on a table.
@Suite("Big integers compare exactly")
struct BigNumberTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    static let low = "123456789012345678901234567890"
    static let high = "123456789012345678901234567891"
    static let commands = ["set format csv", "group n", "filter n = \(high)", "count", "back", "filter n > \(low)", "count", "back",
                           "filter n < \(high)", "count", "back", "describe n"]

    func answers(_ setup: [String], commands: [String] = Self.commands) throws -> [String] {
        let result = try PipeRun.run(["--no-rc"], input: (setup + commands).joined(separator: "\n") + "\n",
                                     environment: home.environment(), directory: home.root)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test("group, filter =, <, > and describe's distinct tell …890 from …891, in memory and on a table")
    func exactlyInMemoryAndOnATable() throws {
        let file = try home.write("""
            [{"name": "a", "n": \(Self.low)}, {"name": "b", "n": \(Self.high)}, {"name": "c", "n": \(Self.high)}, {"name": "d", "n": 5}]
            """, to: home.root + "/big.json")
        let memory = try answers(["load b from \(file)", "use b"])
        let cluster = try Database.cluster()
        try cluster.once("big numbers") {
            try cluster.execute("""
                CREATE TABLE big_numbers (id int PRIMARY KEY, name text, n numeric);
                INSERT INTO big_numbers VALUES (1, 'a', \(Self.low)), (2, 'b', \(Self.high)), (3, 'c', \(Self.high)), (4, 'd', 5)
                """)
        }
        let table = try answers(["load b from \(try Database.url("big_numbers"))", "use b"])
        for answers in [memory, table] {
            #expect(answers.prefix(4) == ["n,count,percent", "\(Self.high),2,50", "5,1,25", "\(Self.low),1,25"], "\(answers)")
            #expect(answers.filter { Int($0) != nil } == ["2", "2", "2"], "=, >, < each match two: \(answers)")
            #expect(answers.last?.hasPrefix("n,number,4,0,3,") == true, "three distinct values: \(answers)")
            // min is 5; max past 2⁵³ is the literal, not the Double's 1.2345678901234568e+29.
            let describe = answers.last?.split(separator: ",").map(String.init) ?? []
            #expect(describe.count > 6 && describe[5] == "5" && describe[6] == Self.high, "\(answers)")
        }
    }

    @Test("sort tells apart integers one Double holds (…788, …789; 2⁵³ and 2⁵³ + 1; 30 digits), both ways, in memory and on a table")
    func sortIsExact() throws {
        // name → n, listed in the order the names give; each pair rounds to one Double.
        let values = [("a", Self.high), ("b", "1234567890123456789"), ("c", "9007199254740993"), ("d", Self.low),
                      ("e", "1234567890123456788"), ("f", "9007199254740992"), ("g", "5")]
        let file = try home.write("[" + values.map { "{\"name\": \"\($0.0)\", \"n\": \($0.1)}" }.joined(separator: ", ") + "]",
                                  to: home.root + "/sorted.json")
        let cluster = try Database.cluster()
        try cluster.once("big numbers sorted") {
            try cluster.execute("CREATE TABLE big_sorted (name text PRIMARY KEY, n numeric); INSERT INTO big_sorted VALUES "
                                + values.map { "('\($0.0)', \($0.1))" }.joined(separator: ", "))
        }
        let ascending = ["g", "f", "c", "e", "b", "d", "a"]
        for source in [file, try Database.url("big_sorted")] {
            for (sort, expected) in [("sort n", ascending), ("sort n desc", ascending.reversed())] {
                // A script prints its last answer: one run per direction.
                let answers = try answers(["load s from \(source)", "use s"], commands: ["set format csv", "columns name", sort])
                #expect(answers.dropFirst().map { String($0.prefix(1)) } == Array(expected), "\(source) \(sort): \(answers)")
            }
        }
    }
}
