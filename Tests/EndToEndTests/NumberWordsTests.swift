import Foundation
import Testing

/// Numbers a person types as arguments say what is wrong with them, however large: a page that
/// does not exist is one that does not exist whether it fits in 64 bits or not, and a history
/// longer than there is shows all of it.
@Suite("Numbers in arguments")
struct NumberWordsTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    @Test("page N, however large or negative, is a page that does not exist")
    func pages() throws {
        let result = try PipeRun.run(["--no-rc", "-c", "use countries", "-c", "set pagesize 100", "-c", "page -9223372036854775808",
                                      "-c", "page -99999999999999999999", "-c", "page 99999999999999999999", "-c", "page 4"],
                                     environment: home.environment(), directory: home.root)
        // 250 countries at 100 a page.
        #expect(result.stderr.lines == [
            "-c:3:6: there are 3 pages; page -9223372036854775808 does not exist",
            "-c:4:6: there are 3 pages; page -99999999999999999999 does not exist",
            "-c:5:6: there are 3 pages; page 99999999999999999999 does not exist",
            "-c:6:6: there are 3 pages; page 4 does not exist",
        ], "\(result)")
    }

    @Test("history N larger than the history shows all of it; a negative N says what N is")
    func history() throws {
        let path = try home.write("use countries\ncount\nsearch norge\n", to: "history")
        let environment = home.environment().with("ALMANAC_HISTORY", path)
        let all = try PipeRun.run(["--no-rc", "-c", "history 99999999999999999999"], environment: environment, directory: home.root)
        #expect(all.stdout.lines.map { $0.trimmingCharacters(in: .whitespaces) } == ["1  use countries", "2  count", "3  search norge"], "\(all)")
        #expect(all.status == 0)
        let two = try PipeRun.run(["--no-rc", "-c", "history 2"], environment: environment, directory: home.root)
        #expect(two.stdout.lines.map { $0.trimmingCharacters(in: .whitespaces) } == ["2  count", "3  search norge"], "\(two)")
        let negative = try PipeRun.run(["--no-rc", "-c", "history -3"], environment: environment, directory: home.root)
        #expect(negative.stderr == "-c:1:9: N is how many of the last lines to show: 0 or more, not -3 — usage: history [N]\n", "\(negative)")
    }
}
