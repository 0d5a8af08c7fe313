/// `search TEXT`: records whose names contain every word, ignoring case and diacritics,
/// ranked exact name, then name prefix, then name containing it, then other names only;
/// ties keep dataset and record order.
public enum Search {
    public static func run(_ text: String, in datasets: [Dataset], cancellation: Cancellation = .never) throws(CancelledError) -> ResultSet {
        // One list per rank, filled in dataset and row order: their concatenation is the answer.
        var byRank = [[ResultSet.Item]](repeating: [], count: 4)
        for (index, dataset) in datasets.enumerated() {
            // A large dataset whose index is not built yet is scanned: search never waits for
            // the index (the build goes on in the background).
            let matches: [(row: Int, rank: NameIndex.Rank)]
            if let ready = NameIndex.ifReady(dataset) {
                matches = try ready.search(text, cancellation: cancellation)
            } else {
                NameIndex.buildInBackground(dataset)
                matches = try NameIndex.scanWithoutIndex(dataset, text, cancellation: cancellation)
            }
            for match in matches {
                byRank[match.rank.rawValue].append(ResultSet.Item(dataset: index, row: match.row))
            }
        }
        return ResultSet(datasets: datasets, items: Array(byRank.joined()))
    }
}
