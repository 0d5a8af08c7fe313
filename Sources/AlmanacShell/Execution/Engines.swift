import AlmanacCore
import AlmanacPostgres

/// The engines almanac attaches tables with: the one place the shell names a database.
public enum Engines {
    public static let standard: [any TableEngine] = [PostgresEngine()]
}

extension Session {
    /// The engine whose URLs look like `text`, if any.
    func engine(for text: String) -> (any TableEngine)? { engines.first { $0.recognizes(text) } }
}

/// The secrets of URLs in typed lines, as the engines read them (libpq decides for PostgreSQL
/// URLs: `SecretRedaction`): what `PasswordRedaction` hides.
enum URLSecrets {
    /// `word` with the URL in it redacted: passwords masked (`***`), or `removing` them.
    static func word(_ word: String, removing: Bool = false) -> String {
        SecretRedaction.word(word, removing ? .removed : .masked)
    }

    /// The secrets `word` holds, in each spelling.
    static func secrets(inWord word: String) -> [String] { SecretRedaction.secrets(inWord: word) }

    /// Free text with every URL in it redacted, then every one of `secrets`.
    static func text(_ text: String, removing: Bool = false, secrets: [String] = []) -> String {
        SecretRedaction.text(text, removing ? .removed : .masked, secrets: secrets)
    }
}
