import Foundation
import Testing

/// almanac at its prompt, on a pseudo-terminal, driven key by key, with a temporary home.
///
/// Every test waits for the line editor to be ready (echo off) before typing, and every wait
/// has a generous timeout; a failure shows what the terminal showed.
@Suite("The interactive prompt", .serialized)
struct PromptTests {
    static let prompt = PseudoTerminalSession.prompt
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    /// Starts almanac on a terminal and waits until it is ready for keys at its first prompt.
    /// 60 rows: `help` (longer than 24 lines) fits, so no pager starts.
    func start(_ arguments: [String] = [], environment: TestEnvironment? = nil,
               rows: Int = 60, columns: Int = 80) throws -> PseudoTerminalSession {
        let session = try PseudoTerminalSession(arguments, environment: environment ?? home.environment(),
                                                rows: rows, columns: columns)
        try session.waitForPrompt()
        return session
    }

    /// Leaves with Ctrl-D on an empty line and expects status 0.
    func leave(_ session: PseudoTerminalSession) throws {
        try session.send(Key.ctrlD)
        let status = try session.waitForExit()
        #expect(status == 0, "Ctrl-D on an empty line exits 0\n\(session.text.tail().visible)")
    }

    func historyLines(_ path: String? = nil) -> [String] {
        home.read(path ?? home.historyPath)?.lines ?? []
    }

    // MARK: - The prompt

