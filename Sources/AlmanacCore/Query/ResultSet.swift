/// The records a listing shows: rows of one or more datasets (several under `use all`),
/// in display order. Every command that narrows or orders produces a new one.
public struct ResultSet: Sendable {
    public struct Item: Sendable, Hashable {
        /// Position of the dataset in `datasets`.
        public var dataset: Int
        /// Row of the record in its dataset.
        public var row: Int

        public init(dataset: Int, row: Int) {
            self.dataset = dataset
            self.row = row
        }
    }

    public var datasets: [Dataset]
    public var items: [Item]

    public init(datasets: [Dataset], items: [Item]) {
        self.datasets = datasets
        self.items = items
    }

    /// Every record of `datasets`, in order.
    public static func all(_ datasets: [Dataset]) -> ResultSet {
        if datasets.count == 1 { return ResultSet(datasets: datasets, items: datasets[0].allItems) }
        var items: [Item] = []
        items.reserveCapacity(datasets.reduce(0) { $0 + $1.count })
        for (index, dataset) in datasets.enumerated() {
            for row in 0..<dataset.count { items.append(Item(dataset: index, row: row)) }
        }
        return ResultSet(datasets: datasets, items: items)
    }

    public var count: Int { items.count }
    public var isEmpty: Bool { items.isEmpty }
    public var spansDatasets: Bool { datasets.count > 1 }

    public func dataset(of item: Item) -> Dataset { datasets[item.dataset] }

    /// The same datasets with other items.
    public func with(_ items: [Item]) -> ResultSet { ResultSet(datasets: datasets, items: items) }
}
