/// `search TEXT`: records whose names contain every word, ignoring case and diacritics,
/// ranked exact name, then name prefix, then name containing it, then other names only;
/// ties keep dataset and record order.
public enum Search {
    public static func run(_ text: String, in datasets: [Dataset], cancellation: Cancellation = .never) throws(CancelledError) -> ResultSet {
        var ranked: [(rank: NameIndex.Rank, item: ResultSet.Item)] = []
        for (index, dataset) in datasets.enumerated() {
            for match in try NameIndex.of(dataset).search(text, cancellation: cancellation) {
                ranked.append((match.rank, ResultSet.Item(dataset: index, row: match.row)))
            }
        }
        // A stable sort on rank alone keeps dataset order, then row order, within a rank.
        let ordered = ranked.enumerated().sorted { a, b in
            a.element.rank != b.element.rank ? a.element.rank < b.element.rank : a.offset < b.offset
        }
        return ResultSet(datasets: datasets, items: ordered.map(\.element.item))
    }
}
