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
