@testable import AlmanacPostgres
import Testing

/// What libpq would use as a password is what is hidden, whatever its characters and however
/// the URL gives it (issue 31): `?`, `#`, `@`, spaces and percent-encoding in the user
/// information; `password=` percent-encoded in value or name; `sslpassword=`.
@Suite struct SecretRedactionTests {
    /// URL, the password libpq reads from it, and the URL as shown.
    static let cases: [(url: String, secret: String, shown: String)] = [
        ("postgresql://u:se?cret@host/db?table=t", "se?cret", "postgresql://u:***@host/db?table=t"),
        ("postgresql://u:se#cret@host/db", "se#cret", "postgresql://u:***@host/db"),
        ("postgresql://u:a b@host/db?table=t", "a b", "postgresql://u:***@host/db?table=t"),
        ("postgresql://u:p:q@host/db", "p:q", "postgresql://u:***@host/db"),
        ("postgresql://u:a@b@host/db", "a", "postgresql://u:***@host/db"),
        ("postgresql://u@host/db?table=t&password=se%3Fcret", "se?cret", "postgresql://u@host/db?table=t&password=***"),
        ("postgresql://u@host/db?pass%77ord=Hidden-1&table=t", "Hidden-1", "postgresql://u@host/db?pass%77ord=***&table=t"),
        ("postgresql://u@host/db?sslpassword=Key-Pass-9", "Key-Pass-9", "postgresql://u@host/db?sslpassword=***"),
        ("postgresql://u:x@host/db?password=second", "second", "postgresql://u:***@host/db?password=***"),
        ("postgres://u:%40t%23@host:5433/db", "@t#", "postgres://u:***@host:5433/db"),
    ]

    @Test(arguments: cases.indices)
    func libpqsPasswordIsHidden(_ index: Int) throws {
        let (url, secret, shown) = Self.cases[index]
        let read = try #require(SecretRedaction.libpqOptions(url))
        #expect(read.contains { $0.secret && $0.value == secret }, "the case says what libpq reads")
        #expect(SecretRedaction.url(url) == shown)
        #expect(try PostgresURL(url).shown == shown)
        let options = try #require(SecretRedaction.libpqOptions(shown))
        #expect(!options.contains { $0.secret && $0.value != nil && $0.value != "***" }, "libpq reads no secret from \(shown)")
        #expect(SecretRedaction.secrets(inWord: url).contains(secret))
    }

    @Test func aMessageQuotingTheURLOrThePasswordLosesIt() throws {
        let url = try PostgresURL("postgresql://u:se?cret@host/db?table=t")
        let message = url.scrub("could not connect to 'postgresql://u:se?cret@host/db?table=t' (password se?cret)")
        #expect(message == "could not connect to 'postgresql://u:***@host/db?table=t' (password ***)")
        #expect(SecretRedaction.text("see postgresql://u:se#cret@h/db and https://a:tok@e.com/x") == "see postgresql://u:***@h/db and https://a:***@e.com/x")
    }

    @Test func aURLLibpqCannotReadStillLosesItsPassword() {
        // libpq stops at the bad escape and quotes it; the password is hidden all the same.
        #expect(SecretRedaction.url("postgresql://u:se%ZZcret@host/db") == "postgresql://u:***@host/db")
        #expect(throws: PostgresError.self) { try PostgresURL("postgresql://u:se%ZZcret@host/db") }
        do { _ = try PostgresURL("postgresql://u:se%ZZcret@host/db") } catch { #expect(!"\(error)".contains("ZZcret"), "\(error)") }
    }

    @Test func theTableParameterIsFoundAfterAPasswordHoldingAQuestionMark() throws {
        let url = try PostgresURL("postgresql://u:se?cret@host/db?table=orders")
        #expect(url.table?.name == "orders")
        #expect(url.option("host") == "host" && url.password == "se?cret")
    }

    @Test func removedLeavesARunnableURL() {
        #expect(SecretRedaction.url("postgresql://u:se?cret@host/db?table=t", .removed) == "postgresql://u@host/db?table=t")
        #expect(SecretRedaction.url("postgresql://u@host/db?password=x&table=t", .removed) == "postgresql://u@host/db?table=t")
        #expect(SecretRedaction.url("postgresql://u@host/db?table=t&password=x", .removed) == "postgresql://u@host/db?table=t")
        #expect(SecretRedaction.url("postgresql://u@host/db?password=x", .removed) == "postgresql://u@host/db")
    }
}
