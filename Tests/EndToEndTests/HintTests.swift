import Foundation
import Testing

/// Hints from history at the prompt (fish's autosuggestions), judged on the emulated screen:
/// the rest of a matching history line drawn dimmed after the cursor, the cursor where it
/// was, accepted with → / End / Ctrl-F / Ctrl-E (whole) or Alt-F (a word).
@Suite("Hints from history", .serialized)
struct HintTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    /// Starts almanac with `history` as its history file, on a terminal, at its first prompt.
    func start(history: [String], environment: TestEnvironment? = nil, rows: Int = 40, columns: Int = 100,
               arguments: [String] = []) throws -> PseudoTerminalSession {
        try home.write(history.map { $0 + "\n" }.joined(), to: home.historyPath)
        let session = try PseudoTerminalSession(arguments, environment: environment ?? home.environment(),
                                                rows: rows, columns: columns)
        try session.waitForPrompt()
        return session
    }

    func leave(_ session: PseudoTerminalSession) throws {
        // The next prompt is the one after Ctrl-C, not a redraw seen before it.
        session.skipReceived()
        try session.send(Key.ctrlC)
        try session.waitForPrompt()
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0, "\(session.text.tail().visible)")
    }

    /// Waits until the cursor's line reads `typed` before the cursor and `hint` after it
    /// (dimmed), and returns the screen.
    @discardableResult
    func expectHint(_ session: PseudoTerminalSession, typed: String, hint: String) throws -> TerminalScreen {
        let screen = try session.waitForScreen("'\(typed)' then the hint '\(hint)'") {
            $0.beforeCursor == typed && $0.afterCursor == hint
        }
        if !hint.isEmpty {
            #expect(screen.style(of: hint, from: typed.unicodeScalars.count)?.dim == true,
                    "the hint is dimmed: \(screen.runs(ofRow: screen.cursorRow))")
            #expect(screen.style(of: typed) == .plain || screen.style(of: typed)?.dim == false, "what was typed is not dimmed")
        }
        session.skipReceived()
        return screen
    }

    /// Waits until the line reads `line` with the cursor at its end and nothing after it.
    func expectLine(_ session: PseudoTerminalSession, _ line: String) throws {
        try session.waitForScreen("the line '\(line)' with no hint") { $0.beforeCursor == line && $0.afterCursor.isEmpty }
        session.skipReceived()
    }

    static let prompt = PseudoTerminalSession.prompt

    // MARK: - Showing and accepting

    @Test("a filter from history that would find nothing among the results is passed over for an older one")
    func filtersThatFindNothingAreNotHinted() throws {
        let countries = ValueReadingTests.records("countries")
        let asia = countries.filter { $0["region"] as? String == "Asia" }
        #expect(!asia.contains { $0["subregion"] as? String == "Western Europe" }, "Western Europe is no subregion of Asia")
        #expect(asia.contains { $0["subregion"] as? String == "Eastern Asia" })
        let session = try start(history: ["use countries", "filter subregion = 'Eastern Asia'", "filter subregion = 'Western Europe'"])
        try session.enter("use countries; filter region = Asia", prompt: "countries> ")
        try session.send("filter sub")
        try expectHint(session, typed: "countries> filter sub", hint: "region = 'Eastern Asia'")
        session.skipReceived()
        try session.send(Key.ctrlC)
        try session.waitForPrompt()
        try session.enter("filter clear")
        // Among every country, the newest line is worth offering again.
        try session.send("filter sub")
        try expectHint(session, typed: "countries> filter sub", hint: "region = 'Western Europe'")
        try leave(session)
    }

    @Test("the newest history line starting with what is typed shows dimmed after the cursor; → accepts it; Enter runs it")
    func rightArrowAccepts() throws {
        let session = try start(history: ["help search", "help set", "set format csv"])
        try session.send("help s")
        // Newest first: "help set" was typed after "help search".
        try expectHint(session, typed: Self.prompt + "help s", hint: "et")
        try session.send("ea")
        try expectHint(session, typed: Self.prompt + "help sea", hint: "rch")
        try session.send(Key.right)
        try expectLine(session, Self.prompt + "help search")
        let shown = try session.enter("")
        #expect(shown.contains("usage: search"), "\(shown.visible)")
        try leave(session)
    }

    @Test("End, Ctrl-F and Ctrl-E accept the hint whole", arguments: ["\u{1B}[F", "\u{1B}OF", "\u{06}", "\u{05}", "\u{1B}OC"])
    func otherKeysAccept(key: String) throws {
        let session = try start(history: ["help about"])
        try session.send("he")
        try expectHint(session, typed: Self.prompt + "he", hint: "lp about")
        try session.send(key)
        try expectLine(session, Self.prompt + "help about")
        #expect(try session.enter("").contains("usage: about"))
        try leave(session)
    }

    @Test("Alt-F accepts the hint's next word, and the rest stays hinted")
    func altFAcceptsAWord() throws {
        let session = try start(history: ["set format json"])
        try session.send("se")
        try expectHint(session, typed: Self.prompt + "se", hint: "t format json")
        try session.send("\u{1B}f")
        try expectHint(session, typed: Self.prompt + "set", hint: " format json")
        try session.send("\u{1B}[1;3C")  // Alt-→
        try expectHint(session, typed: Self.prompt + "set format", hint: " json")
        try leave(session)
    }

    @Test("typing what the hint says keeps it; typing something else takes it away; Backspace brings it back")
    func hintFollowsTyping() throws {
        let session = try start(history: ["help about"])
        try session.send("help ab")
        try expectHint(session, typed: Self.prompt + "help ab", hint: "out")
        try session.send("x")
        try expectHint(session, typed: Self.prompt + "help abx", hint: "")
        #expect(!session.screen.cursorLine.contains("out"), "no stale hint text: \(session.screen.cursorLine)")
        try session.send("\u{7F}")
        try expectHint(session, typed: Self.prompt + "help ab", hint: "out")
        // With the cursor moved back from the end there is no hint, and → just moves.
        try session.send("\u{1B}[D")
        try session.waitForScreen("no hint once the cursor left the end") { $0.cursorLine == Self.prompt + "help ab" }
        try session.send(Key.right)
        try expectHint(session, typed: Self.prompt + "help ab", hint: "out")
        try leave(session)
    }

    @Test("lines typed under the dataset in use come first")
    func currentDatasetFirst() throws {
        let session = try start(history: ["use countries", "sort population desc", "use species", "sort average_height"])
        // Under no dataset nothing matches by context: the newest line wins.
        try session.send("sort ")
        try expectHint(session, typed: Self.prompt + "sort ", hint: "average_height")
        try session.send(Key.ctrlC)
        try session.waitForPrompt()
        try session.enter("use countries", prompt: "countries> ")
        try session.send("sort ")
        try expectHint(session, typed: "countries> sort ", hint: "population desc")
        try session.send(Key.ctrlC)
        try session.waitForPrompt()
        // A line typed in this session counts for the dataset it was typed under.
        try session.enter("sort name", prompt: "countries> ")
        try session.enter("use species", prompt: "species> ")
        try session.send("sort ")
        try expectHint(session, typed: "species> sort ", hint: "average_height")
        try leave(session)
    }

    // MARK: - When there is none

    @Test("no hint when the line would wrap")
    func noHintWhenItWouldWrap() throws {
        let long = "filter name ~ United and region = Europe"
        let session = try start(history: [long], columns: 30)
        try session.send("filter")
        // "almanac> filter" is 15 cells; the hint would need 34 more of 30.
        try session.settle()
        try expectHint(session, typed: Self.prompt + "filter", hint: "")
        #expect(!session.rawText.contains(String(long.dropFirst(6))), "the hint was never drawn")
        try leave(session)
    }

    @Test("`set hints off` stops them, `set hints on` brings them back; the startup file can keep them off")
    func hintsSetting() throws {
        let session = try start(history: ["help about"])
        try session.enter("set hints off")
        try session.send("help a")
        session.settle()
        try expectHint(session, typed: Self.prompt + "help a", hint: "")
        try session.send(Key.ctrlC)
        try session.waitForPrompt()
        try session.enter("set hints on")
        try session.send("help a")
        try expectHint(session, typed: Self.prompt + "help a", hint: "bout")
        try leave(session)

        try home.writeStartupFile("set hints off\n")
        let quiet = try start(history: ["help about"])
        try quiet.send("help a")
        quiet.settle()
        try expectHint(quiet, typed: Self.prompt + "help a", hint: "")
        #expect(!quiet.text.contains("help about"), "no hint was drawn\n\(quiet.text.visible)")
        try leave(quiet)
    }

    @Test("a dumb terminal gets no hint")
    func dumbTerminal() throws {
        let session = try start(history: ["help about"], environment: home.environment().with("TERM", "dumb"))
        try session.send("help a")
        session.settle()
        #expect(!session.text.contains("help about"), "\(session.text.visible)")
        try leave(session)
    }

    // MARK: - Terminal and editor in step

    @Test("Ctrl-C with a hint shown leaves no trace of it")
    func ctrlCErasesHint() throws {
        let session = try start(history: ["help about"])
        try session.send("help a")
        try expectHint(session, typed: Self.prompt + "help a", hint: "bout")
        try session.send(Key.ctrlC)
        try session.waitForPrompt()
        let screen = session.screen
        #expect(screen.lines.contains(Self.prompt + "help a^C"), "\(screen.lines.suffix(4))")
        #expect(!screen.lines.contains { $0.contains("about") }, "\(screen.lines.suffix(4))")
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0)
    }

    @Test("Enter with a hint shown runs what was typed, not the hint")
    func enterIgnoresHint() throws {
        let session = try start(history: ["help about"])
        try session.send("help a")
        try expectHint(session, typed: Self.prompt + "help a", hint: "bout")
        let shown = try session.enter("")
        #expect(shown.contains("no command 'a'") || shown.contains("unknown command 'a'"), "\(shown.visible)")
        #expect(session.screen.lines.contains(Self.prompt + "help a"), "the run line shows no hint\n\(session.screen.lines.suffix(6))")
        try leave(session)
    }

    @Test("a second TAB lists candidates below the line without the hint, and the hint comes back")
    func completionListing() throws {
        let session = try start(history: ["help history"])
        try session.send("h")
        try expectHint(session, typed: Self.prompt + "h", hint: "elp history")
        try session.send(Key.tab + Key.tab)
        let screen = try session.waitForScreen("the candidates listed") { screen in
            screen.lines.contains { $0.hasPrefix("help") && $0.contains("history") && !$0.contains(Self.prompt) }
        }
        let listing = try #require(screen.lines.lastIndex { $0.hasPrefix("help") && $0.contains("history") })
        #expect(screen.lines[listing - 1] == Self.prompt + "h", "no stale hint on the old line\n\(screen.lines.suffix(6))")
        try expectHint(session, typed: Self.prompt + "h", hint: "elp history")
        try leave(session)
    }

    @Test("Ctrl-R shows no hint while searching, and the hint returns after it")
    func reverseSearch() throws {
        let session = try start(history: ["help about", "set format csv"])
        try session.send("help")
        try expectHint(session, typed: Self.prompt + "help", hint: " about")
        try session.send(Key.ctrlR + "csv")
        let screen = try session.waitForScreen("the search") { $0.cursorLine.hasPrefix("(reverse-i-search)`csv': set format csv") }
        #expect(screen.afterCursor.isEmpty || !screen.afterCursor.contains("about"))
        try session.send(Key.ctrlG)
        try expectHint(session, typed: Self.prompt + "help", hint: " about")
        try leave(session)
    }

    @Test("a resized terminal redraws the line with its hint once")
    func resize() throws {
        let session = try start(history: ["help about"], columns: 80)
        try session.send("help a")
        try expectHint(session, typed: Self.prompt + "help a", hint: "bout")
        try session.resize(rows: 30, columns: 60)
        try expectHint(session, typed: Self.prompt + "help a", hint: "bout")
        #expect(session.screen.lines.filter { $0.contains("help a") }.count == 1, "\(session.screen.lines.suffix(6))")
        try leave(session)
    }

    @Test("a message from a background load is printed above the line, which comes back with its hint")
    func backgroundMessage() throws {
        let data = try DataFolder(in: home)
        let fifo = try data.makeFIFO(for: "stations")
        let session = try start(history: ["help about"], arguments: data.arguments)
        try session.send("help a")
        try expectHint(session, typed: Self.prompt + "help a", hint: "bout")
        // Spread over 0.8 s: slow enough to be announced.
        let feeder = FIFOFeeder.start(fifo, bytes: try DataFolder.realContents("stations"), chunks: 5, over: .milliseconds(800))
        try feeder.wait()
        let screen = try session.waitForScreen("the load announced above the line") { screen in
            (screen.linesAboveCursor.last ?? "").hasPrefix("stations: 4,037 stations") && screen.beforeCursor == Self.prompt + "help a"
                && screen.afterCursor == "bout"
        }
        #expect(screen.lines.filter { $0.contains("help a") }.count == 1, "\(screen.lines.suffix(6))")
        try leave(session)
    }
}
