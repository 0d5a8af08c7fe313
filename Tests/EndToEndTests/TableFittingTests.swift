import Foundation
import Testing

/// Tables on a terminal, checked on the screen a person sees: they fit its width by cutting
/// their widest text column (never wrapping a line), switch to one block per record under
/// `set expanded auto` when they would not fit, and cut a huge value instead of printing it.
@Suite("Tables fit the terminal")
struct TableFittingTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    func start(columns: Int, rows: Int = 40) throws -> PseudoTerminalSession {
        let session = try PseudoTerminalSession(["--no-rc"], environment: home.environment(), rows: rows, columns: columns)
        try session.waitForPrompt()
        try session.waitUntilReady()
        try session.enter("set pager off")
        return session
    }

    func leave(_ session: PseudoTerminalSession) throws {
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0)
    }

    @Test("a wide table cuts its widest text columns with … and every row stays one line")
    func wideTableIsCut() throws {
        let session = try start(columns: 80)
        try session.enter("use stations", prompt: "stations> ")
        try session.enter("set pagesize 10")
        try session.enter("search моск")
        let screen = session.screen
        let header = try #require(screen.lines.lastIndex { $0.hasPrefix(" #  stationId") }, "\(screen.lines.suffix(20))")
        let rows = Array(screen.lines[(header + 2)..<(header + 12)])
        #expect(rows.allSatisfy { $0.range(of: #"^ *[0-9]+  +[0-9]+  "#, options: .regularExpression) != nil },
                "every row starts with its number and id: none wrapped\n\(rows.joined(separator: "\n"))")
        #expect(rows.contains { $0.contains("…") }, "long titles are cut\n\(rows.joined(separator: "\n"))")
        #expect(screen.lines[header + 12].hasPrefix("rows 1–10 of "), "\(screen.lines[header + 12])")
        try leave(session)
    }

    @Test("set expanded auto: a table wider than the terminal becomes one block per record; a narrow one stays a table")
    func expandedAuto() throws {
        let session = try start(columns: 80)
        try session.enter("use countries", prompt: "countries> ")
        try session.enter("set expanded auto")
        let wide = try session.enter("search united")
        #expect(wide.contains("─[ 1 ]"), "\(wide.visible)")
        try session.waitForScreen("a name line of the first record") { screen in
            screen.lines.contains { $0.range(of: #"^name +United "#, options: .regularExpression) != nil }
        }
        try session.enter("columns name, region")
        let narrow = try session.enter("search united")
        #expect(!narrow.contains("─[ 1 ]") && narrow.contains("name"), "\(narrow.visible)")
        try leave(session)
    }

    @Test("a 2 MB value is cut to the terminal's width, not printed whole")
    func hugeValueIsCut() throws {
        let huge = String(repeating: "ab", count: 1 << 20)
        let file = try home.write("[{\"name\": \"Big\", \"text\": \"\(huge)\"}, {\"name\": \"Small\", \"text\": \"tiny\"}]", to: "big.json")
        let session = try start(columns: 100)
        try session.enter("load big from \(file)")
        try session.enter("use big", prompt: "big> ")
        let before = session.rawText.utf8.count
        try session.enter("page")
        let printed = session.rawText.utf8.count - before
        #expect(printed < 20_000, "the listing printed \(printed) bytes")
        let screen = session.screen
        #expect(screen.lines.contains { $0.hasPrefix("1  Big") && $0.hasSuffix("…") }, "\(screen.lines.suffix(8))")
        try leave(session)
    }
}
