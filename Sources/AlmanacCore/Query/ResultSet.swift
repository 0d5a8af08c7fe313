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
    /// Values a step computed per record (`ComputedColumn`: near's distance), kept by the steps
    /// after it that keep the records.
    public var computed: [ComputedColumn] = []

    public init(datasets: [Dataset], items: [Item], computed: [ComputedColumn] = []) {
        self.datasets = datasets
        self.items = items
        self.computed = computed
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

    /// Each dataset's rows among the items, in the items' order, and each item's place among its
    /// dataset's rows: for work done a dataset at a time, then put back in order.
    public var rowsByDataset: (rows: [[Int]], positions: [Int]) {
        var positions = [Int](repeating: 0, count: items.count)
        var rows = [[Int]](repeating: [], count: datasets.count)
        for (position, item) in items.enumerated() {
            positions[position] = rows[item.dataset].count
            rows[item.dataset].append(item.row)
        }
        return (rows, positions)
    }

    /// The same datasets (and computed columns) with other items.
    public func with(_ items: [Item]) -> ResultSet { ResultSet(datasets: datasets, items: items, computed: computed) }
}