    @Test("a banner, then the prompt; a command runs and the prompt comes back")
    func bannerAndPrompt() throws {
        let session = try PseudoTerminalSession(environment: home.environment(), rows: 60)
        let beforePrompt = try session.waitFor(Self.prompt)
        #expect(beforePrompt.range(of: #"almanac \S+ — type 'help' for commands, Ctrl-D to leave\n"#,
                                   options: .regularExpression) != nil, "\(beforePrompt.visible)")
        try session.waitUntilReady()
        let shown = try session.enter("help")
        #expect(shown.contains("Commands (help COMMAND for details):"), "\(shown.visible)")
        for name in ["about", "set", "history", "quit"] {
            #expect(shown.contains("  \(name) "), "help lists \(name)\n\(shown.visible)")
        }
        try session.sendLine("quit")
        #expect(try session.waitForExit() == 0)
    }

    @Test("--quiet leaves the banner out")
    func quietHasNoBanner() throws {
        let session = try PseudoTerminalSession(["--quiet"], environment: home.environment())
        let beforePrompt = try session.waitFor(Self.prompt)
        #expect(!beforePrompt.contains("Ctrl-D to leave"), "\(beforePrompt.visible)")
        try session.waitUntilReady()
        try leave(session)
    }

    @Test("an error at the prompt is reported and the shell goes on")
    func errorAtPrompt() throws {
        let session = try start()
        let shown = try session.enter("hlep")
        #expect(shown.contains("unknown command 'hlep' — did you mean 'help'?"), "\(shown.visible)")
        #expect(!shown.contains("stdin:"), "no script location at the prompt\n\(shown.visible)")
        let next = try session.enter("set format")
        #expect(next.contains("table"), "\(next.visible)")
        try leave(session)
    }

    @Test("the startup file runs before the first prompt; --no-rc skips it")
    func startupFileAtPrompt() throws {
        try home.writeStartupFile("set format json\n")
        let session = try start()
        #expect(try session.enter("set format").contains("json"))
        try leave(session)

        let skipping = try start(["--no-rc"])
        let shown = try skipping.enter("set format")
        #expect(shown.contains("table") && !shown.contains("json"), "\(shown.visible)")
        try leave(skipping)
    }

    @Test("-c with --interactive runs the commands, then opens the prompt")
    func commandsThenPrompt() throws {
        let session = try PseudoTerminalSession(["-c", "set format csv", "--interactive"], environment: home.environment())
        try session.waitForPrompt()
        #expect(try session.enter("set format").contains("csv"))
        try leave(session)
    }

    @Test("-c on a terminal runs and exits without a prompt")
    func commandsOnTerminalExit() throws {
        let session = try PseudoTerminalSession(["-c", "set format tsv; set format"], environment: home.environment())
        try session.waitFor("tsv")
        #expect(try session.waitForExit() == 0)
        #expect(!session.text.contains(Self.prompt), "\(session.text.visible)")
        #expect(!home.exists(home.historyPath), "-c writes no history")
    }

    // MARK: - Completion

    @Test("TAB completes a command name; Enter runs it")
    func tabCompletesCommand() throws {
        let session = try start()
        try session.send("he" + Key.tab)
        try session.waitFor("lp ")
        let shown = try session.enter("")
        #expect(shown.contains("Commands (help COMMAND for details):"), "\(shown.visible)")
        try leave(session)
        #expect(historyLines() == ["help"], "the completion's trailing space is not stored")
    }

    @Test("completion ignores case and diacritics", arguments: ["AB", "Abó", "ÁBO"])
    func completionFoldsCaseAndDiacritics(typed: String) throws {
        let session = try start()
        try session.send(typed + Key.tab)
        let shown = try session.enter("")
        #expect(shown.contains("an interactive shell for exploring datasets"), "`\(typed)` TAB ran about\n\(shown.visible)")
        try leave(session)
    }

    @Test("a second TAB lists the candidates in columns")
    func doubleTabLists() throws {
        let session = try start()
        try session.send("h" + Key.tab + Key.tab)
        try session.waitFor(pattern: #"\nhelp +histogram +history *\n"#)
        // The line is still there to finish.
        try session.waitFor(Self.prompt + "h")
        try session.waitUntilReady()
        // "histo" is shared with histogram: "r" decides.
        try session.send("istor" + Key.tab)
        let shown = try session.enter("")
        #expect(shown.range(of: #"\n *1  history\n"#, options: .regularExpression) != nil, "\(shown.visible)")
        try leave(session)
    }

    @Test("`set` completes setting names, then their values")
    func setCompletion() throws {
        let session = try start()
        try session.send("set fo" + Key.tab)
        try session.waitFor("rmat ")
        try session.sendLine("json")
        try session.waitForPrompt()
        #expect(try session.enter("set format").contains("json"))

        try session.send("set format " + Key.tab + Key.tab)
        try session.waitFor(pattern: #"table +expanded +json +ndjson +csv +tsv +markdown"#)
        try session.waitFor(Self.prompt + "set format ")
        try session.waitUntilReady()
        try session.send("nd" + Key.tab)
        try session.waitFor("json ")
        try session.enter("")
        #expect(try session.enter("set format").contains("ndjson"))

        // pagesize and pager: TAB adds their common "page" (whatever the case typed), "s" TAB the rest.
        try session.send("SET PA" + Key.tab + "s" + Key.tab)
        #expect(try session.enter("").contains("auto"), "`set pagesize` ran and showed its value")
        try leave(session)
    }

    // MARK: - Keys

    @Test("↑ recalls the previous line")
    func upRecalls() throws {
        let session = try start()
        #expect(try session.enter("help about").contains("usage: about"))
        #expect(try session.enter("set pager off").isEmpty == false)
        try session.send(Key.up + Key.up)
        try session.waitFor("help about")
        let shown = try session.enter("")
        #expect(shown.contains("usage: about"), "\(shown.visible)")
        try leave(session)
    }

    @Test("Ctrl-C clears a half-typed line and the shell lives on")
    func ctrlCClearsLine() throws {
        let session = try start()
        try session.send("set format json")
        try session.waitFor("set format json")
        try session.send(Key.ctrlC)
        try session.waitForPrompt()
        // An empty line too.
        try session.send(Key.ctrlC)
        try session.waitForPrompt()
        let shown = try session.enter("set format")
        #expect(shown.contains("table"), "the abandoned line did not run\n\(shown.visible)")
        #expect(!shown.contains("json"), "the abandoned line is not on the new one\n\(shown.visible)")
        try leave(session)
        #expect(historyLines() == ["set format"], "an abandoned line is not history")
    }

    /// Ctrl-C makes the terminal discard keys the shell has not read yet (ISIG without NOFLSH),
    /// so "set fo" may or may not reach the shell; either way a new prompt must follow. A shell
    /// that blocks in read(2) after poll(2) said "readable" can miss this: the discarded keys
    /// leave nothing to read, and it waits for a whole line with the terminal back in cooked
    /// mode (libedit's SIGINT handler restores it), showing neither "^C" nor a prompt.
    @Test("Ctrl-C straight after typing always gives a new prompt")
    func ctrlCRightAfterTyping() throws {
        let session = try start()
        for attempt in 1...300 {
            // Let the shell settle into waiting for keys, so "set fo" wakes it up; then Ctrl-C
            // a little later each time, to land in every phase of its waking and reading.
            pause(milliseconds: 2)
            try session.send("set fo")
            spin(microseconds: [0, 5, 10, 20, 30, 50][attempt % 6])
            try session.send(Key.ctrlC)
            do {
                try session.waitFor("^C", timeout: .seconds(5))
                try session.waitForPrompt(timeout: .seconds(5))
            } catch {
                Issue.record("attempt \(attempt) of typing then Ctrl-C at once left the shell without a prompt: \(error)")
                return
            }
        }
        #expect(try session.enter("set format").contains("table"))
        try leave(session)
    }

    @Test("Ctrl-D on an empty line exits 0")
    func ctrlDExits() throws {
        let session = try start()
        try leave(session)
    }

    @Test("`quit` at the prompt exits 0")
    func quitExits() throws {
        let session = try start()
        try session.sendLine("quit")
        #expect(try session.waitForExit() == 0)
    }

    @Test("Ctrl-R finds an earlier line; Enter runs it")
    func reverseSearch() throws {
        let session = try start()
        try session.enter("help about")
        try session.enter("set pager off")
        try session.enter("help set")
        try session.send(Key.ctrlR)
        try session.waitFor("(reverse-i-search)`': ")
        try session.send("abo")
        try session.waitFor("(reverse-i-search)`abo': help about")
        // Enter puts the match back on the prompt's line (a redraw that shows the prompt) and runs it.
        try session.send(Key.enter)
        try session.waitFor("usage: about")
        try session.waitForPrompt()
        #expect(try session.enter("set pager").contains("off"))
        try leave(session)
        #expect(historyLines() == ["help about", "set pager off", "help set", "help about", "set pager"])
    }

    @Test("resizing the terminal keeps the half-typed line")
    func resizeKeepsLine() throws {
        let session = try start()
        try session.send("help abo")
        try session.waitFor("help abo")
        // Narrower than prompt plus line: the line now wraps.
        try session.resize(rows: 30, columns: 12)
        try session.waitForPrompt()  // redrawn for the new width
        try session.send("ut")
        let shown = try session.enter("")
        #expect(shown.contains("usage: about"), "the whole line ran\n\(shown.visible)")

        try session.send("set for")
        try session.waitFor("for")
        try session.resize(rows: 40, columns: 120)
        try session.waitForPrompt()
        try session.send("mat")
        #expect(try session.enter("").contains("table"))
        try leave(session)
        #expect(historyLines() == ["help about", "set format"])
    }

    // MARK: - History

    @Test("a second run sees the first run's history")
    func historyAcrossRuns() throws {
        let first = try start()
        try first.enter("set pagesize 12")
        try first.enter("help about")
        try leave(first)

        let second = try start()
        try second.send(Key.up)
        try second.waitFor("help about")
        #expect(try second.enter("").contains("usage: about"))
        let listed = try second.enter("history")
        let entries = listed.lines.compactMap { line -> String? in
            guard let range = line.range(of: #"^ *\d+  "#, options: .regularExpression) else { return nil }
            return String(line[range.upperBound...])
        }
        #expect(entries == ["set pagesize 12", "help about", "history"], "\(listed.visible)")
        try leave(second)
    }

    @Test("lines starting with a space, repeats and trailing blanks are kept out of the history file")
    func historyFileContents() throws {
        let session = try start()
        #expect(try session.enter(" about").contains("an interactive shell"))
        try session.enter("help set")
        // Appended at once, not at exit.
        #expect(historyLines() == ["help set"])
        try session.enter("help set")
        try session.enter("help quit   ")
        try session.enter("")
        try session.enter("   ")
        try session.enter("set format csv")
        let listed = try session.enter("history")
        #expect(!listed.contains("about"), "\(listed.visible)")
        try leave(session)
        #expect(historyLines() == ["help set", "help quit", "set format csv", "history"])
    }

    @Test("the history file is created with mode 0600", arguments: [false, true])
    func historyFileMode(usesAlmanacHistory: Bool) throws {
        var environment = home.environment()
        var path = home.historyPath
        if usesAlmanacHistory {
            path = home.root + "/custom/place/hist"
            environment = environment.with("ALMANAC_HISTORY", path)
        }
        let session = try start(environment: environment)
        try session.enter("help")
        #expect(home.permissions(of: path) == 0o600, "mode \(String(home.permissions(of: path) ?? 0, radix: 8)) of \(path)")
        try leave(session)
        #expect(historyLines(path) == ["help"])
        if usesAlmanacHistory { #expect(!home.exists(home.historyPath)) }
    }

    // MARK: - Colour

    enum ColorCase: String, CaseIterable, Sendable {
        case allowed, noColorVariable, emptyNoColorVariable, noColorFlag, noColorFlagAndVariable
        var arguments: [String] { self == .noColorFlag || self == .noColorFlagAndVariable ? ["--no-color"] : [] }
        var noColor: String? {
            switch self {
            case .allowed, .noColorFlag: nil
            case .emptyNoColorVariable: ""
            case .noColorVariable, .noColorFlagAndVariable: "1"
            }
        }
        var expectsColor: Bool { self == .allowed || self == .emptyNoColorVariable }
    }

    @Test("the prompt is coloured unless NO_COLOR is set or --no-color is given", arguments: ColorCase.allCases)
    func promptColor(color: ColorCase) throws {
        let session = try start(color.arguments, environment: home.environment().with("NO_COLOR", color.noColor))
        let raw = session.rawText
        if color.expectsColor {
            #expect(raw.range(of: "\u{1B}\\[[0-9;]*malmanac\u{1B}\\[[0-9;]*m> ", options: .regularExpression) != nil,
                    "escapes around 'almanac'\n\(raw.visible)")
        } else {
            #expect(!TerminalText.containsColor(raw), "no colour at all\n\(raw.visible)")
            #expect(raw.contains(Self.prompt))
        }
        try leave(session)
    }

    // MARK: - Cyrillic

    @Test("Cyrillic typing round-trips through the line editor and history", arguments: [nil, "C"])
    func cyrillic(lang: String?) throws {
        let session = try start(environment: home.environment().with("LANG", lang))
        // Half-typed, a TAB with nothing to complete, then Ctrl-C: no crash, a new prompt.
        try session.send("set форм")
        try session.waitFor("set форм")
        try session.send(Key.tab)
        try session.waitForRaw(Key.bell)  // the TAB was handled (nothing to complete)
        try session.send(Key.ctrlC)
        try session.waitForPrompt()

        try session.send("set Москва")
        try session.waitFor("set Москва")
        let shown = try session.enter("")
        #expect(shown.contains("unknown setting 'Москва'"), "\(shown.visible)")

        let listed = try session.enter("history")
        #expect(listed.range(of: #"\n *1  set Москва\n"#, options: .regularExpression) != nil, "\(listed.visible)")

        try session.send(Key.up + Key.up)
        try session.waitFor("set Москва")
        let again = try session.enter("")
        #expect(again.contains("unknown setting 'Москва'"), "\(again.visible)")
        try leave(session)
        #expect(historyLines() == ["set Москва", "history", "set Москва"])
    }
}
