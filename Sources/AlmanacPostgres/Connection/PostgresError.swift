/// What can go wrong with a database, worded for the user. Every text here has passed through
/// `PostgresURL.scrub`, so no password reaches a message.
public enum PostgresError: Error, Equatable, CustomStringConvertible {
    /// libpq could not be opened.
    case library(String)
    /// The URL is not one libpq accepts, or lacks what the command needs.
    case badURL(String)
    /// The server could not be reached, or refused us.
    case connect(server: String, message: String)
    /// The connection broke during a statement; the next command opens a new one.
    case connectionLost(server: String, message: String)
    /// The server refused a statement.
    case server(message: String, sqlState: String?)
    /// The statement ran past its time limit and was stopped.
    case timedOut(seconds: Double)
    case noSuchTable(String)
    case tableExists(String)
    case unknownField(String, suggestion: String?)
    case invalid(String)

    public var description: String {
        switch self {
        case let .library(message): message
        case let .badURL(message): message
        case let .connect(server, message): "cannot connect to \(server): \(message)"
        case let .connectionLost(server, message):
            "the connection to \(server) was lost (\(message)); the next command opens a new one"
        case let .server(message, _): message
        case let .timedOut(seconds):
            "the statement ran longer than \(NumberText.seconds(seconds)) and was stopped (statement_timeout)"
        case let .noSuchTable(name): "no table or view '\(name)' in this database"
        case let .tableExists(name): "the table '\(name)' already exists — add --force to replace it"
        case let .unknownField(field, suggestion):
            suggestion.map { "unknown field '\(field)' — did you mean '\($0)'?" } ?? "unknown field '\(field)' — 'fields' lists them"
        case let .invalid(message): message
        }
    }
}

enum NumberText {
    /// `60 s`, `0.5 s`.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
