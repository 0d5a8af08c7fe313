import Foundation
import PostgresCluster
import Testing

/// Extreme doubles are values to report, never a trap (issue 31): ±0, subnormals, ±1e308,
/// numbers past a Double (`1e400`, read as infinity in memory; numeric in PostgreSQL), NaN and
/// ±Infinity (float8), text `9e999999` among numbers — thrown at every numeric command, in
/// memory and on a table. Each command ends with an answer or one clear error; the shell never
/// dies (exit 132 was the trap) and no overflow error escapes.
@Suite("Extreme values never crash a command")
struct ExtremeValueTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    /// The values, as JSON numbers or text, one per record.
    static let numbers = ["0", "-0", "5e-324", "-2.2250738585072014e-308", "1e308", "-1e308", "1.7976931348623157e308", "1e400", "-1e400", "3", "12"]
    static let texts = ["NaN", "Infinity", "-Infinity", "9e999999", "12", "-0"]

    static let commands = [
        "describe", "describe v", "describe v, t", "histogram v", "histogram v 1", "histogram v 7", "histogram v 1000", "histogram t",
        "sort v", "sort v desc", "sort t", "filter v > 0", "filter v = 0", "filter v < -1e300", "filter t > 1", "filter t = 9e999999",
        "back", "back", "group v", "group t", "group name sum v, avg v, min v, max v", "group t avg v", "fields", "show #1",
        "search r1", "count", "random",
    ]

    /// Runs the commands one by one and judges each answer.
    func judge(_ setup: [String], environment: TestEnvironment) throws {
        for command in Self.commands {
            let result = try PipeRun.run(["--no-rc"], input: (setup + ["set format json", command]).joined(separator: "\n") + "\n",
                                         environment: environment, directory: home.root)
            #expect(result.status == 0 || result.status == 1, "\(command): \(result)")
            #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("out of range")
                && !result.stderr.contains("overflow"), "\(command): \(result)")
            #expect(result.stderr.split(separator: "\n").count <= 1, "\(command): \(result)")
        }
    }

    @Test("in memory, every numeric command answers for ±0, subnormals, ±1e308, 1e400 and NaN as text")
    func inMemory() throws {
        var records: [String] = []
        for (index, number) in Self.numbers.enumerated() {
            records.append("{\"name\": \"r\(index)\", \"v\": \(number), \"t\": \"\(Self.texts[index % Self.texts.count])\"}")
        }
        let file = try home.write("[" + records.joined(separator: ",\n") + "]\n", to: home.root + "/extreme.json")
        try judge(["load x from \(file)", "use x"], environment: home.environment())
        // The numbers a Double cannot hold are said apart, and the rest profiled.
        let result = try PipeRun.run(["--no-rc"], input: "load x from \(file)\nuse x\ndescribe v\n", environment: home.environment(),
                                     directory: home.root)
        #expect(result.stdout.contains("v: 2 values are NaN, ±infinity or beyond ±1.8e308"), "\(result)")
        #expect(result.stdout.contains("1.7976931348623157e+308") && !result.stdout.contains("nan"), "\(result)")
        // Bin bounds past 10²¹ read as six significant digits, never 309 digits.
        let histogram = try PipeRun.run(["--no-rc"], input: "load x from \(file)\nuse x\nhistogram v 3\n", environment: home.environment(),
                                        directory: home.root)
        #expect(histogram.stdout.contains("-1e+308 – ") && histogram.stdout.contains(" – 1.79769e+308"), "\(histogram)")
        #expect(!histogram.stdout.lines.contains { $0.count > 200 }, "\(histogram)")
    }

    @Test("on a table, every numeric command answers for float8 NaN, ±Infinity, ±1e308, numeric 1e400 and text 9e999999")
    func onATable() throws {
        let cluster = try Database.cluster()
        try cluster.once("extreme table") {
            var rows: [String] = []
            let floats = ["0", "-0", "4.9e-324", "-2.2250738585072014e-308", "1e308", "-1e308", "NaN", "Infinity", "-Infinity", "3", "12"]
            for (index, float) in floats.enumerated() {
                let numeric = index == 7 ? "1e400" : index == 8 ? "-1e400" : index == 6 ? "'NaN'" : "\(index)"
                rows.append("(\(index + 1), 'r\(index)', '\(float)'::float8, \(numeric), '\(Self.texts[index % Self.texts.count])')")
            }
            try cluster.execute("""
                CREATE TABLE extreme (id int PRIMARY KEY, name text, v float8, n numeric, t text);
                INSERT INTO extreme VALUES \(rows.joined(separator: ", "))
                """)
        }
        let url = try Database.url("extreme")
        try judge(["load x from \(url)", "use x"], environment: home.environment())
        for command in ["describe n", "sort n", "filter n > 0", "group n", "group name sum n, avg n"] {
            let result = try PipeRun.run(["--no-rc"], input: "load x from \(url)\nuse x\n\(command)\n", environment: home.environment(),
                                         directory: home.root)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(command): \(result)")
        }
        let described = try PipeRun.run(["--no-rc"], input: "load x from \(url)\nuse x\ndescribe v\n", environment: home.environment(),
                                        directory: home.root)
        #expect(described.stdout.contains("v: 3 values are NaN, ±infinity or beyond ±1.8e308"), "\(described)")
        #expect(described.stdout.contains("-1e+308") && described.stdout.contains("1e+308"), "\(described)")
    }

    @Test("dates in describe keep their era, their year and their infinities")
    func datesOnATable() throws {
        let cluster = try Database.cluster()
        try cluster.once("extreme dates") {
            try cluster.execute("""
                CREATE TABLE extreme_dates (id int PRIMARY KEY, d date);
                INSERT INTO extreme_dates VALUES (1, '0044-03-15 BC'), (2, '5874897-12-31'), (3, 'infinity'), (4, '-infinity'), (5, '2020-01-01')
                """)
        }
        let result = try PipeRun.run(["--no-rc"], input: "load x from \(try Database.url("extreme_dates"))\nuse x\ndescribe d\n",
                                     environment: home.environment(), directory: home.root)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        #expect(result.stdout.contains("0044-03-15 BC") && result.stdout.contains("5874897-12-31"), "\(result)")
        #expect(result.stdout.contains("d: 2 dates are ±infinity") && !result.stdout.contains("nan"), "\(result)")
    }

    @Test("a text[] name column and a column named t break neither search, show, sort nor filter")
    func hostileColumns() throws {
        let cluster = try Database.cluster()
        try cluster.once("hostile columns") {
            try cluster.execute("""
                CREATE TABLE hostile_names (id int PRIMARY KEY, name text[], t int);
                INSERT INTO hostile_names VALUES (1, '{alpha,beta}', 10), (2, '{gamma}', 20)
                """)
        }
        // Each checked command last: a script shows the results it shapes only at its end.
        for (commands, shown) in [(["search alpha"], "alpha, beta"), (["show gamma"], "gamma"), (["sort t desc", "filter t > 15", "count"], "1\n")] {
            let result = try PipeRun.run(["--no-rc"], input: (["load x from \(try Database.url("hostile_names"))", "use x"] + commands)
                                            .joined(separator: "\n") + "\n", environment: home.environment(), directory: home.root)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(commands): \(result)")
            #expect(result.stdout.contains(shown), "\(commands): \(result)")
        }
    }

    @Test("arithmetic past a Double's range is no value, under its smallest 0, on a table as in memory")
    func arithmeticPastTheRange() throws {
        // Each column by hand: past ±1.8e308 no value (memory's Double is infinite), under
        // 2^-1075 zero; 1e300 * 10 is in range. Kept where the
        // expression writes such a number, nested or not; columns, filter and sort alike.
        let columns = "1e308 * 10 as a, population * 1e305 as b, 1e308 + 1e308 as c, -1e308 - 1e308 as d, 1e308 / 1e-10 as e, "
            + "1e-300 * 1e-300 as f, 1e-300 / 1e300 as g, (population + 1) * 1e308 as h, 1e308 * 1 * 10 as i, 1e300 * 10 as j"
        let output = try Database.sameAnswers("countries", table: "extreme_arithmetic", in: home, [
            "filter population * 1e305 > 1", "count", "filter clear",
            "columns name, " + columns, "sort 1e308 * area desc", "limit 1",
        ])
        // The populations whose product with 1e305 stays in range; the smallest area first
        // (Vatican City's 0.44 km², every larger one's product past the range, so last).
        let populations = ValueReadingTests.records("countries").compactMap { $0["population"] as? Double }
        let kept = populations.filter { $0 * 1e305 > 1 && ($0 * 1e305).isFinite }.count
        let vatican = try #require(ValueReadingTests.records("countries").first { $0["name"] as? String == "Vatican City" })
        let population = try #require(vatican["population"] as? Double)
        #expect(kept == 9 && population == 451, "\(kept) \(population)")
        #expect(output.contains("count\n\(kept)\n"), "\(output)")
        #expect(output.contains("name,a,b,c,d,e,f,g,h,i,j,1e308 * area\nVatican City,,\(population * 1e305),,,,0,0,,,1e+301,4.4e+307\n"),
                "\(output)")
    }
}
