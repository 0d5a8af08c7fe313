import Foundation
import Testing

/// A table cell is cut to the terminal's width on a terminal, `…` marking the cut: a 2 MB
/// string is one screen line, not 26,000. Machine formats (and any format into a pipe) keep
/// the value whole.
@Suite("Wide cells on a terminal", .serialized)
struct WideCellTests {
    let home: TemporaryHome
    static let long = String(repeating: "x", count: 2_000_000)

    init() throws {
        home = try TemporaryHome()
        let records: [[String: Any]] = [["name": "a", "long": Self.long], ["name": "b", "long": "short"]]
        try home.write(String(decoding: try JSONSerialization.data(withJSONObject: records), as: UTF8.self), to: "wide.json")
    }

    @Test("a 2 MB cell is one line of the terminal's width, ending in …")
    func cutOnATerminal() throws {
        let session = try PseudoTerminalSession(["--no-rc"], environment: home.environment(), rows: 40, columns: 80)
        try session.waitForPrompt()
        try session.enter("load wide from \(home.root)/wide.json")
        try session.enter("use wide", prompt: "wide> ")
        session.skipReceived()
        try session.enter("page", prompt: "wide> ")
        let lines = session.screen.lines
        let start = try #require(lines.lastIndex { $0.hasSuffix("> page") })
        let shown = Array(lines[(start + 1)..<(lines.count - 1)])
        #expect(shown.allSatisfy { $0.count <= 80 }, "\(shown)")
        let row = try #require(shown.first { $0.hasPrefix("1 ") }, "\(shown)")
        #expect(row.hasSuffix("x…") && row.count == 80, "\(row)")
        #expect(shown.contains { $0.hasPrefix("2 ") && $0.hasSuffix("short") }, "\(shown)")
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0)
    }

    @Test("through a pipe, and in machine formats, the value stays whole", arguments: ["table", "csv"])
    func wholeInAPipe(format: String) throws {
        let result = try PipeRun.run(["--no-rc", "-c", "load wide from wide.json", "-c", "use wide", "-c", "set format \(format)", "-c", "page"],
                                     environment: home.environment(), directory: home.root, timeout: .seconds(60))
        #expect(result.stdout.contains(Self.long), "\(result.stdout.prefix(300))")
    }
}
