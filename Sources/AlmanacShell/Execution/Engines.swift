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
