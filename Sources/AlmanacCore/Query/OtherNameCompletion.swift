/// Other names starting with what is typed — a country's translations and spellings, a quote's
/// author —, as search finds them: `show Герм<TAB>` offers Германия, which `show` accepts.
extension NameIndex {
    /// The other names (not the primary one) of `dataset`'s records that start with `prefix`
    /// (folded), as written, each once, in row order; at most `limit`.
    public func otherNames(withPrefix prefix: String, in dataset: Dataset, limit: Int,
                           where include: ((Dataset, Int) -> Bool)? = nil) -> [(row: Int, name: String)] {
        let folded = Folding.fold(prefix)
        guard !folded.isEmpty, !dataset.layout.otherNameFields.isEmpty,
              let rows = try? search(prefix).map(\.row).sorted() else { return [] }
        let paths = dataset.layout.otherNameFields.map { dataset.compile(FieldPath($0)) }
        var seen = Set<String>()
        var names: [(row: Int, name: String)] = []
        for row in rows where names.count < limit && include?(dataset, row) ?? true {
            for path in paths {
                dataset.forEachValue(of: path, row: row) { value in
                    let text = dataset.text(of: value)
                    guard names.count < limit, Folding.fold(text).hasPrefix(folded), seen.insert(text).inserted else { return }
                    names.append((row, text))
                }
            }
        }
        return names
    }
}
