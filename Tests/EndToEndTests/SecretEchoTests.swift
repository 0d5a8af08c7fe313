import Foundation
import PostgresCluster
import Testing

/// No echo of user input repeats a password, whatever its characters (issue 31): usage
/// errors, error messages, the caret line at the prompt, `datasets`, history and its hints.
@Suite("Secrets are never echoed")
struct SecretEchoTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    /// Passwords libpq reads whole, as typed at the prompt (`\ ` is the shell's escape).
    static let spellings: [(typed: String, secrets: [String])] = [
        ("u:Se?cr3t-Q@127.0.0.1:1/db", ["Se?cr3t-Q", "cr3t-Q"]),
        ("u:Se#cr3t-H@127.0.0.1:1/db", ["Se#cr3t-H", "cr3t-H"]),
        ("u:Pa\\ ss-W0rd@127.0.0.1:1/db", ["Pa\\ ss-W0rd", "Pa ss-W0rd", "ss-W0rd"]),
        ("u@127.0.0.1:1/db?password=Pct%3FEnc0ded", ["Pct%3FEnc0ded", "Pct?Enc0ded", "Enc0ded"]),
        ("u@127.0.0.1:1/db?pass%77ord=N4me-Enc", ["N4me-Enc"]),
    ]

    @Test("usage errors, load errors and export errors in a script show no password")
    func scriptErrorsShowNoPassword() throws {
        for (typed, secrets) in Self.spellings {
            let url = "postgresql://" + typed + (typed.contains("?") && !typed.contains(":Se?") ? "&table=t" : "?table=t")
            let lines = ["load x \(url)", "load x from \(url)", "load from \(url) extra", "export \(url)", "use \(url)", "show \(url)"]
            let result = try PipeRun.run(["--no-rc"], input: lines.joined(separator: "\n") + "\n", environment: home.environment(),
                                         directory: home.root)
            #expect(result.stderr.contains("usage: load"), "\(result)")
            for secret in secrets {
                #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret), "\(secret) in \(result)")
            }
        }
    }

    @Test("at the prompt the caret line masks the password, history keeps the line without it and says so once")
    func promptEchoesAndHistoryHideThePassword() throws {
        let session = try PseudoTerminalSession(["--no-rc"], environment: home.environment(), rows: 40, columns: 200)
        defer { session.close() }
        try session.waitForPrompt()
        let typed = "load x postgresql://u:Se?cr3t-Q@127.0.0.1:1/db?table=t"
        let answer = try session.enter(typed)
        // The typed line is echoed by the terminal once; almanac's caret line shows it masked.
        #expect(answer.components(separatedBy: "Se?cr3t-Q").count == 2, "\(answer)")
        #expect(answer.contains("  load x postgresql://u:***@127.0.0.1:1/db?table=t"), "\(answer)")
        #expect(answer.contains("note: history keeps lines without their passwords"), "\(answer)")
        let second = try session.enter("load y postgresql://u:Se#cr3t-H@127.0.0.1:1/db?table=t")
        #expect(!second.contains("note: history"), "said once: \(second)")
        try session.send(Key.ctrlD)
        _ = try session.waitForExit()
        let history = home.read(home.historyPath) ?? ""
        #expect(!history.contains("cr3t"), "\(history)")
        #expect(history.contains("load x postgresql://u@127.0.0.1:1/db?table=t"), "\(history)")
    }

    @Test("a password holding ?, # and a space attaches the table and shows nowhere")
    func anAttachedTableShowsNoPassword() throws {
        let cluster = try Database.cluster()
        try cluster.kindsTable()
        let password = "Se?cr#t W0rd"
        try cluster.once("secret role") {
            try cluster.execute("CREATE ROLE almanac_secret LOGIN PASSWORD '\(password)'; GRANT pg_read_all_data TO almanac_secret")
        }
        let typed = "postgresql://almanac_secret:Se?cr#t\\ W0rd@127.0.0.1:\(cluster.port)/almanac?table=kinds"
        let result = try PipeRun.run(["--no-rc"], input: "load k from \(typed)\nuse k\ncount\ndatasets\nabout\n",
                                     environment: home.environment(), directory: home.root)
        #expect(result.status == 0 && result.stdout.hasPrefix("5\n"), "\(result)")
        #expect(result.stdout.contains("postgresql://almanac_secret:***@127.0.0.1:\(cluster.port)/almanac?table=kinds"), "\(result)")
        for secret in [password, "cr#t", "W0rd"] {
            #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret), "\(result)")
        }
    }
}
