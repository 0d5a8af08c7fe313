import AlmanacCore
import AlmanacPostgres
import PostgresCluster
import Testing

/// The shape of a sharded deployment: the countries partitioned by region across two local
/// clusters — Africa, the Americas and Asia in a partition of the coordinator, Europe, Oceania
/// and the Polar region in a foreign table (postgres_fdw) on the other server. Expressions on
/// the partitioned table must answer as memory does over all 250 countries.
@Suite struct ShardedExpressionTests {
    static let local = ["Africa", "Americas", "Asia"]
    static let remote = ["Europe", "Oceania", "Polar"]

    static func sharded() throws -> PostgresTable {
        let coordinator = try TestCluster.shared()
        let shard = try TestCluster.another()
        try coordinator.once("sharded countries") {
            _ = try coordinator.bundledTable("countries")
            _ = try shard.bundledTable("countries")
            let remote = remote.map { "'\($0)'" }.joined(separator: ", ")
            let local = local.map { "'\($0)'" }.joined(separator: ", ")
            try shard.execute("DROP TABLE IF EXISTS shard_b; CREATE TABLE shard_b AS SELECT * FROM countries WHERE region IN (\(remote))")
            try coordinator.execute("""
                CREATE EXTENSION IF NOT EXISTS postgres_fdw;
                CREATE SERVER shard FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '127.0.0.1', port '\(shard.port)', dbname 'almanac');
                CREATE USER MAPPING FOR PUBLIC SERVER shard OPTIONS (user 'postgres');
                CREATE TABLE sharded (LIKE countries) PARTITION BY LIST (region);
                CREATE TABLE sharded_a PARTITION OF sharded FOR VALUES IN (\(local));
                INSERT INTO sharded_a SELECT * FROM countries WHERE region IN (\(local));
                CREATE FOREIGN TABLE sharded_b PARTITION OF sharded FOR VALUES IN (\(remote)) SERVER shard OPTIONS (table_name 'shard_b')
                """)
        }
        return try PostgresTable.attach(name: "sharded", url: PostgresURL(coordinator.url(table: "sharded")))
    }

    func parse(_ text: String) throws -> FilterExpression {
        try FilterExpression.parse(FilterExpression.tokens(ExpressionTokens.words(of: text)))
    }

    @Test func bothShardsAnswerAndTheWholeIsMemorys() throws {
        let table = try Self.sharded()
        let memory = try BundledData.generic("countries")
        #expect(try table.count() == memory.count)
        let regions = try table.group(by: GroupSpec(fields: ["region"])).map(\.values)
        #expect(Set(regions.flatMap { $0 }) == Set(Self.local + Self.remote))
    }

    static let filters = [
        "population / area > 100", "name =~ '^(Un|Re)'", "count(borders) = 0", "lower(region) = 'europe' or length(name) > 30",
        "year(2024-01-01) = 2024 and gini * 2 > 80", "coalesce(gini, 0) = 0 and region != Asia", "abs(latlng) > 60",
    ]

    @Test(arguments: filters) func aComputedFilterOverTheShardsAnswersAsInMemory(_ text: String) throws {
        let table = try Self.sharded()
        let memory = try BundledData.generic("countries")
        let expected = names(try Filter.run(try parse(text), on: .all([memory])))
        let query = TableQuery(filters: [try parse(text)])
        #expect(try table.count(query) == expected.count)
        #expect(Set(try allNames(table, query).map { $0 ?? "" }) == Set(expected.map { $0 ?? "" }))
    }

    @Test func computedSortsGroupsAndProfilesOverTheShards() throws {
        let table = try Self.sharded()
        let memory = try BundledData.generic("countries")
        // A total order: density, then name.
        let keys = [SortKey("population / area", descending: true), SortKey("name")]
        var sorted = ResultSet.all([memory])
        for key in keys.reversed() { sorted = try Sort.run(sorted, by: [key]) }
        #expect(try allNames(table, TableQuery(sort: keys)) == names(sorted))
        let spec = GroupSpec(fields: ["round(log10(population))", "region"],
                             aggregates: [Aggregate(.avg, "population / area"), Aggregate(.max, "length(name)")])
        let expected = Array(try Group.run(.all([memory]), by: spec))
        let found = try table.group(by: spec)
        #expect(found.map(\.values) == expected.map(\.values))
        #expect(found.map(\.count) == expected.map(\.count))
        for (row, group) in zip(found, expected) {
            for (text, value) in zip(row.aggregates, group.aggregates) {
                switch (AggregateValue(text: text), value) {
                case let (.number(a), .number(b)): #expect(abs(a - b) <= 1e-9 * max(1, abs(b)), "\(group.values)")
                case let (a, b): #expect(a == b, "\(group.values)")
                }
            }
        }
        let profile = try #require(try table.describe(fields: ["population / area"]).first)
        let own = try #require(try Describe.run(.all([memory]), fields: ["population / area"]).first?.profile)
        #expect(profile.present == own.present && profile.absent == own.absent && profile.distinct == own.distinct)
        // One page is one page: the coordinator is asked for ten rows, not the shards' all.
        #expect(try table.page(TableQuery(sort: keys), limit: 10, computed: ["population / area as density"]).rows.count == 10)
    }
}
