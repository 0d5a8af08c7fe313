import Foundation
import Testing

/// `help keys` says what the keys at the prompt do, from the same table as the manual page's
/// KEYS AT THE PROMPT, and fits the terminal.
@Suite("help keys", .serialized)
struct HelpKeysTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    /// The section `title` of the committed man/almanac.1, as its source lines.
    static func manualSection(_ title: String) throws -> [String] {
        let page = try String(contentsOfFile: PackageRoot.path + "/man/almanac.1", encoding: .utf8)
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex { $0 == ".Sh \(title)" || $0 == ".Sh \"\(title)\"" }, "no section \(title)")
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix(".Sh ") } ?? lines.count
        return Array(lines[(start + 1)..<end])
    }

    /// The keys the manual page lists: each `.It "\&KEYS"`, roff's escapes read back.
    static func manualKeys() throws -> [String] {
        try manualSection("KEYS AT THE PROMPT").filter { $0.hasPrefix(".It \"\\&") }.map { line in
            String(line.dropFirst(".It \"\\&".count).dropLast())
                .replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\\e", with: "\\")
        }
    }

    @Test("`help keys` lists every key the manual page lists, hints, colours, the editor, continuation lines and their settings")
    func everyKeyOfTheManual() throws {
        let keys = try Self.manualKeys()
        #expect(keys.contains("Ctrl-X Ctrl-E") && keys.contains("\\ at the end") && keys.contains("Right, End, Ctrl-F, Ctrl-E"), "\(keys)")
        let help = try PipeRun.run(["-c", "help keys"], environment: home.environment())
        #expect(help.status == 0, "\(help)")
        let lines = help.stdout.lines
        #expect(lines.first == "Keys at the prompt:")
        // Value completion with counts, and hints that pass over a filter finding nothing.
        let joined = help.stdout.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "  +", with: " ", options: .regularExpression)
        #expect(joined.contains("how many of the results have each") && joined.contains("goes in without its count"), "\(help.stdout)")
        #expect(joined.contains("leave none of the current results is passed over"), "\(help.stdout)")
        // Keys of up to 16 characters beside their text; longer ones on a line of their own.
        let width = keys.map(\.count).filter { $0 <= 16 }.max() ?? 0
        #expect(width == 16, "Alt-F, Alt-Right")
        for key in keys {
            let listed = key.count <= 16
                ? lines.contains { $0.hasPrefix("  " + key + String(repeating: " ", count: width - key.count + 2)) && $0.count > width + 10 }
                : lines.indices.dropLast().contains { lines[$0] == "  " + key && lines[$0 + 1].hasPrefix(String(repeating: " ", count: width + 4)) }
            #expect(listed, "help keys does not list \(key) in its column:\n\(help.stdout)")
        }
        for setting in ["set hints off", "set highlight off", "$VISUAL, else $EDITOR, else vi", "...>", "NO_COLOR"] {
            #expect(help.stdout.contains(setting), "help keys does not say \(setting)")
        }
        // The manual page names the variables those keys read.
        let environment = try Self.manualSection("ENVIRONMENT")
        #expect(environment.contains(".It Ev VISUAL , Ev EDITOR") && environment.contains(".It Ev TERM"), "\(environment)")
    }

    @Test("at 60 columns `help keys` splits no word and hangs each key's text under the text column")
    func helpKeysAt60() throws {
        let session = try PseudoTerminalSession(["--no-rc"], environment: home.environment(), rows: 200, columns: 60)
        try session.waitForPrompt()
        try session.enter("help keys")
        let lines = session.screen.lines
        let start = try #require(lines.lastIndex { $0.hasSuffix("> help keys") })
        let shown = Array(lines[(start + 1)..<(lines.count - 1)])
        #expect(shown.allSatisfy { $0.count <= 60 }, "\(shown)")
        let piped = try PipeRun.run(["-c", "help keys"], environment: home.environment())
        let words = { (text: String) in text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init) }
        #expect(words(shown.joined(separator: "\n")) == words(piped.stdout), "\(shown)")
        // TAB's text takes several lines, each starting under its first word.
        let tab = try #require(shown.firstIndex { $0.hasPrefix("  TAB ") })
        let column = try #require(shown[tab].range(of: "Complete")).lowerBound.utf16Offset(in: shown[tab])
        #expect(column > 6 && shown[tab + 1].prefix(column).allSatisfy { $0 == " " } && shown[tab + 1].count > column,
                "\(shown[tab...(tab + 2)])")
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0)
    }
}
