/// `search TEXT`: records whose names contain every word, ignoring case and diacritics,
/// ranked exact name, then name prefix, then name containing it, then other names only;
/// ties keep dataset and record order.
public enum Search {
    public static func run(_ text: String, in datasets: [Dataset], cancellation: Cancellation = .never) throws(CancelledError) -> ResultSet {
        // One list per rank, filled in dataset and row order: their concatenation is the answer.
        var byRank = [[ResultSet.Item]](repeating: [], count: 4)
        for (index, dataset) in datasets.enumerated() {
            for match in try NameIndex.of(dataset, cancellation: cancellation).search(text, cancellation: cancellation) {
                byRank[match.rank.rawValue].append(ResultSet.Item(dataset: index, row: match.row))
            }
        }
        return ResultSet(datasets: datasets, items: Array(byRank.joined()))
    }
}
