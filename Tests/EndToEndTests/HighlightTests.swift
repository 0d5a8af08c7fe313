import Foundation
import Testing

/// Colours as the line is typed, judged on the emulated screen: each word's colour is read
/// from the cells, after every key.
@Suite("Highlighting as you type", .serialized)
struct HighlightTests {
    typealias Style = TerminalScreen.Style
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    /// Colour allowed (the tests' environment sets NO_COLOR otherwise).
    var colorEnvironment: TestEnvironment { home.environment().without("NO_COLOR") }

    func start(_ arguments: [String] = [], environment: TestEnvironment? = nil) throws -> PseudoTerminalSession {
        let session = try PseudoTerminalSession(arguments, environment: environment ?? colorEnvironment, rows: 40, columns: 120)
        try session.waitForPrompt()
        return session
    }

    /// `use NAME; count`: the count waits for the load, so the fields are known afterwards.
    func use(_ dataset: String, in session: PseudoTerminalSession) throws {
        try session.enter("use \(dataset); count", prompt: "\(dataset)> ")
    }

    func leave(_ session: PseudoTerminalSession) throws {
        session.skipReceived()
        try session.send(Key.ctrlC)
        try session.waitForPrompt()
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0, "\(session.text.tail().visible)")
    }

    /// Waits until the cursor's line is `line` and each of `expected`'s words (found left to
    /// right) is drawn in its style.
    @discardableResult
    func expectColours(_ session: PseudoTerminalSession, _ line: String, _ expected: [(String, Style)]) throws -> TerminalScreen {
        let screen = try session.waitForScreen("'\(line)' coloured \(expected.map { "\($0.0): \($0.1)" })") { screen in
            guard screen.cursorLine == line else { return false }
            var from = 0
            for (word, style) in expected {
                guard let styles = screen.styles(of: word, inRow: screen.cursorRow, from: from) else { return false }
                let found = screen.styledCharacters(ofRow: screen.cursorRow).map(\.scalar)
                from = Self.offset(of: word, in: found, from: from) + word.unicodeScalars.count
                guard styles.allSatisfy({ $0 == style }) else { return false }
            }
            return true
        }
        session.skipReceived()
        return screen
    }

    private static func offset(of word: String, in scalars: [Unicode.Scalar], from: Int) -> Int {
        let wanted = Array(word.unicodeScalars)
        for start in from...max(from, scalars.count - wanted.count) where Array(scalars[start..<min(scalars.count, start + wanted.count)]) == wanted {
            return start
        }
        return from
    }

    static let command = Style(foreground: .green)
    static let error = Style(foreground: .red)
    static let field = Style(foreground: .cyan)
    static let dataset = Style(foreground: .blue)
    static let keyword = Style(bold: true)
    static let number = Style(foreground: .magenta)
    static let string = Style(foreground: .yellow)
    static let plain = Style.plain

    // MARK: - Colours

    @Test("`filter regoin = Europe`: the command, an unknown field in red, the operator and the value")
    func unknownFieldIsRed() throws {
        let session = try start()
        try use("countries", in: session)
        try session.send("filter regoin = Europe")
        try expectColours(session, "countries> filter regoin = Europe",
                          [("filter", Self.command), ("regoin", Self.error), ("=", Self.keyword), ("Europe", Self.plain)])
        // Fixed in place: the field becomes a known one.
        try session.send(String(repeating: Key.left, count: 9) + "\u{7F}\u{7F}\u{7F}" + "ion")
        try expectColours(session, "countries> filter region = Europe",
                          [("filter", Self.command), ("region", Self.field), ("=", Self.keyword), ("Europe", Self.plain)])
        try leave(session)
    }

    @Test("numbers, quoted text, and/or, nested fields and operators written without spaces")
    func filterParts() throws {
        let session = try start()
        try use("countries", in: session)
        try session.send("filter population>1000000 and currencies.code = \"EUR\" or name ~ 'Nor'")
        try expectColours(session, "countries> filter population>1000000 and currencies.code = \"EUR\" or name ~ 'Nor'", [
            ("filter", Self.command), ("population", Self.field), (">", Self.keyword), ("1000000", Self.number),
            ("and", Self.keyword), ("currencies.code", Self.field), ("=", Self.keyword), ("\"EUR\"", Self.string),
            ("or", Self.keyword), ("name", Self.field), ("~", Self.keyword), ("'Nor'", Self.string),
        ])
        try leave(session)
    }

    @Test("an unclosed quote is red to the end of the line")
    func unclosedQuote() throws {
        let session = try start()
        try use("countries", in: session)
        try session.send("show \"Åland Isl")
        try expectColours(session, "countries> show \"Åland Isl", [("show", Self.command), ("\"Åland Isl", Self.error)])
        try session.send("ands\"")
        try expectColours(session, "countries> show \"Åland Islands\"", [("show", Self.command), ("\"Åland Islands\"", Self.string)])
        try leave(session)
    }

    @Test("an unknown command is red once it is finished; a name still being typed is not")
    func unknownCommand() throws {
        let session = try start()
        try session.send("fil")
        try expectColours(session, "almanac> fil", [("fil", Self.plain)])
        try session.send("x")
        try expectColours(session, "almanac> filx", [("filx", Self.error)])
        try session.send("\u{7F}ter")
        try expectColours(session, "almanac> filter", [("filter", Self.command)])
        try session.send(" ; fliter x")
        try expectColours(session, "almanac> filter ; fliter x", [("filter", Self.command), ("fliter", Self.error)])
        try leave(session)
    }

    @Test("dataset names: known in blue, unknown in red; sort's field and order; a comment")
    func datasetsAndSort() throws {
        let session = try start()
        try session.send("use countries")
        try expectColours(session, "almanac> use countries", [("use", Self.command), ("countries", Self.dataset)])
        try session.send("x ")
        try expectColours(session, "almanac> use countriesx", [("use", Self.command), ("countriesx", Self.error)])
        try session.send(Key.ctrlC)
        try session.waitForPrompt()
        try use("species", in: session)
        try session.send("sort average_lifespan desc # the oldest")
        try expectColours(session, "species> sort average_lifespan desc # the oldest",
                          [("sort", Self.command), ("average_lifespan", Self.field), ("desc", Self.keyword),
                           ("# the oldest", Style(foreground: .basic(8)))])
        try leave(session)
    }

    @Test("a line that wraps is coloured on every row, and so is one taller than the screen")
    func wrappedLines() throws {
        let session = try PseudoTerminalSession([], environment: colorEnvironment, rows: 8, columns: 30)
        try session.waitForPrompt()
        // Countries loaded: population is a field.
        try session.enter("use countries; count", prompt: "countries> ")
        // 11 + 45 cells: two rows.
        let line = "filter population > 1000000 and regoin = Asia"
        try session.send(line)
        let screen = try session.waitForScreen("the wrapped line coloured") { screen in
            screen.style(of: "regoin", inRow: screen.cursorRow) == Self.error
                && screen.style(of: "population", inRow: screen.cursorRow - 1) == Self.field
        }
        #expect(screen.lines[screen.cursorRow - 1] + screen.lines[screen.cursorRow] == "countries> " + line, "\(screen.lines.suffix(3))")
        session.skipReceived()
        try session.send(Key.ctrlC)
        try session.waitForPrompt()
        // Ten rows on an eight-row screen: the first two have scrolled away. The screen shows
        // the line's last eight rows as typed, and coloured.
        let tall = "filter population > 1" + (2...14).map { " and population > \($0)" }.joined()
        let text = Array(("countries> " + tall).unicodeScalars)
        let rows = stride(from: 0, to: text.count, by: 30).map { start in
            String(String.UnicodeScalarView(text[start..<min(text.count, start + 30)])).replacingOccurrences(of: " +$", with: "", options: .regularExpression)
        }
        #expect(rows.count == 10 && rows.last == "opulation > 14", "\(rows)")
        session.skipReceived()
        try session.send(tall)
        let after = try session.waitForScreen("the tall line's last rows, coloured") { screen in
            screen.visibleLines == Array(rows.suffix(8)) && screen.style(of: "14", inRow: screen.cursorRow) == Self.number
        }
        let last = after.cursorRow
        #expect(after.style(of: "population", inRow: last - 1) == Self.field)
        #expect(after.style(of: "and", inRow: last - 1) == Self.keyword)
        // The top row on the screen is the line's third.
        #expect(after.lines[last - 7] == rows[2])
        #expect(after.style(of: "population", inRow: last - 7) == Self.field, "\(after.runs(ofRow: last - 7))")
        try leave(session)
    }

    // MARK: - Off

    enum Off: String, CaseIterable, Sendable {
        case setting, noColorVariable, noColorFlag, setColorOff, dumbTerminal
    }

    @Test("no colours with `set highlight off`, NO_COLOR, --no-color, `set color off` or a dumb terminal", arguments: Off.allCases)
    func highlightOff(off: Off) throws {
        var environment = colorEnvironment
        var arguments: [String] = []
        switch off {
        case .setting: try home.writeStartupFile("set highlight off\n")
        case .noColorVariable: environment = environment.with("NO_COLOR", "1")
        case .noColorFlag: arguments = ["--no-color"]
        case .setColorOff: try home.writeStartupFile("set color off\n")
        case .dumbTerminal: environment = environment.with("TERM", "dumb")
        }
        let session = try start(arguments, environment: environment)
        session.skipReceived()
        try session.send("filter regoin = 5")
        try session.waitForScreen("the typed line") { $0.cursorLine.hasSuffix("filter regoin = 5") }
        session.settle()
        let screen = session.screen
        #expect(screen.runs(ofRow: screen.cursorRow).allSatisfy { $0.style == .plain || $0.text.hasSuffix("> ") || $0.text == "almanac" },
                "\(screen.runs(ofRow: screen.cursorRow))")
        #expect(!TerminalText.containsColor(String(decoding: session.raw.suffix(200), as: UTF8.self)) || off == .setting || off == .setColorOff,
                "no colour escapes at all\n\(session.rawText.tail(300).visible)")
        try leave(session)
    }

    @Test("`set highlight off` then on at the prompt")
    func toggle() throws {
        let session = try start()
        try session.enter("set highlight off")
        try session.send("help")
        try expectColours(session, "almanac> help", [("help", Self.plain)])
        try session.send(Key.ctrlC)
        try session.waitForPrompt()
        try session.enter("set highlight on")
        try session.send("help")
        try expectColours(session, "almanac> help", [("help", Self.command)])
        try leave(session)
    }

    // MARK: - When a load ends

    @Test("a line typed while its dataset loads is coloured again when the load ends: a known field cyan, an unknown one red")
    func recolouredWhenTheLoadEnds() throws {
        let data = try DataFolder(in: home)
        let fifo = try data.makeFIFO(for: "stations")
        // --quiet: no message about the load (its redraw would colour the line anyway).
        let session = try PseudoTerminalSession(data.arguments + ["--quiet"], environment: colorEnvironment, rows: 40, columns: 120)
        try session.waitForPrompt()
        try session.enter("use stations", prompt: "stations> ")
        let line = "stations> filter cityTitle = x and regoin = y"
        try session.send("filter cityTitle = x and regoin = y")
        // Still loading: no field is known, so none is called unknown.
        try expectColours(session, line, [("filter", Self.command), ("cityTitle", Self.plain), ("regoin", Self.plain)])
        let feeder = FIFOFeeder.start(fifo, bytes: try DataFolder.realContents("stations"))
        try feeder.wait()
        try expectColours(session, line, [("filter", Self.command), ("cityTitle", Self.field), ("and", Self.keyword), ("regoin", Self.error)])
        try leave(session)
    }
}
