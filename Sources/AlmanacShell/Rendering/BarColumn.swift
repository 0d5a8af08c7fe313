import AlmanacCore

/// A column of eighth-block bars (▏▎▍▌▋▊▉█) added to a table for people: each row's quantity
/// scaled so the largest fills the room the other columns leave on the terminal (40 cells
/// into a pipe). Machine formats never see it: commands add it to their prose table only.
enum BarColumn {
    static let pipeWidth = 40
    static let minimumWidth = 10
    static let maximumWidth = 60

    static func appending(to table: ResultTable, quantities: [Double], context: RenderContext) -> ResultTable {
        let largest = quantities.filter(\.isFinite).max() ?? 0
        let width = barWidth(beside: table, context: context)
        var columns = table.columns
        columns.append(ResultColumn(""))
        var barred = ResultTable(columns: columns, count: table.count) { row in
            table.row(row) + [.text(Bars.bar(quantities[row], maximum: largest, width: width))]
        }
        barred.firstNumber = table.firstNumber
        barred.showsHeader = table.showsHeader
        barred.sections = table.sections
        return barred
    }

    /// The terminal's width less the table's own, measured as the table renderer measures it.
    static func barWidth(beside table: ResultTable, context: RenderContext) -> Int {
        guard let width = context.width else { return pipeWidth }
        let taken = TableGrid(table, context: context).naturalWidth + TableGrid.separator
        // One column spare: a line that reaches the last column makes some terminals wrap.
        return min(maximumWidth, max(minimumWidth, width - taken - 1))
    }
}
