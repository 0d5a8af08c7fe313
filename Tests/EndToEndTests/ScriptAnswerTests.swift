import Foundation
import Testing

/// A script asks one question: shaping commands (use, search, filter, sort, columns, limit,
/// back, set) are quiet in `-c`, `-f` and piped scripts unless they are the script's last,
/// answering commands print; `--echo` / `set echo on` print every listing; -c and -f run in
/// the order given.
@Suite("A script's answer")
struct ScriptAnswerTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    func run(_ arguments: [String], input: String = "") throws -> PipeResult {
        try PipeRun.run(["--no-rc"] + arguments, input: input, environment: home.environment(), directory: home.root)
    }

    static func commands(_ lines: [String]) -> [String] { lines.flatMap { ["-c", $0] } }

    /// Species whose classification is `mammal` (folded, as `=` compares), from the data file.
    static var mammals: [String] {
        ValueReadingTests.records("species").filter { ($0["classification"] as? String)?.lowercased() == "mammal" }
            .compactMap { $0["name"] as? String }
    }

    @Test("the five largest countries as JSON: the whole of standard output is one document python's json.loads reads")
    func oneJSONDocument() throws {
        let result = try run(["--format", "json"] + Self.commands(["use countries", "sort area desc", "columns name, capital, area",
                                                                   "limit 5", "page"]))
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        // python3 computes the answer from the data file and compares it with json.loads(stdout).
        let check = """
            import json, sys
            answer = json.loads(sys.stdin.read())
            countries = json.load(open(sys.argv[1]))
            sized = [c for c in countries if isinstance(c.get("area"), (int, float))]
            top = sorted(sized, key=lambda c: -c["area"])[:5]
            expected = [{"name": c["name"], "capital": c.get("capital"), "area": c["area"]} for c in top]
            print("same" if answer == expected else "differ: %r != %r" % (answer, expected))
            """
        let python = try Python.run(check, arguments: [DataFolder.realFile("countries")], input: result.stdout)
        #expect(python == "same\n", "\(python)\n\(result)")
    }

    @Test("a drill-down shapes: group then show #N answers once, with the group's records, as a saved session replays")
    func drillDownAnswersOnce() throws {
        // The regions by count, largest first (equal counts by name): the last is the smallest group.
        var counts: [String: Int] = [:]
        for country in ValueReadingTests.records("countries") { counts[country["region"] as? String ?? "", default: 0] += 1 }
        let regions = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        let (smallest, size) = try #require(regions.last)
        let json = try run(["--format", "json"] + Self.commands(["use countries", "group region", "show #\(regions.count)"]))
        #expect(json.status == 0 && json.stderr.isEmpty, "\(json)")
        let documents = try JSONDocuments.split(json.stdout)
        #expect(documents.count == 1, "one answer: \(json.stdout)")
        let rows = try #require(documents.first as? [[String: Any]])
        #expect(rows.count == size && rows.allSatisfy { $0["region"] as? String == smallest }, "\(rows)")
        // Asked after the drill-down, the answer is the question's alone; a group asked last is written.
        #expect(try run(Self.commands(["use countries", "group region", "show #\(regions.count)", "count"])).stdout == "\(size)\n")
        let groups = try run(["--format", "csv"] + Self.commands(["use countries", "group region", "count"])).stdout
        #expect(groups.hasPrefix("region,count,percent\n") && groups.hasSuffix("\n250\n"), "\(groups)")
        // A drill-down that fails leaves the group's answer written.
        let failed = try run(["--format", "csv"] + Self.commands(["use countries", "group region", "show #99"]))
        #expect(failed.stdout.hasPrefix("region,count,percent\n") && failed.stdout.split(separator: "\n").count == regions.count + 1, "\(failed)")
    }

    /// What `filter classification = mammal` adds on standard error: the rarer spelling's count.
    static var alsoMammals: String {
        "also 'mammals' (\(ValueReadingTests.records("species").filter { $0["classification"] as? String == "mammals" }.count))\n"
    }

    @Test("piped input ending in a filter still prints the filter's listing")
    func lastShapingCommandPrints() throws {
        let result = try run(["--format", "csv"], input: "use species\nfilter classification = mammal\n")
        // Standard error names the one species whose classification is spelt 'mammals'.
        #expect(result.status == 0 && result.stderr == Self.alsoMammals, "\(result)")
        let names = try RecordFormats.table(try RecordFormats.csv(result.stdout)).records.compactMap { $0["name"] }
        #expect(names == Self.mammals, "\(result)")
        #expect(names.count == 16)
    }

    @Test("csv of filter then count is one header and one row")
    func countAfterFilter() throws {
        let result = try run(["--format", "csv"] + Self.commands(["use species", "filter classification = mammal", "count"]))
        #expect(result.status == 0 && result.stderr == Self.alsoMammals, "\(result)")
        #expect(result.stdout == "count\n\(Self.mammals.count)\n", "\(result)")
        let piped = try run(["--format", "csv"], input: "use species\nfilter classification = mammal\nsort name\ncount\n")
        #expect(piped.stdout == "count\n\(Self.mammals.count)\n", "\(piped)")
    }

    @Test("quit does not end the wait: the listing before it is the script's answer")
    func quitKeepsTheLastListing() throws {
        let result = try run(["--format", "csv"], input: "use species\nfilter classification = mammal\nquit\nsort name\n")
        let names = try RecordFormats.table(try RecordFormats.csv(result.stdout)).records.compactMap { $0["name"] }
        #expect(names == Self.mammals, "\(result)")
    }

    @Test("--echo and set echo on print every listing, as before", arguments: [["--echo"], ["-c", "set echo on"]])
    func echoPrintsEveryListing(_ echo: [String]) throws {
        let result = try run(["--format", "json"] + echo + Self.commands(["use countries", "sort area desc", "limit 2", "count"]))
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        let documents = try JSONDocuments.split(result.stdout)
        #expect(documents.count == 3, "sort's listing, limit's, count's\n\(result)")
        #expect((documents.first as? [Any])?.count == ValueReadingTests.records("countries").count)
        #expect((documents.dropFirst().first as? [Any])?.count == 2)
        #expect(documents.last as? [String: Int] == ["count": 2])
    }

    @Test("set alone and set NAME answer; set NAME VALUE and use NAME are quiet")
    func askingFormsAnswer() throws {
        let result = try run(Self.commands(["set pagesize 3", "set pagesize", "use species", "use", "columns", "set format csv"]))
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        #expect(result.stdout.hasPrefix("3\nusing species ("), "\(result)")
        #expect(result.stdout.contains("species: name, classification"), "columns alone says which\n\(result)")
    }

    @Test("errors: still -c:N: on stderr and exit 1; a failing command drops the listing before it; --bail stops")
    func errorsAsBefore() throws {
        let failing = try run(["--format", "csv"] + Self.commands(["use species", "filter nope = 1", "sort name", "limit 2"]))
        #expect(failing.status == 1, "\(failing)")
        #expect(failing.stderr.hasPrefix("-c:2:8: unknown field 'nope'"), "\(failing)")
        #expect(try RecordFormats.table(try RecordFormats.csv(failing.stdout)).records.count == 2, "limit's listing is the answer\n\(failing)")

        let dropped = try run(["--format", "csv"] + Self.commands(["use species", "sort name", "bogus"]))
        #expect(dropped.status == 1 && dropped.stdout.isEmpty, "the last command failed: no listing\n\(dropped)")
        #expect(dropped.stderr == "-c:3:1: unknown command 'bogus' — type 'help' for the list\n", "\(dropped)")

        let bailed = try run(["--bail", "--format", "csv"] + Self.commands(["use species", "sort name", "filter nope = 1", "count"]))
        #expect(bailed.status == 1 && bailed.stdout.isEmpty, "\(bailed)")
        #expect(bailed.stderr.hasPrefix("-c:3:8: "), "\(bailed)")
    }

    @Test("-c and -f run in the order given; -c:N: counts every -c")
    func commandsAndFilesInOrder() throws {
        let file = home.root + "/count.almanac"
        try "count\n".write(toFile: file, atomically: true, encoding: .utf8)
        let species = ValueReadingTests.records("species").count
        let planets = ValueReadingTests.records("planets").count
        let result = try run(["--format", "csv", "-c", "use species", "-f", file, "-c", "use planets", "-f", file, "-c", "bogus"])
        #expect(result.stdout == "count\n\(species)\ncount\n\(planets)\n", "\(result)")
        #expect(result.stderr == "-c:3:1: unknown command 'bogus' — type 'help' for the list\n", "\(result)")
        #expect(result.status == 1)
    }

    @Test("at the prompt every listing shows, as before")
    func promptUnchanged() throws {
        let session = try PseudoTerminalSession(["--no-rc"], environment: home.environment(), rows: 40, columns: 120)
        defer { session.close() }
        try session.waitForPrompt()
        try session.enter("set pager off")
        try session.enter("use species", prompt: "species> ")
        session.settle()
        session.skipReceived()
        let listed = try session.enter("filter classification = mammal")
        for name in Self.mammals.prefix(5) { #expect(listed.contains(name), "\(listed.visible)") }
        let sorted = try session.enter("sort name")
        #expect(sorted.contains(Self.mammals.sorted { $0.lowercased() < $1.lowercased() }[0]), "\(sorted.visible)")
    }
}

/// python3 as the tests use it: a script on the command line, text on standard input.
enum Python {
    static func run(_ script: String, arguments: [String] = [], input: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stdout
        try process.run()
        let writer = Thread { stdin.fileHandleForWriting.write(Data(input.utf8)); try? stdin.fileHandleForWriting.close() }
        writer.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self)
    }
}
