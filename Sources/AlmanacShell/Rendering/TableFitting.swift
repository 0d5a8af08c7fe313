/// How a table too wide for the terminal is narrowed, a cell of width at a time, widest column
/// first at each stage — so a person still reads what matters (psql and DuckDB's shell cut the
/// widest text; VisiData keeps key columns):
/// 1. long free text gives way, down to the width a short column has (`short`): short columns
///    (a city, a country, `from,to`) and every title stay whole;
/// 2. then any text but the sort keys, other columns before the leading one (the records'
///    names), down to `floor`;
/// 3. then the sort keys (`ResultColumn.Fitting.cutLast`);
/// 4. then numbers — except columns that must stay whole (`.whole`), which nothing cuts: a
///    table that cannot keep them is shown one record at a time (`keepsWholeColumns`).
extension TableGrid {
    /// Columns up to this wide are short: kept whole while long text can give way.
    static let short = 20
    /// No column is cut narrower than this (a word and `…`).
    static let floor = 6

    mutating func fit(to width: Int) {
        var total = naturalWidth
        guard total > width else { return }
        let natural = widths
        func shrink(_ eligible: (Int) -> Bool, downTo minimum: (Int) -> Int) {
            while total > width {
                guard let widest = widths.indices.filter({ eligible($0) && widths[$0] > minimum($0) })
                    .max(by: { widths[$0] < widths[$1] }) else { return }
                widths[widest] -= 1
                total -= 1
            }
        }
        let (alignRight, fitting, leading) = (self.alignRight, self.fitting, self.leading)
        let titles = self.titles.map { TextWidth.of($0) }
        let text = { (column: Int) in !alignRight[column] && fitting[column] == .free }
        shrink(text, downTo: { max(Self.floor, titles[$0], min(natural[$0], Self.short)) })
        shrink({ text($0) && $0 != leading }, downTo: { _ in Self.floor })
        shrink(text, downTo: { _ in Self.floor })
        shrink({ fitting[$0] == .cutLast }, downTo: { _ in Self.floor })
        shrink({ fitting[$0] != .whole }, downTo: { _ in Self.floor })
        shrink({ _ in true }, downTo: { _ in Self.floor })
    }

    /// Whether the table fits `width` with its `.whole` columns uncut.
    func keepsWholeColumns(in width: Int) -> Bool {
        guard fitting.contains(.whole), naturalWidth > width else { return true }
        var fitted = self
        fitted.fit(to: width)
        return fitted.widths.indices.allSatisfy { fitting[$0] != .whole || fitted.widths[$0] == widths[$0] }
    }
}
