import Foundation
import PostgresCluster
import Testing

/// The small items of issue 31, each as a person meets it.
@Suite("Third round: the small items")
struct SmallRoundThreeTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    @Test("a column named with a control character is quoted, and the table attaches and answers")
    func controlCharacterInAColumnName() throws {
        let cluster = try Database.cluster()
        try cluster.once("control column") {
            try cluster.execute("CREATE TABLE control_column (id int PRIMARY KEY, \"we\u{1}ird\" text, name text); "
                + "INSERT INTO control_column VALUES (1, 'x', 'one')")
        }
        let result = try PipeRun.run(["--no-rc"], input: "load c from \(try Database.url("control_column"))\nuse c\nfields\nshow 1\ndescribe\n",
                                     environment: home.environment(), directory: home.root)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        #expect(result.stdout.contains("we\\x01ird") && !result.stdout.contains("\u{1}"), "\(result)")
    }

    @Test("TSV at a terminal keeps its own tabs; the data's tabs and escapes are escaped")
    func tsvAtATerminal() throws {
        let file = try home.write(#"[{"name": "a\tb", "x": "p\u001b[31mq"}]"#, to: home.root + "/tabs.json")
        let session = try PseudoTerminalSession(["--no-rc"], environment: home.environment(), rows: 24, columns: 100)
        defer { session.close() }
        try session.waitForPrompt()
        try session.enter("load t from \(file)")
        try session.enter("use t", prompt: "t> ")
        try session.enter("set format tsv")
        let shown = try session.enter("page")
        #expect(shown.contains("name\tx") && shown.contains("a\\tb\tp\\e[31mq"), "\(shown.visible)")
        try session.send(Key.ctrlD)
        _ = try session.waitForExit()
    }

    @Test("describe 'quoted field', other profiles both fields")
    func quotedFieldThenComma() throws {
        let result = try PipeRun.run(["--no-rc"], input: "use countries\ndescribe 'name', population\n", environment: home.environment(),
                                     directory: home.root)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        #expect(result.stdout.lines.filter { $0.hasPrefix("name ") || $0.hasPrefix("population ") }.count == 2, "\(result)")
    }
}
