/// The product's version, shown by `--version` and `about`.
public enum AlmanacVersion {
    public static let current = "0.1.0"
    /// Who made almanac, as `about` says it.
    public static let madeBy = "the almanac project and its contributors"
}
