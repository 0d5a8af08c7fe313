import Foundation
import Testing

/// Output taller than the terminal goes through `$ALMANAC_PAGER`. The pager here is a shell
/// command that keeps what it is given in a file, so the test sees exactly what was paged and
/// that the terminal did not get it too.
@Suite("The pager", .serialized)
struct PagerTests {
    let home: TemporaryHome
    let pagedFile: String
    let environment: TestEnvironment

    init() throws {
        home = try TemporaryHome()
        pagedFile = home.root + "/paged.txt"
        environment = home.environment().with("ALMANAC_PAGER", "cat > '\(home.root)/paged.txt'")
    }

    /// 24 rows; wide enough that no detail line wraps, so the paged text can be compared with
    /// what a pipe prints.
    func start() throws -> PseudoTerminalSession {
        let session = try PseudoTerminalSession(environment: environment, rows: 24, columns: 200)
        try session.waitForPrompt()
        return session
    }

    func leave(_ session: PseudoTerminalSession) throws {
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0, "\(session.text.tail().visible)")
    }

    func takePaged() -> String? {
        defer { try? FileManager.default.removeItem(atPath: pagedFile) }
        return home.read(pagedFile)
    }

    /// What a pipe prints for the -c `commands` (no pager there).
    func piped(_ commands: [String]) throws -> PipeResult {
        try PipeRun.run(commands.flatMap { ["-c", $0] }, environment: environment, directory: home.root)
    }

    @Test("a detail view taller than the terminal goes to the pager, not to the terminal")
    func detailThroughPager() throws {
        let expected = try piped(["use countries", "show NOR"])
        #expect(expected.status == 0 && expected.stdout.lines.count > 24, "\(expected)")

        let session = try start()
        try session.enter("use countries", prompt: "countries> ")
        let shown = try session.enter("show NOR")
        let paged = takePaged()
        #expect(paged == expected.stdout, "the pager got the whole view:\n\(paged ?? "nothing")")
        #expect(!shown.contains("Норвегия") && !shown.contains("Names and codes"), "the terminal did not get it\n\(shown.visible)")

        let fields = try session.enter("fields")
        let pagedFields = takePaged() ?? ""
        #expect(pagedFields.lines.count > 24, "\(pagedFields)")
        for field in ["alpha2Code", "population", "translations.ru", "regionalBlocs.acronym"] {
            #expect(pagedFields.contains(field), "the pager got \(field)")
        }
        #expect(!fields.contains("alpha2Code"), "\(fields.visible)")

        // Short output stays on the terminal.
        #expect(try session.enter("count").contains("250"))
        #expect(takePaged() == nil, "`count` did not start the pager")
        try leave(session)
    }

    @Test("`set pager off` prints long output on the terminal")
    func pagerOff() throws {
        let session = try start()
        try session.enter("use countries", prompt: "countries> ")
        try session.enter("set pager off")
        let shown = try session.enter("show NOR")
        #expect(shown.contains("Норвегия") && shown.contains("Norwegian krone (NOK, kr)"), "\(shown.visible)")
        #expect(takePaged() == nil, "no pager ran")
        try session.enter("set pager on")
        try session.enter("show NOR")
        #expect(takePaged()?.contains("Норвегия") == true, "back on, the pager runs again")
        try leave(session)
    }

    @Test("the pager gets LESS=FRX when LESS is not set, as git gives it; a LESS of one's own is kept")
    func lessOptionsForThePager() throws {
        for (given, expected) in [(nil, "FRX"), ("-S", "-S")] as [(String?, String)] {
            let environment = home.environment().with("ALMANAC_PAGER", "printf '%s\\n' \"$LESS\" > '\(pagedFile)'; cat > /dev/null")
                .with("LESS", given)
            let session = try PseudoTerminalSession(environment: environment, rows: 24, columns: 200)
            try session.waitForPrompt()
            try session.enter("use countries", prompt: "countries> ")
            try session.enter("show NOR")
            #expect(takePaged() == expected + "\n", "LESS given: \(given ?? "none")")
            try leave(session)
        }
    }

    /// PAGER=less alone showed describe's dim rules as `ESC[2m─[ 1 ]─…ESC[0m`: less shows
    /// escapes as text unless told -R.
    @Test("PAGER=less shows describe's rules, not their escapes as text", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/less")))
    func plainLessShowsNoEscapes() throws {
        let environment = home.environment().without("ALMANAC_PAGER").without("NO_COLOR").with("PAGER", "/usr/bin/less").without("LESS")
        let session = try PseudoTerminalSession(environment: environment, rows: 20, columns: 100)
        try session.waitForPrompt()
        try session.enter("use countries", prompt: "countries> ")
        try session.sendLine("describe")
        let screen = try session.waitForScreen("describe's first rule in less") { $0.lines.contains { $0.contains("[ 1 ]") } }
        #expect(!screen.lines.contains { $0.contains("ESC[") }, "\(screen.lines.joined(separator: "\n"))")
        try session.send("q")
        try session.waitForPrompt("countries> ")
        try leave(session)
    }

    @Test("through a pipe no pager is used")
    func noPagerThroughPipe() throws {
        let result = try piped(["use countries", "show NOR", "fields"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("Норвегия") && result.stdout.contains("alpha2Code"), "\(result)")
        #expect(takePaged() == nil, "no pager ran")
        let fromStdin = try PipeRun.run([], input: "use countries\nshow NOR\n", environment: environment, directory: home.root)
        #expect(fromStdin.stdout.contains("Норвегия"), "\(fromStdin)")
        #expect(takePaged() == nil, "no pager ran")
    }
}
