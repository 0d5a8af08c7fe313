/// Values spelt like a typed one that matches none of them: the same word in the singular or
/// the plural (`mammal`, `mammals`), the same letters spaced or punctuated otherwise
/// (`Guinea-Bissau`, `Guinea Bissau`), a value the typed text begins (`Eur` → Europe), or one or
/// two edits away as names are (`Europa` → Europe, `NameIndex.editLimit`). Compared folded,
/// as filters compare (case and accents never make a near value: they already match).
public enum NearValues {
    /// How a value is near the typed text, closest first.
    public enum Nearness: Int, Comparable, Sendable {
        /// Another form of the same word: singular or plural, spaces or punctuation.
        case sameWord = 0
        case oneEdit
        /// The value begins with what was typed.
        case beginning
        case twoEdits

        public static func < (left: Nearness, right: Nearness) -> Bool { left.rawValue < right.rawValue }
    }

    /// The values nearest to `typed` (only the closest kind found, most records first, at most
    /// `limit`); `closest` the kinds allowed (`.sameWord` alone: only another form of the word).
    public static func near(_ typed: String, among values: [ValueCount], upTo closest: Nearness = .twoEdits,
                            limit: Int = 3) -> [ValueCount] {
        let wanted = Folding.fold(typed)
        guard !wanted.isEmpty else { return [] }
        var best: (nearness: Nearness, values: [ValueCount])?
        for value in values {
            guard let nearness = nearness(of: Folding.fold(value.value), to: wanted), nearness <= closest else { continue }
            if best == nil || nearness < best!.nearness {
                best = (nearness, [value])
            } else if nearness == best!.nearness {
                best!.values.append(value)
            }
        }
        guard let best else { return [] }
        return Array(best.values.sorted { $0.count != $1.count ? $0.count > $1.count : $0.value < $1.value }.prefix(limit))
    }

    /// How `value` is near `typed` (both folded); nil when it is not, or is the same.
    static func nearness(of value: String, to typed: String) -> Nearness? {
        guard value != typed else { return nil }
        if isOtherForm(value, of: typed) { return .sameWord }
        let typedCharacters = Array(typed)
        let limit = NameIndex.editLimit(forLength: typedCharacters.count)
        if limit > 0 {
            let distance = Suggestion.editDistance(typedCharacters, Array(value))
            if distance == 1 { return .oneEdit }
            if typedCharacters.count >= 3, value.hasPrefix(typed) { return .beginning }
            if distance <= limit { return .twoEdits }
        } else if typedCharacters.count >= 3, value.hasPrefix(typed) {
            return .beginning
        }
        return nil
    }

    /// Singular and plural of each other (`mammal`/`mammals`, `class`/`classes`,
    /// `country`/`countries`), or the same letters and digits apart from spaces and punctuation.
    static func isOtherForm(_ value: String, of typed: String) -> Bool {
        func plural(_ word: String, _ other: String) -> Bool {
            other == word + "s" || other == word + "es" || (word.hasSuffix("y") && other == word.dropLast() + "ies")
        }
        if plural(typed, value) || plural(value, typed) { return true }
        let letters = { (text: String) in text.unicodeScalars.filter { $0.properties.isAlphabetic || $0.properties.numericType != nil } }
        let (typedLetters, valueLetters) = (String(String.UnicodeScalarView(letters(typed))), String(String.UnicodeScalarView(letters(value))))
        return !typedLetters.isEmpty && typedLetters == valueLetters
    }
}
