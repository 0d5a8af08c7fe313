import Foundation

/// Text compared the way people expect: without regard to case or diacritics
/// (`Åland` matches `aland`, `МОСК` matches `моск`). Foundation does the folding.
public enum Folding {
    public static func fold(_ text: some StringProtocol) -> String {
        // Pure ASCII needs only lowercasing, and that is the common case for commands and fields.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// Whether `candidate` starts with `prefix`, both folded.
    public static func hasPrefix(_ candidate: String, _ prefix: String) -> Bool {
        prefix.isEmpty || fold(candidate).hasPrefix(fold(prefix))
    }
}
