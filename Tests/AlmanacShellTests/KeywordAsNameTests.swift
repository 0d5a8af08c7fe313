import Foundation
import Testing
@testable import AlmanacShell

/// `load at from FILE`: a word that is one of load's keywords names the dataset when another
/// keyword follows it at once; it was read as `at PATH` and failed ("missing PATH after at").
@Suite struct KeywordAsNameTests {
    static func file(_ test: String = #function) throws -> String {
        let path = NSTemporaryDirectory() + "keyword-as-name-\(getpid())-\(test.prefix { $0 != "(" }).json"
        try #"[{"name":"a","n":1},{"name":"b","n":2},{"name":"c","n":3}]"#.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aKeywordFollowedByFromNamesTheDataset() throws {
        let path = try Self.file()
        defer { try? FileManager.default.removeItem(atPath: path) }
        for name in ["at", "key", "as", "AT"] {
            let shell = ShellHarness(load: [])
            let loaded = shell.output("load \(name) from \(path) key name")
            #expect(loaded.ok, "\(name): \(loaded.err)")
            #expect(shell.run("use \(name)"), "\(name)")
            #expect(shell.output("count").out == "3\n", "\(name)")
            #expect(shell.session.catalog.contains(name), "\(name)")
        }
    }

    @Test func aKeywordWithoutItsValueIsStillAnError() throws {
        let path = try Self.file()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let shell = ShellHarness(load: [])
        let late = shell.output("load x from \(path) at")
        #expect(!late.ok)
        #expect(late.err.contains("missing PATH after at"), "\(late.err)")
        let beforeKey = shell.output("load x from \(path) at key name")
        #expect(!beforeKey.ok)
        #expect(beforeKey.err.contains("missing PATH after at"), "\(beforeKey.err)")
    }

    @Test func thePromptColoursSuchANameAsADatasetWordNotAKeyword() {
        let shell = ShellHarness(load: [])
        let words = [Word("at", column: 6), Word("from", column: 9), Word("f.json", column: 14)]
        let roles = LoadCommand.roles(of: words, in: shell.session).map(\.role)
        #expect(roles == [.plain, .keyword, .plain])
    }
}
