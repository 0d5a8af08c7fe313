import Foundation

/// Where a dataset is loaded from: a file (or named pipe) or an http(s) URL.
public enum LoadSource: Sendable, Equatable, CustomStringConvertible {
    case file(path: String)
    case url(URL)

    /// Reads what a user typed after `from`: `~/quotes.json`, `data/x.ndjson`, `https://…`.
    /// Other URL schemes are refused.
    public static func parse(_ text: String, relativeTo directory: String? = nil) throws(LoadFailure) -> LoadSource {
        if let colon = text.firstIndex(of: ":"), text[..<colon].allSatisfy({ $0.isLetter || $0 == "+" || $0 == "-" || $0 == "." }),
           text[colon...].hasPrefix("://") {
            let scheme = text[..<colon].lowercased()
            guard scheme == "http" || scheme == "https", let url = URL(string: text), url.host != nil else {
                throw .unsupportedSource(Redaction.redacted(text))
            }
            return .url(url)
        }
        guard !text.isEmpty else { throw .unsupportedSource(text) }
        var path = text
        if path == "~" || path.hasPrefix("~/") {
            path = (ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()) + path.dropFirst()
        } else if !path.hasPrefix("/"), let directory {
            path = directory + "/" + path
        }
        return .file(path: path)
    }

    /// The source as shown to people: the path, or the URL without credentials.
    public var description: String {
        switch self {
        case let .file(path): path
        case let .url(url): Redaction.redacted(url.absoluteString)
        }
    }

    /// A short name for errors: the file's name, or the URL.
    public var displayName: String {
        switch self {
        case let .file(path): path
        case .url: description
        }
    }

    /// A dataset name for `load from SOURCE` without a name: the file's base name.
    public var suggestedName: String {
        let last: String
        switch self {
        case let .file(path): last = (path as NSString).lastPathComponent
        case let .url(url): last = url.deletingPathExtension().lastPathComponent.isEmpty ? (url.host ?? "data") : url.lastPathComponent
        }
        let base = (last as NSString).deletingPathExtension
        let cleaned = base.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "_" }
        return String(cleaned).trimmingCharacters(in: CharacterSet(charactersIn: "_")).isEmpty ? "data" : String(cleaned)
    }
}

/// Credentials never reach the screen: `https://user:secret@host/x` is shown as `https://host/x`.
public enum Redaction {
    public static func redacted(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://") else { return text }
        let rest = text[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return text }
        return String(text[..<schemeEnd.upperBound]) + String(rest[rest.index(after: at)...])
    }
}
