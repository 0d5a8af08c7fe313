/// Rows of one dataset as one bit each: membership tested in a few nanoseconds, for counting a
/// value index's rows among the current results (TAB with counts under a filter).
struct RowSet {
    private var words: [UInt64]

    /// The rows of `items` that belong to dataset number `dataset` (of `rows` rows).
    init(_ items: [ResultSet.Item], dataset: Int, rows: Int) {
        var words = [UInt64](repeating: 0, count: (rows + 63) / 64)
        words.withUnsafeMutableBufferPointer { words in
            for item in items where item.dataset == dataset && item.row >= 0 && item.row < rows {
                words[item.row >> 6] |= 1 << UInt64(item.row & 63)
            }
        }
        self.words = words
    }

    @inline(__always)
    func contains(_ row: Int) -> Bool {
        row >= 0 && row >> 6 < words.count && words[row >> 6] & (1 << UInt64(row & 63)) != 0
    }
}
