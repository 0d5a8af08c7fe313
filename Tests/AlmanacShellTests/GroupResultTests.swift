import AlmanacCore
import Testing
@testable import AlmanacShell

/// `group` answers in one shape whether memory or a database counted the groups.
@Suite struct GroupResultTests {
    @Test("a table's groups and memory's have the same columns and types: count and distinct are integers in both")
    func tableAndMemoryAgree() {
        let spec = GroupSpec(fields: ["region"], aggregates: [Aggregate(.count, "capital"), Aggregate(.distinct, "subregion"),
                                                              Aggregate(.sum, "population"), Aggregate(.avg, "area"), Aggregate(.min, "name")])
        // Europe in Data/countries.json (python3: 53 records, 53 capitals, 4 subregions, the sum
        // of population, the mean area, the first name): as memory counts it, and as text, as
        // PostgreSQL sends it.
        let memory = Group.Row(values: ["Europe"], count: 53, numbers: [false],
                               aggregates: [.number(53), .number(4), .number(747_707_351), .number(444_966.9703846154), .text("Albania")])
        let database = Group.Row(values: ["Europe"], count: 53, numbers: [false],
                                 aggregates: ["53", "4", "747707351", "444966.9703846154", "Albania"].map(AggregateValue.init(text:)))
        let fromMemory = GroupResult.table(spec, count: 1, total: 250) { _ in memory }
        let fromTable = GroupResult.table(spec, count: 1, total: 250) { _ in database }
        #expect(fromMemory.columns == fromTable.columns)
        #expect(fromTable.columns.map(\.kind) == [.text, .integer, .decimal, .integer, .integer, .decimal, .decimal, .decimal])
        let cells = fromTable.row(0).map { "\($0)" }
        #expect(fromMemory.row(0).map { "\($0)" } == cells)
        #expect(cells == ["text(\"Europe\")", "integer(53)", "decimal(21.2)", "integer(53)", "integer(4)", "integer(747707351)",
                          "decimal(444966.9703846154)", "text(\"Albania\")"])
    }

    @Test("a database's aggregate text is a number where it reads as one, else text; none is none")
    func databaseText() {
        #expect(AggregateValue(text: "12.5") == .number(12.5))
        #expect(AggregateValue(text: "Albania") == .text("Albania"))
        #expect(AggregateValue(text: "NaN") == .text("NaN"))
        #expect(AggregateValue(text: nil) == AggregateValue.none)
    }
}
