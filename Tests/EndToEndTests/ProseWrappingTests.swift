import Foundation
import Testing

/// Prose fits the terminal: wrapped at word boundaries with hanging indents, on the screen a
/// person sees, at 60 columns; into a pipe nothing is wrapped.
@Suite("Text that fits the terminal", .serialized)
struct ProseWrappingTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    func start(columns: Int) throws -> PseudoTerminalSession {
        // Tall: nothing goes through the pager.
        let session = try PseudoTerminalSession(["--no-rc"], environment: home.environment(), rows: 200, columns: columns)
        try session.waitForPrompt()
        return session
    }

    /// The screen lines from the one after `command`'s line to the next prompt.
    func output(of command: String, in session: PseudoTerminalSession, prompt: String? = nil) throws -> [String] {
        session.skipReceived()
        try session.enter(command, prompt: prompt)
        let lines = session.screen.lines
        let start = try #require(lines.lastIndex { $0.hasSuffix("> " + command) })
        return Array(lines[(start + 1)..<(lines.count - 1)])
    }

    /// The words of `text`, for "no word was split": wrapping only moves words between lines.
    static func words(_ text: String) -> [String] {
        text.split(whereSeparator: { (character: Character) in character == " " || character == "\n" }).map(String.init)
    }

    @Test("at 60 columns `help search` splits no word and no line is wider than the terminal")
    func helpSearchAt60() throws {
        let session = try start(columns: 60)
        let shown = try output(of: "help search", in: session)
        #expect(shown.allSatisfy { $0.count <= 60 }, "\(shown)")
        #expect(shown.contains { $0.count > 45 }, "the text uses the width: \(shown)")
        // The same words, in the same order, as the same help through a pipe (not wrapped).
        let piped = try PipeRun.run(["-c", "help search"], environment: home.environment(), directory: home.root)
        #expect(Self.words(shown.joined(separator: "\n")) == Self.words(piped.stdout), "\(shown)\n\(piped.stdout)")
        #expect(piped.stdout.lines.contains { $0.count > 60 }, "through a pipe the paragraph is one line")
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0)
    }

    @Test("the command list hangs its summaries under the summary column")
    func helpListHangs() throws {
        let session = try start(columns: 60)
        let shown = try output(of: "help", in: session)
        let datasets = try #require(shown.firstIndex { $0.hasPrefix("  datasets ") })
        let column = try #require(shown[datasets].range(of: "List")).lowerBound.utf16Offset(in: shown[datasets])
        #expect(shown[datasets + 1].prefix(column).allSatisfy { $0 == " " } && shown[datasets + 1].count > column,
                "the summary goes on under itself: \(shown[datasets...(datasets + 1)])")
        #expect(shown.allSatisfy { $0.count <= 60 }, "\(shown)")
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0)
    }

    @Test("an error wraps under its text after `error: `")
    func errorHangs() throws {
        let session = try start(columns: 40)
        session.skipReceived()
        try session.enter("use countries; show Qqqzzx Wwwvvv Ttttyy Uuuuii", prompt: "countries> ")
        let lines = session.screen.lines
        let first = try #require(lines.firstIndex { $0.hasPrefix("error: nothing called") })
        #expect(lines[first + 1].hasPrefix("       ") && !lines[first + 1].hasPrefix("        "), "\(lines[first...(first + 2)])")
        // The message ends where the line is shown again with a caret under the name not found.
        let message = lines[first...].prefix { !$0.hasPrefix("countries>") && !$0.hasPrefix("  use countries;") }.joined(separator: " ")
        #expect(Self.words(String(message)) == Self.words("error: nothing called 'Qqqzzx Wwwvvv Ttttyy Uuuuii' in countries — try search Qqqzzx Wwwvvv Ttttyy Uuuuii"))
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0)
    }

    @Test("a coloured `error: ` label hangs its text under it as a plain one does")
    func colouredErrorHangs() throws {
        let session = try PseudoTerminalSession(["--no-rc"], environment: home.environment().without("NO_COLOR"), rows: 200, columns: 40)
        try session.waitForPrompt()
        session.skipReceived()
        try session.enter("use countries; show Qqqzzx Wwwvvv Ttttyy Uuuuii", prompt: "countries> ")
        let screen = session.screen
        let first = try #require(screen.lines.firstIndex { $0.hasPrefix("error: nothing called") })
        #expect(screen.style(of: "error:", inRow: first) == TerminalScreen.Style(foreground: .red, bold: true), "\(screen.runs(ofRow: first))")
        let lines = screen.lines
        #expect(lines[first + 1].hasPrefix("       ") && !lines[first + 1].hasPrefix("        "), "\(lines[first...(first + 2)])")
        // The message ends where the line is shown again with a caret under the name not found.
        let message = lines[first...].prefix { !$0.hasPrefix("countries>") && !$0.hasPrefix("  use countries;") }.joined(separator: " ")
        #expect(Self.words(String(message)) == Self.words("error: nothing called 'Qqqzzx Wwwvvv Ttttyy Uuuuii' in countries — try search Qqqzzx Wwwvvv Ttttyy Uuuuii"))
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0)
    }

    @Test("trip addresses wrap under the address column")
    func tripAddresses() throws {
        let session = try start(columns: 50)
        try session.enter("use stations", prompt: "stations> ")
        let shown = try output(of: "trip from 9864 to 9362 on 1 Dec", in: session)
        #expect(shown.allSatisfy { $0.count <= 50 }, "\(shown)")
        let to = try #require(shown.firstIndex { $0.hasPrefix("  To       Чистополь [9362]") })
        // город Чистополь, Чистопольский район, Республика Татарстан, Россия — on lines under column 11.
        let address = shown[(to + 1)...].prefix { $0.hasPrefix("           ") && !$0.hasPrefix("  Distance") }
        #expect(address.count >= 2, "\(shown)")
        #expect(address.joined(separator: " ").split(separator: " ").joined(separator: " ")
                == "город Чистополь, Чистопольский район, Республика Татарстан, Россия", "\(shown)")
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0)
    }

    @Test("at 60 columns a help page's paragraphs wrap, and its picture of output keeps its lines, cut at the width",
          arguments: ["trip", "map"])
    func helpPictureAt60(command: String) throws {
        let session = try start(columns: 60)
        let shown = try output(of: "help \(command)", in: session).map(Self.trimmed)
        #expect(shown.allSatisfy { TerminalScreen.width(of: $0) <= 60 }, "\(shown)")
        // Through a pipe nothing is wrapped or cut.
        let piped = try PipeRun.run(["-c", "help \(command)"], environment: home.environment(), directory: home.root).stdout.lines.map(Self.trimmed)
        let pictureStart = try #require(piped.firstIndex { $0.hasPrefix("  ") && $0.contains("> ") })
        let pictureEnd = try #require(piped.lastIndex(of: "Examples:")) - 1
        let picture = piped[pictureStart..<pictureEnd].map { Self.cut($0, to: 60) }
        #expect(piped[pictureStart..<pictureEnd].contains { TerminalScreen.width(of: $0) > 60 }, "the picture is wider than 60 columns")
        let start = try #require(shown.firstIndex(of: piped[pictureStart]), "\(shown)")
        #expect(Array(shown[start...].prefix(picture.count)) == picture, "\(shown[start...])")
        #expect(Self.words(shown[..<start].joined(separator: "\n")) == Self.words(piped[..<pictureStart].joined(separator: "\n")),
                "before the picture, the words of the pipe's paragraphs: \(shown[..<start])")
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0)
    }

    static func trimmed(_ line: String) -> String { line.replacingOccurrences(of: " +$", with: "", options: .regularExpression) }

    /// `line` cut to `width` cells, the last one `…`, when it is wider.
    static func cut(_ line: String, to width: Int) -> String {
        guard TerminalScreen.width(of: line) > width else { return line }
        var kept = ""
        for character in line {
            if TerminalScreen.width(of: kept + String(character)) > width - 1 { break }
            kept.append(character)
        }
        return kept + "…"
    }

    @Test("`datasets species` at 60 columns: each warning on its line, wrapped under its own text")
    func warningsHang() throws {
        let session = try start(columns: 60)
        // `load` waits for species (at the prompt it may still be loading).
        let shown = try output(of: "load species; datasets species", in: session).map(Self.trimmed)
        #expect(shown.allSatisfy { TerminalScreen.width(of: $0) <= 60 }, "\(shown)")
        let start = try #require(shown.firstIndex(of: "warnings:"), "\(shown)")
        // species.json's average_height that is no number: records 2, 23 and 33.
        let warnings = [
            #"record 2 (Droid): average_height "n/a" is not a number"#,
            #"record 23 (Tholothian): average_height "unknown" is not a number"#,
            #"record 33 (Skakoan): average_height "unknown" is not a number"#,
        ]
        var items: [String] = []
        for line in shown[(start + 1)...] {
            if line.hasPrefix("    ") {
                items[items.count - 1] += " " + line.dropFirst(4)
            } else {
                #expect(line.hasPrefix("  ") && !line.hasPrefix("   "), "a warning starts at column 3: \(line)")
                items.append(String(line.dropFirst(2)))
            }
        }
        #expect(items == warnings, "\(shown[start...])")
        #expect(shown[(start + 1)...].contains { $0.hasPrefix("    ") }, "one wraps at 60 columns: \(shown[start...])")
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0)
    }

    @Test("a detail paragraph and long values wrap under their column")
    func detailWraps() throws {
        let session = try start(columns: 60)
        let shown = try output(of: "use countries; show NOR", in: session, prompt: "countries> ")
        #expect(shown.allSatisfy { TerminalScreen.width(of: $0) <= 60 }, "\(shown)")
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0)
    }
}

extension TerminalScreen {
    /// Cells a line takes.
    static func width(of line: String) -> Int { line.unicodeScalars.reduce(0) { $0 + max(0, width(of: $1)) } }
}
