import Foundation
import Testing

/// `group` in the table format draws each group's share as an eighth-block bar, scaled to the
/// largest group and the terminal's width; machine formats carry the numbers only.
@Suite("group bars")
struct GroupBarTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    /// A bar's length in eighths of a cell.
    static func eighths(_ bar: Substring) -> Int {
        bar.reduce(0) { total, character in
            total + (character == "█" ? 8 : ("▏▎▍▌▋▊▉".firstIndex(of: character).map { "▏▎▍▌▋▊▉".distance(from: "▏▎▍▌▋▊▉".startIndex, to: $0) + 1 } ?? 0))
        }
    }

    /// A share as group shows it: one decimal, none when it is whole.
    static func percent(_ part: Int, of total: Int) -> String {
        let value = (Double(part) * 1000 / Double(total)).rounded() / 10
        return value == value.rounded() ? String(Int(value)) : String(value)
    }

    @Test("each region's bar is its count over the largest, in eighths of 40 cells into a pipe")
    func barsInAPipe() throws {
        let result = try PipeRun.run(["-c", "use countries", "-c", "group region"], environment: home.environment(), directory: home.root)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        let data = try #require(FileManager.default.contents(atPath: DataFolder.realFile("countries")))
        let countries = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        var counts: [String: Int] = [:]
        for country in countries { counts[country["region"] as? String ?? "", default: 0] += 1 }
        let largest = counts.values.max()!
        let rows = result.stdout.lines.dropFirst(2)
        #expect(rows.count == counts.count, "\(result)")
        for row in rows {
            // Each group is numbered for `show #N`, then its value, count, percent and bar.
            let numbered = row.split(separator: " ")
            #expect(Int(numbered[0]) != nil, "\(row)")
            let words = Array(numbered.dropFirst())
            let region = String(words[0])
            let count = try #require(counts[region], "\(row)")
            #expect(words[1] == Substring(String(count)), "\(row)")
            #expect(words[2] == Substring(Self.percent(count, of: countries.count)), "\(row)")
            let expected = max(1, Int((Double(count) / Double(largest) * 320).rounded()))
            #expect(Self.eighths(words[3]) == expected, "\(region): \(words[3])")
        }
        let json = try PipeRun.run(["--format", "json", "-c", "use countries", "-c", "group region"], environment: home.environment(),
                                   directory: home.root)
        let objects = try RecordFormats.jsonArray(json.stdout)
        #expect(objects.allSatisfy { Set($0.keys) == ["region", "count", "percent"] }, "no bar for programs")
    }

    @Test("on an 80-column terminal the largest bar ends just before the last column")
    func barsFitTheTerminal() throws {
        let session = try PseudoTerminalSession(environment: home.environment(), rows: 40, columns: 80)
        try session.waitForPrompt()
        try session.enter("use stations; count", prompt: "stations> ")
        try session.enter("group countryTitle")
        let screen = session.screen.lines
        let start = try #require(screen.lastIndex { $0 == "stations> group countryTitle" })
        let lines = Array(screen[(start + 1)...].prefix { !$0.hasPrefix("stations>") })
        #expect(lines.count > 10)
        #expect(lines.allSatisfy { $0.unicodeScalars.count < 80 }, "\(lines.joined(separator: "\n"))")
        let first = lines[2]
        #expect(first.hasPrefix(" 1  Россия") && first.hasSuffix("█") && first.unicodeScalars.count == 79, "\(first)")
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0)
    }
}
