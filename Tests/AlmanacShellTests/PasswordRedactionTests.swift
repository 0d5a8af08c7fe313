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
    ])
    func aLineLosesItsPasswords(_ typed: String, _ remembered: String) {
        #expect(PasswordRedaction.line(typed) == remembered)
    }
}
