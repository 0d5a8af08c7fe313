/// The name of a value a dataset computes once, with the value's type: `dataset.cached(.names)`
/// gives `[String]`, never a value to cast. Keys live beside the code that computes them.
public struct CacheKey<Value: Sendable>: Sendable {
    let name: String

    public init(_ name: String) { self.name = name }
}

extension CacheKey where Value == [String] {
    /// Every record's name (`Dataset.names`).
    static var names: CacheKey { CacheKey("names") }
}

extension CacheKey where Value == [String: Int] {
    /// Rows by identity, upper-cased (`Dataset.row(forIdentity:)`).
    static var identities: CacheKey { CacheKey("identities") }
}

extension CacheKey where Value == FieldCatalog {
    /// The inferred fields (`Dataset.fields`).
    static var fields: CacheKey { CacheKey("fields") }
}
