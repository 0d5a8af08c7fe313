import AlmanacCore

extension CompletionSources {
    /// Country names starting with the fragment (folded), else names with a word starting with
    /// it or a typo of it; nothing while the countries' name index is being built.
    static func countries(_ request: CompletionRequest, in session: Session) -> [CompletionCandidate] {
        guard let countries = session.catalog.dataset("countries"), let index = NameIndex.ifReady(countries) else { return [] }
        var rows = index.rows(withNamePrefix: request.fragment)
        if rows.isEmpty, !request.fragment.isEmpty { rows = index.similarRows(to: request.fragment, limit: 50).map(\.row) }
        return rows.map { CompletionCandidate(countries.name(of: $0)) }
    }
}
