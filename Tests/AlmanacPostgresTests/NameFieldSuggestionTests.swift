import AlmanacCore
import PostgresCluster
import Testing
@testable import AlmanacPostgres

/// A listing's first column is its records' name; stations have no field `name` (their
/// stationTitle names them): an unknown `name` suggests it, in memory and on a table alike.
@Suite struct NameFieldSuggestionTests {
    static func error(_ check: () throws -> Void) -> String? {
        do { try check() } catch { return "\(error)" }
        return nil
    }

    @Test func nameSuggestsTheFieldThatNamesTheRecords() throws {
        let memory = MemoryResults(datasets: [try BundledData.load("stations")])
        let table = try TestCluster.shared().bundledTable("stations").results()
        let expected = "unknown field 'name' — did you mean 'stationTitle'?"
        for field in ["name", "Name"] {
            let words = field == "name" ? expected : expected.replacingOccurrences(of: "'name'", with: "'Name'")
            #expect(Self.error { _ = try memory.checkField(field, cancellation: .never) } == words)
            #expect(Self.error { _ = try table.checkField(field, cancellation: .never) } == words)
        }
        // A filter and an expression say it too; other unknown words still point at `fields`.
        let computed = try AlmanacCore.Expression.parse("name || 'x'")
        #expect(Self.error { _ = try memory.checkExpression(computed, cancellation: .never) }?.contains("did you mean 'stationTitle'?") == true)
        #expect(Self.error { _ = try table.checkExpression(computed, cancellation: .never) }?.contains("did you mean 'stationTitle'?") == true)
        #expect(Self.error { _ = try memory.checkField("nom de gare", cancellation: .never) }
            == "unknown field 'nom de gare' — 'fields' lists them")
        #expect(Self.error { _ = try table.checkField("nom de gare", cancellation: .never) }
            == "unknown field 'nom de gare' — 'fields' lists them")
        // People have a name: nothing changes there.
        let people = MemoryResults(datasets: [try BundledData.load("people")])
        #expect(Self.error { _ = try people.checkField("name", cancellation: .never) } == nil)
    }
}
