/// `search TEXT`: records whose names contain every word, ignoring case and diacritics,
/// ranked exact name, then name prefix, then name containing it, then other names only;
/// ties keep dataset and record order.
public enum Search {
    public static func run(_ text: String, in datasets: [Dataset], cancellation: Cancellation = .never) throws(CancelledError) -> ResultSet {
        var matchesByDataset: [[(row: Int, rank: NameIndex.Rank)]] = []
        for dataset in datasets {
            // A large dataset whose index is not built yet is scanned: search never waits for
            // the index (the build goes on in the background).
            if let ready = NameIndex.ifReady(dataset) {
                matchesByDataset.append(try ready.search(text, cancellation: cancellation))
            } else {
                NameIndex.buildInBackground(dataset)
                matchesByDataset.append(try NameIndex.scanWithoutIndex(dataset, text, cancellation: cancellation))
            }
        }
        // Rank by rank, each in dataset and row order, written in place: where each rank's
        // items start is known from the counts (no list per rank joined afterwards).
        var next = [Int](repeating: 0, count: 5)
        for matches in matchesByDataset {
            for match in matches { next[match.rank.rawValue + 1] += 1 }
        }
        for rank in 1..<5 { next[rank] += next[rank - 1] }
        let items = [ResultSet.Item](unsafeUninitializedCapacity: next[4]) { buffer, initialized in
            for (index, matches) in matchesByDataset.enumerated() {
                for match in matches {
                    buffer[next[match.rank.rawValue]] = ResultSet.Item(dataset: index, row: match.row)
                    next[match.rank.rawValue] += 1
                }
            }
            initialized = buffer.count
        }
        return ResultSet(datasets: datasets, items: items)
    }
}
