import AlmanacCore
import AlmanacPostgres

/// `group` on an attached table: `GROUP BY` in the database, the groups shaped as memory's
/// are (GroupResult).
enum TableGrouping {
    static func result(_ spec: GroupSpec, _ results: TableResults, in session: Session) throws -> CommandResult {
        var results = results
        let groups = try results.table.group(results.query, by: spec, cancellation: session.cancellation)
        let total = try results.count(in: session)
        session.tableResults = results
        session.lastGroups = GroupListing(spec: spec, rows: .table(groups))
        return GroupResult.result(spec, count: groups.count, total: total, in: session) { index in
            let row = groups[index]
            return Group.Row(values: row.values, count: row.count, numbers: row.numbers, aggregates: row.aggregates.map(AggregateValue.init(text:)))
        }
    }
}
