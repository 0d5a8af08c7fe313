import Foundation
import PostgresCluster
import Testing

/// `save FILE` writes the lines that built the current results, which `almanac -f FILE`
/// replays to the same results: without failed lines, lines `back` undid, or passwords.
@Suite("save")
struct SaveCommandTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    func run(_ arguments: [String], input: String = "") throws -> PipeResult {
        try PipeRun.run(["--no-rc"] + arguments, input: input, environment: home.environment(), directory: home.root)
    }

    /// The saved commands, without the comment lines at the top.
    func commands(in path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") }
    }

    /// The four most populous European countries, from the data file.
    static var europeTop4: [String] {
        ValueReadingTests.records("countries").filter { $0["region"] as? String == "Europe" }
            .sorted { (($0["population"] as? NSNumber)?.intValue ?? -1) > (($1["population"] as? NSNumber)?.intValue ?? -1) }
            .prefix(4).compactMap { $0["name"] as? String }
    }

    @Test("saved at the prompt, replayed with -f: the same results as the prompt listed")
    func saveAtThePromptReplays() throws {
        let file = home.root + "/europe.almanac"
        let session = try PseudoTerminalSession(["--no-rc"], environment: home.environment(), rows: 40, columns: 160)
        defer { session.close() }
        try session.waitForPrompt()
        try session.enter("set pager off")
        try session.enter("use countries", prompt: "countries> ")
        /// What `line` shows, once what came before has all arrived (errors redraw the line).
        func enter(_ line: String) throws -> String {
            session.settle()
            session.skipReceived()
            return try session.enter(line)
        }
        for line in ["filter region = Europe", "sort population desc", "limit 10", "back", "limit 4", "columns name, population",
                     "bogus", "filter nope = 1", "sort \"no such field\""] {
            _ = try enter(line)
        }
        let shown = try enter("page")
        for name in Self.europeTop4 { #expect(shown.contains(name), "\(name)\n\(shown.visible)") }
        #expect(try enter("save \(file)").contains("saved 6 commands to \(file)"))
        #expect(try commands(in: file) == ["set pager off", "use countries", "filter region = Europe", "sort population desc",
                                            "limit 4", "columns name, population"])
        // Not replaced without --force; replaced with it.
        #expect(try enter("save \(file)").contains("already exists — add --force to replace it"))
        _ = try enter("sort name")
        #expect(try enter("save \(file) --force").contains("saved 7 commands"))
        _ = try enter("back")
        _ = try enter("save \(file) --force")

        let replayed = try run(["--format", "json", "-f", file, "-c", "page"])
        #expect(replayed.status == 0 && replayed.stderr.isEmpty, "\(replayed)")
        let rows = try #require(try JSONDocuments.split(replayed.stdout).first as? [[String: Any]], "\(replayed)")
        #expect(rows.compactMap { $0["name"] as? String } == Self.europeTop4, "\(replayed)")
        #expect(rows.allSatisfy { Set($0.keys) == ["name", "population", "region"] }, "the chosen columns, and the filter's field")
    }

    @Test("a drill-down is saved as its group and show #N; a script's save is quiet")
    func drillDown() throws {
        let file = home.root + "/mammals.almanac"
        let saved = try run(["-c", "use species", "-c", "group classification", "-c", "show #1", "-c", "save \(file)"])
        #expect(saved.status == 0 && saved.stderr.isEmpty, "\(saved)")
        #expect(try commands(in: file) == ["use species", "group classification", "show #1"])
        let replayed = try run(["--format", "csv", "-f", file, "-c", "count"])
        let mammals = ValueReadingTests.records("species").filter { ($0["classification"] as? String)?.lowercased() == "mammal" }.count
        #expect(replayed.stdout.hasSuffix("count\n\(mammals)\n"), "\(replayed)")
    }

    @Test("columns chosen before a later use are not saved: the replay would run them before any use")
    func columnsForgottenAtUse() throws {
        let file = home.root + "/again.almanac"
        let saved = try run(["-c", "use countries", "-c", "columns name", "-c", "use countries", "-c", "filter region = Europe",
                             "-c", "save \(file)"])
        #expect(saved.status == 0 && saved.stderr.isEmpty, "\(saved)")
        #expect(try commands(in: file) == ["use countries", "filter region = Europe"])
        let replayed = try run(["--format", "csv", "-f", file, "-c", "count"])
        let europe = ValueReadingTests.records("countries").filter { $0["region"] as? String == "Europe" }.count
        #expect(replayed.status == 0 && replayed.stderr.isEmpty, "\(replayed)")
        #expect(replayed.stdout.hasSuffix("count\n\(europe)\n"), "\(replayed)")
    }

    @Test("a file loaded by a relative path is saved by its absolute path, and replays from another folder")
    func relativePathReplaysElsewhere() throws {
        try home.write("a,b\n1,2\n3,4\n", to: "explore/q.csv")
        try home.write("a\n5\n", to: "explore/my data/it's.csv")
        // The folder as the shell sees it (getcwd): without symbolic links.
        let folder = URL(fileURLWithPath: home.root + "/explore").resolvingSymlinksInPath().path
        let saved = try PipeRun.run(["--no-rc", "-c", "load q from q.csv", "-c", #"load r from "my data/it's.csv""#, "-c", "use q",
                                     "-c", "save s1.alm"], environment: home.environment(), directory: folder)
        #expect(saved.status == 0 && saved.stderr.isEmpty, "\(saved)")
        #expect(try commands(in: folder + "/s1.alm") == ["load q from \(folder)/q.csv", #"load r from "\#(folder)/my data/it's.csv""#, "use q"])
        let replayed = try run(["--format", "csv", "-f", folder + "/s1.alm", "-c", "count"])
        #expect(replayed.status == 0 && replayed.stderr.isEmpty, "\(replayed)")
        #expect(replayed.stdout == "count\n2\n", "\(replayed)")
    }

    @Test("a password in a URL is never written; the table replays without it")
    func passwordsLeftOut() throws {
        try Database.cluster().kindsTable()
        let url = try Database.url("kinds", password: "s3cret-word")
        let file = home.root + "/kinds.almanac"
        let saved = try run([], input: "load k from \(url)\nuse k\nfilter population > 100000\nsave \(file)\n")
        #expect(saved.status == 0 && saved.stderr.isEmpty, "\(saved)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(!text.contains("s3cret-word"), "\(text)")
        #expect(text.contains("passwords were left out"), "\(text)")
        #expect(try commands(in: file) == ["load k from \(try Database.url("kinds"))", "use k", "filter population > 100000"])
        #expect(try run(["--format", "csv", "-f", file, "-c", "count"]).stdout == "count\n2\n")
    }
}
