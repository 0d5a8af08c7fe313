import Testing
@testable import AlmanacShell

/// History keeps what was typed, without the passwords of the URLs in it.
@Suite struct PasswordRedactionTests {
    @Test(arguments: [
        ("load s from postgresql://me:secret@db.example.com:5432/shop?table=sales",
         "load s from postgresql://me@db.example.com:5432/shop?table=sales"),
        ("load s from postgres://me:p%40ss@db/shop?table=sales", "load s from postgres://me@db/shop?table=sales"),
        ("load s from postgresql://me@db/shop?password=secret&table=sales", "load s from postgresql://me@db/shop?table=sales"),
        ("load s from postgresql://db/shop?table=sales&PASSWORD=secret", "load s from postgresql://db/shop?table=sales"),
        ("export \"postgresql://me:two words@db/x?table=t\" --force", "export \"postgresql://me@db/x?table=t\" --force"),
        ("load q from https://user:token@example.com/q.json", "load q from https://user@example.com/q.json"),
        ("load s from postgresql://me@db/shop?table=sales", "load s from postgresql://me@db/shop?table=sales"),
        ("search o'brien: a@b", "search o'brien: a@b"),
        ("load s from 'postgresql://me:a b\"c@db/x?table=t'", "load s from 'postgresql://me@db/x?table=t'"),
        ("filter url = http://a:b@c/?password=x and x = 1", "filter url = http://a@c/ and x = 1"),
        // libpq's reading (issue 31): `?`, `#` and an escaped space are the password's.
        ("load s from postgresql://me:se?cret@db/x?table=t", "load s from postgresql://me@db/x?table=t"),
        ("load s from postgresql://me:se#cret@db/x?table=t", "load s from postgresql://me@db/x?table=t"),
        ("load s from postgresql://me:a\\ b@db/x?table=t", "load s from postgresql://me@db/x?table=t"),
        ("load s from postgresql://me@db/x?pass%77ord=se%3Fcret&table=t", "load s from postgresql://me@db/x?table=t"),
        ("load s from 'postgresql://me:hidden@db/x", "load s from 'postgresql://me@db/x"),
        ("count # postgresql://a:hidden@b/c", "count # postgresql://a@b/c"),
    ])
    func aLineLosesItsPasswords(_ typed: String, _ remembered: String) {
        #expect(PasswordRedaction.line(typed) == remembered)
    }

    @Test func anEchoMasksAndTheCaretFollows() {
        let line = "load x postgresql://u:se?cret@host/db?table=t"
        #expect(PasswordRedaction.shown(line) == "load x postgresql://u:***@host/db?table=t")
        // The caret under the URL word (column 8, 38 wide) is as wide as the word shown.
        let caret = PasswordRedaction.caret(line, column: 8, width: "postgresql://u:se?cret@host/db?table=t".count)
        #expect(caret.offset == 7 && caret.width == "postgresql://u:***@host/db?table=t".count)
        let message = PasswordRedaction.message("unexpected 'postgresql://u:se?cret@host/db?table=t'", about: line)
        #expect(message == "unexpected 'postgresql://u:***@host/db?table=t'")
    }
}
