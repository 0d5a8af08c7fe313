import Foundation
import Testing

/// Every command reads its words from its declaration: at the prompt a wrong word is named in
/// the error, and the line is shown again with a caret under that word (sqlite's shell).
@Suite("Carets under the wrong word, command by command")
struct DeclaredCaretTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    /// A line typed at the prompt, the word the caret should be under, and the error's text.
    struct Case {
        var line: String
        var word: String
        var message: String
    }

    /// Enters each case's line and expects exactly: the error, the line, the caret under the word.
    func expectCarets(_ cases: [Case], setup: String = "use countries; set pagesize 10; count", prompt: String = "countries> ") throws {
        let session = try PseudoTerminalSession(environment: home.environment(), rows: 40, columns: 220)
        try session.waitForPrompt()
        try session.enter(setup, prompt: prompt)
        for test in cases {
            try session.enter(test.line, prompt: prompt)
            let screen = session.screen.lines
            let echoed = try #require(screen.lastIndex { $0 == "  " + test.line }, "\(test.line)\n\(screen.joined(separator: "\n"))")
            let column = try #require(test.line.range(of: test.word, options: .backwards)).lowerBound.utf16Offset(in: test.line)
            let caret = "  " + String(repeating: " ", count: column) + "^" + String(repeating: "~", count: max(0, test.word.count - 1))
            #expect(Array(screen[(echoed - 1)...(echoed + 1)]) == ["error: " + test.message, "  " + test.line, caret],
                    "\(screen[max(0, echoed - 3)...(echoed + 1)].joined(separator: "\n"))")
        }
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0)
    }

    @Test("page, history, help, set, search and show point at the wrong word")
    func pagingHelpSettingsAndNames() throws {
        try expectCarets([
            Case(line: "page two", word: "two",
                 message: "N must be a whole number or next, prev, first, last, not 'two' — usage: page [N|next|prev|first|last]"),
            Case(line: "page 99", word: "99", message: "there are 25 pages; page 99 does not exist"),
            Case(line: "page next 2", word: "2", message: "unexpected '2' — usage: page [N|next|prev|first|last]"),
            Case(line: "history lots", word: "lots", message: "N must be a whole number, not 'lots' — usage: history [N]"),
            Case(line: "history -3", word: "-3",
                 message: "N is how many of the last lines to show: 0 or more, not -3 — usage: history [N]"),
            Case(line: "help srot", word: "srot", message: "unknown command 'srot' — did you mean 'sort'?"),
            Case(line: "help sort keys", word: "keys", message: "unexpected 'keys' — usage: help [COMMAND|keys]"),
            Case(line: "set formta json", word: "formta", message: "unknown setting 'formta' — did you mean 'format'?"),
            Case(line: "set format jsn", word: "jsn",
                 message: "format must be one of table, expanded, json, ndjson, csv, tsv, markdown, not 'jsn'"),
            Case(line: "set color on please", word: "please", message: "unexpected 'please' — usage: set [NAME [VALUE]]"),
            Case(line: "search \"  \"", word: "\"  \"", message: "missing TEXT — usage: search TEXT"),
            Case(line: "show Atlantis", word: "Atlantis", message: "nothing called 'Atlantis' in countries — try search Atlantis"),
            Case(line: "show #300", word: "#300", message: "there is no row #300: the results have 250 rows"),
        ])
    }
}
