/// Why a load did not produce a dataset. The previous contents stay in place whatever the reason.
public enum LoadFailure: Error, Equatable, CustomStringConvertible {
    /// The text is not JSON, with where.
    case json(JSONError)
    /// The text is not CSV or TSV as its dialect says, with where.
    case csv(CSVError)
    /// The user stopped it (Ctrl-C) or a newer load replaced it.
    case cancelled
    /// The file could not be opened or read.
    case unreadable(path: String, reason: String)
    /// Valid JSON, but not a shape this dataset can hold.
    case shape(source: String, message: String)
    /// An HTTP problem: a status, a timeout, a bad redirect, a limit.
    case network(source: String, message: String)
    /// The source was neither a readable path nor an http(s) URL.
    case unsupportedSource(String)
    /// Internal: the bytes parsed may not have been the file's (it shrank under its mapping),
    /// or the two halves of a split parse did not fit: read it again, whole, before judging.
    case retry

    public var description: String {
        switch self {
        case let .json(error): error.description
        case let .csv(error): error.description
        case .cancelled: "cancelled"
        case let .unreadable(path, reason): "\(path): \(reason)"
        case let .shape(source, message): "\(source): \(message)"
        case let .network(source, message): "\(source): \(message)"
        case let .unsupportedSource(text): "cannot load from '\(text)': give a file path or an http(s) URL"
        case .retry: "the file changed while it was read"
        }
    }
}

/// A problem that did not stop the load: with one record (it loaded without the field, or was
/// skipped), or with the source as a whole (no record number).
public struct LoadWarning: Sendable, Equatable, CustomStringConvertible {
    /// 1-based position of the record in its source; nil for the source as a whole.
    public var record: Int?
    /// The record's name when it has one, to help find it.
    public var name: String?
    public var message: String
    /// The record's 1-based line in its file, when known (an NDJSON line): said instead of its place.
    public var line: Int?

    public init(record: Int, name: String? = nil, line: Int? = nil, message: String) {
        self.record = record
        self.name = name
        self.line = line
        self.message = message
    }

    /// A warning about the source as a whole.
    public init(message: String) {
        self.message = message
    }

    public var description: String {
        guard let record else { return message }
        if let line { return "line \(line)" + (name.map { " (\($0))" } ?? "") + ": " + message }
        return "record \(record)" + (name.map { " (\($0))" } ?? "") + ": " + message
    }
}
