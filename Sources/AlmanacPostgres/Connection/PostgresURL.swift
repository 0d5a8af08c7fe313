import CLibPQ
import Foundation

/// `postgresql://[USER[:PASSWORD]@]HOST[:PORT]/DATABASE?table=[SCHEMA.]TABLE` (or `postgres://`).
///
/// libpq parses the URL (PQconninfoParse), so every form and parameter it knows works, and the
/// environment (PGHOST, PGUSER, PGPASSWORD…) and ~/.pgpass fill in what the URL leaves out.
/// `table` is almanac's own parameter and is taken out first. The password is kept only to
/// connect: `shown` replaces it, and `scrub` takes it out of any message.
public struct PostgresURL: Sendable, Equatable, CustomStringConvertible {
    /// The URL as the user typed it, password included: only for connecting.
    let text: String
    /// What libpq was given: the URL without `table`.
    let connectionText: String
    /// libpq's reading of the URL: keyword and value for every option it set.
    let options: [Option]
    /// The table named by `table=`, if any.
    public internal(set) var table: TableName?

    struct Option: Sendable, Equatable {
        var keyword: String
        var value: String
    }

    /// Whether `text` is a PostgreSQL URL (whatever else is wrong with it).
    public static func isPostgres(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("postgresql://") || lowered.hasPrefix("postgres://")
    }

    public init(_ text: String) throws(PostgresError) {
        guard Self.isPostgres(text) else {
            throw .badURL("'\(Self.redact(text))' is not a PostgreSQL URL (postgresql://HOST/DATABASE?table=TABLE)")
        }
        try LibPQ.open()
        self.text = text
        let (connectionText, tableText) = Self.splitTable(text)
        self.connectionText = connectionText
        var error: UnsafeMutablePointer<CChar>?
        guard let parsed = PQconninfoParse(connectionText, &error) else {
            let message = error.map { String(cString: $0) } ?? "libpq cannot read it"
            if let error { PQfreemem(error) }
            throw .badURL("bad PostgreSQL URL '\(Self.redact(text))': \(Self.scrub(message.trimmed, text: text, password: nil))")
        }
        defer { PQconninfoFree(parsed) }
        var options: [Option] = []
        var option = parsed
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { options.append(Option(keyword: String(cString: keyword), value: String(cString: value))) }
            option += 1
        }
        self.options = options
        self.table = try tableText.map { text throws(PostgresError) in try TableName(parsing: text) }
    }

    /// The value libpq read for `keyword` (`host`, `port`, `dbname`, `user`, `password`).
    func option(_ keyword: String) -> String? { options.first { $0.keyword == keyword }?.value }

    var password: String? { option("password") }

    /// The URL with its password replaced: what `datasets`, errors and history show.
    public var shown: String { Self.redact(text) }
    public var description: String { shown }

    /// `host:port/database`, for messages, as the URL gives them (the environment may fill
    /// in the rest when connecting).
    public var server: String {
        let host = option("host") ?? option("hostaddr") ?? "localhost"
        let port = option("port").map { ":" + $0 } ?? ""
        let database = option("dbname").map { "/" + $0 } ?? ""
        return (host.hasPrefix("/") ? "socket " + host : host) + port + database
    }

    /// The same server and database, naming another table.
    public func with(table: TableName?) -> PostgresURL {
        var copy = self
        copy.table = table
        return copy
    }

    // MARK: - Keeping the password out of sight

    /// `text` with every password in it replaced by `***`, as libpq reads it (SecretRedaction).
    public static func redact(_ text: String) -> String { SecretRedaction.url(text) }

    /// A message from libpq or the server with the URL shown redacted and the password,
    /// in any spelling it was given, replaced.
    public func scrub(_ message: String) -> String { Self.scrub(message, text: text, password: password) }

    static func scrub(_ message: String, text: String, password: String?) -> String {
        let secrets = SecretRedaction.secrets(inWord: text) + (password.map { [$0] } ?? [])
        return SecretRedaction.text(message.replacingOccurrences(of: text, with: redact(text)), secrets: secrets)
    }

    /// The URL without almanac's `table` parameter (what libpq is given), and that parameter's
    /// decoded value. The query starts after the user information as libpq reads it: a `?` in
    /// a password (`u:se?cret@host`) is the password's.
    static func splitTable(_ text: String) -> (connection: String, table: String?) {
        guard let schemeEnd = text.range(of: "://") else { return (text, nil) }
        let authority = text[schemeEnd.upperBound...]
        let slash = authority.firstIndex(of: "/") ?? text.endIndex
        let queryFrom = authority[..<slash].firstIndex(of: "@").map { text.index(after: $0) } ?? schemeEnd.upperBound
        guard let question = text[queryFrom...].firstIndex(of: "?") else { return (text, nil) }
        var parameters: [Substring] = []
        var table: String?
        for parameter in text[text.index(after: question)...].split(separator: "&", omittingEmptySubsequences: true) {
            let parts = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts[0].lowercased() == "table" {
                let raw = parts.count > 1 ? String(parts[1]) : ""
                table = raw.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? raw
            } else {
                parameters.append(parameter)
            }
        }
        let base = String(text[..<question])
        return (parameters.isEmpty ? base : base + "?" + parameters.joined(separator: "&"), table)
    }

    static func withoutTable(_ text: String) -> String { splitTable(text).connection }
}

/// `TABLE` or `SCHEMA.TABLE`; a part in double quotes keeps its case and may hold dots
/// (`"My Schema"."Sales.2024"`), as in SQL.
public struct TableName: Sendable, Hashable, CustomStringConvertible {
    public var schema: String?
    public var name: String
    /// Written without quotes: PostgreSQL folds such names to lower case, so the catalog is
    /// asked for the name as written, then lower-cased.
    public var foldsCase: Bool
    public var schemaFoldsCase: Bool

    public init(schema: String?, name: String, foldsCase: Bool = false, schemaFoldsCase: Bool = false) {
        self.schema = schema
        self.name = name
        self.foldsCase = foldsCase
        self.schemaFoldsCase = schemaFoldsCase
    }

    public init(parsing text: String) throws(PostgresError) {
        var parts: [(text: String, quoted: Bool)] = []
        var characters = Array(text)[...]
        while true {
            var part = ""
            var quoted = false
            if characters.first == "\"" {
                quoted = true
                characters = characters.dropFirst()
                while true {
                    guard let character = characters.first else { throw .badURL("table=\(text): a quote is not closed") }
                    characters = characters.dropFirst()
                    if character == "\"" {
                        if characters.first == "\"" { part.append("\""); characters = characters.dropFirst() } else { break }
                    } else {
                        part.append(character)
                    }
                }
            } else {
                while let character = characters.first, character != "." {
                    part.append(character)
                    characters = characters.dropFirst()
                }
            }
            guard !part.isEmpty else { throw .badURL("table=\(text): a table name is TABLE or SCHEMA.TABLE") }
            parts.append((part, quoted))
            guard let next = characters.first else { break }
            guard next == "." else { throw .badURL("table=\(text): unexpected '\(next)' after a quoted name") }
            characters = characters.dropFirst()
        }
        guard parts.count <= 2 else { throw .badURL("table=\(text): a table name is TABLE or SCHEMA.TABLE") }
        schema = parts.count == 2 ? parts[0].text : nil
        name = parts[parts.count - 1].text
        foldsCase = !parts[parts.count - 1].quoted
        schemaFoldsCase = parts.count == 2 && !parts[0].quoted
    }

    public var description: String { schema.map { $0 + "." + name } ?? name }
}

extension String {
    var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
