import Testing
@testable import AlmanacShell

/// `save` writes `load … from FILE` with the absolute path of a file typed relative to the
/// current folder, so the script replays from any folder; other sources stay as typed.
@Suite struct SavedLoadPathTests {
    /// The line `save` keeps for `typed`, run in the folder `directory`.
    func saved(_ typed: String, in directory: String = "/tmp/explore") throws -> String {
        let words = Array(try #require(try Tokenizer.statements(in: typed).first).words.dropFirst())
        return CommandLog.line("load", CommandLog.anchoringSource(words, in: directory))
    }

    @Test func aRelativePathIsWrittenAbsolute() throws {
        #expect(try saved("load q from q.csv") == "load q from /tmp/explore/q.csv")
        #expect(try saved("load from data/q.csv as csv key id") == "load from /tmp/explore/data/q.csv as csv key id")
        #expect(try saved("load q FROM ./data/./q.csv") == "load q FROM /tmp/explore/data/q.csv")
        // `..` may follow a symbolic link: it stays for the system to resolve.
        #expect(try saved("load q from ../q.csv") == "load q from /tmp/explore/../q.csv")
        #expect(try saved("load q from q.csv", in: "/") == "load q from /q.csv")
    }

    @Test func anAbsolutePathIsQuotedAsTheLanguageNeeds() throws {
        let line = try saved(#"load r from "my data/it's.csv""#, in: "/tmp/a;b")
        #expect(line == #"load r from "/tmp/a;b/my data/it's.csv""#)
        #expect(try Tokenizer.statements(in: line).map { $0.words.map(\.text) } == [["load", "r", "from", "/tmp/a;b/my data/it's.csv"]])
        #expect(try saved("load q from q.csv", in: #"/tmp/back\slash"#) == #"load q from "/tmp/back\\slash/q.csv""#)
    }

    @Test func urlsHomePathsAndAbsolutePathsStayAsTyped() throws {
        for typed in ["load s from https://example.com/export?id=7", "load s from /data/q.csv", "load s from ~/q.csv",
                      "load k from postgresql://me@db.example.com/shop?table=kinds", "load countries", "load"] {
            #expect(try saved(typed) == typed)
        }
    }
}
