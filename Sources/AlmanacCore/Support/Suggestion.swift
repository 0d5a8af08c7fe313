/// "Did you mean" for mistyped names: the closest candidate by edit distance,
/// when it is close enough to be a plausible typo.
public enum Suggestion {
    /// For an unknown field: the closest of the `names`; else, for `name` (what a listing's
    /// first column is called), the field that names the records (a station's stationTitle).
    public static func field(_ word: String, among names: some Sequence<String>, namedBy nameFields: [String]) -> String? {
        if let close = closest(to: word, among: names) { return close }
        guard word.lowercased() == "name" else { return nil }
        return nameFields.first { !$0.isEmpty && $0.lowercased() != "name" }
    }

    /// The one candidate that begins with `word` (ignoring case: `q` → quit, `stat` →
    /// stations); else the candidate nearest to `word`, or nil when none is within a third of
    /// the word's length (at least 1, at most 3 edits).
    public static func closest(to word: String, among candidates: some Sequence<String>) -> String? {
        // Nobody mistypes a hundred characters: don't spend time on long words.
        guard word.utf8.count <= 64 else { return nil }
        let lowered = word.lowercased()
        let beginning = candidates.filter { $0.count > word.count && $0.lowercased().hasPrefix(lowered) }
        if !lowered.isEmpty, beginning.count == 1 { return beginning[0] }
        let typed = Array(lowered)
        let limit = max(1, min(3, typed.count / 3 + 1))
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(typed, Array(candidate.lowercased()))
            if distance <= limit, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and
    /// transpositions of neighbours each cost one ("serach" is one edit from "search").
    public static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previousPrevious[j - 2] + 1)
                }
                current[j] = value
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
