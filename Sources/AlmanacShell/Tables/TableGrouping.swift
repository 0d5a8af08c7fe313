import AlmanacCore
import AlmanacPostgres

/// `group` on an attached table: `GROUP BY` in the database, the same table of groups as in
/// memory (values, count, percent of the results).
enum TableGrouping {
    static func result(_ spec: GroupSpec, _ results: TableResults, in session: Session) throws -> CommandResult {
        var results = results
        let groups = try results.table.group(results.query, by: spec, cancellation: session.cancellation)
        let total = try results.count(in: session)
        session.tableResults = results
        session.lastGroups = GroupListing(spec: spec, rows: .table(groups))
        let columns = spec.fields.map { ResultColumn($0, absentText: "<none>") } + [ResultColumn("count", .integer), ResultColumn("percent", .decimal)]
            + spec.aggregates.map { ResultColumn($0.description, .decimal) }
        var table = ResultTable(columns: columns, count: groups.count) { index in
            let group = groups[index]
            // As in memory: a tenth of a percent, from the counts.
            let percent = total == 0 ? 0 : (Double(group.count) * 1000 / Double(total)).rounded() / 10
            let values = group.values.indices.map { index -> ResultValue in
                if group.values[index].isEmpty { return .absent }
                return group.numbers[index] ? .literal(group.values[index]) : .text(group.values[index])
            }
            let aggregates = group.aggregates.map { value -> ResultValue in value.map { Double($0) != nil ? .literal($0) : .text($0) } ?? .absent }
            return values + [.integer(group.count), .decimal(percent)] + aggregates
        }
        // As in memory: numbered for show #N, and people also see each group's share as a bar.
        table.firstNumber = 1
        let bars = BarColumn.appending(to: table, quantities: groups.map { Double($0.count) }, context: session.renderContext)
        return CommandResult(table, prose: .table(bars), emptyNote: "no records to group")
    }
}
