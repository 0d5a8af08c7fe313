/// The product's version and author: the one place `--version`, `about` and the manual page
/// read them from.
public enum AlmanacVersion {
    public static let current = "0.1.0"
    /// Who made almanac: `about`'s Author line, `--version`'s second line, the page's AUTHORS.
    public static let author = "the almanac project and its contributors"
    /// What `--version` prints: the version alone on the first line (scripts read it), then the author.
    public static let versionText = "\(current)\nAuthor: \(author)"
}
