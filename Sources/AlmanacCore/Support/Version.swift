/// The product's version, shown by `--version` and `about`.
public enum AlmanacVersion {
    public static let current = "0.1.0"
}
