import AlmanacCore
import Foundation
import Synchronization
import PostgresCluster
import Testing
@testable import AlmanacPostgres

/// Results into new tables: types chosen from the values, every record back as it went in,
/// one transaction, existing tables kept unless replaced.
@Suite struct WriterTests {
    @Test func columnsAreTypedFromTheValues() throws {
        let cluster = try TestCluster.shared()
        _ = try cluster.bundledTable("countries")
        let types = try cluster.admin.query("""
            SELECT a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a
            WHERE a.attrelid = 'countries'::regclass AND a.attnum > 0 ORDER BY a.attnum
            """)
        var byName: [String: String] = [:]
        for row in 0..<types.rowCount { byName[types.value(row, 0)!] = types.value(row, 1)! }
        // In the order the keys first appear.
        let first = try BundledData.load("countries").record(0)
        #expect(Array(types.column(0).prefix(5)) == first.document.members(of: first.index).prefix(5).map { first.document.string(at: $0.key) })
        #expect(byName["name"] == "text")
        #expect(byName["population"] == "bigint")
        #expect(byName["area"] == "numeric")
        #expect(byName["gini"] == "numeric")
        #expect(byName["latlng"] == "numeric[]")
        #expect(byName["borders"] == "text[]")
        #expect(byName["callingCodes"] == "text[]")
        #expect(byName["currencies"] == "jsonb")
        #expect(byName["translations"] == "jsonb")
    }

    /// Each record read back is the record written (absent keys come back as null).
    @Test func everyRecordComesBackAsItWent() throws {
        for name in ["countries", "species", "stations"] {
            let table = try TestCluster.shared().bundledTable(name)
            let memory = try BundledData.load(name)
            let rows = try table.page(limit: 10000).rows
            #expect(rows.count == memory.count)
            for row in 0..<memory.count {
                let written = try withoutNulls(JSONWriter.string(memory.record(row)))
                let read = try withoutNulls(JSONWriter.string(rows.record(row)))
                #expect(written == read, "\(name) #\(row + 1)")
                if written != read { break }
            }
        }
    }

    @Test func anExistingTableIsKeptUnlessReplaced() throws {
        let cluster = try TestCluster.shared()
        let species = try BundledData.load("species")
        let url = try PostgresURL(cluster.url(table: "species_copy"))
        #expect(try TableWriter.write(.all([species]), to: url, replace: true) == 37)
        #expect(throws: PostgresError.tableExists("species_copy")) { try TableWriter.write(.all([species]), to: url) }
        #expect(PostgresError.tableExists("species_copy").description == "the table 'species_copy' already exists — add --force to replace it")
        let filtered = try Filter.run(parseFilter("classification = mammal"), on: .all([species]))
        #expect(try TableWriter.write(filtered, to: url, replace: true) == filtered.count)
        #expect(try cluster.admin.query("SELECT count(*) FROM species_copy").scalar == String(filtered.count))
    }

    @Test func aStoppedCopyLeavesNoTable() throws {
        let cluster = try TestCluster.shared()
        let stations = try BundledData.load("stations")
        let url = try PostgresURL(cluster.url(table: "stations_stopped"))
        let checks = Atomic<Int>(0)
        let cancellation = Cancellation { checks.add(1, ordering: .relaxed).newValue > 3 }
        #expect(throws: CancelledError.self) { try TableWriter.write(.all([stations]), to: url, cancellation: cancellation) }
        #expect(try cluster.admin.query("SELECT to_regclass('stations_stopped') IS NULL").scalar == "t")
        #expect(try TableWriter.write(.all([stations]), to: url, replace: true) == 4037)
    }

    @Test func aMissingSchemaIsTheServersClearError() throws {
        let cluster = try TestCluster.shared()
        let species = try BundledData.load("species")
        let error = #expect(throws: PostgresError.self) {
            try TableWriter.write(.all([species]), to: PostgresURL(cluster.url(table: "no_schema.species")))
        }
        #expect(error?.description == "schema \"no_schema\" does not exist")
    }

    private func withoutNulls(_ json: String) throws -> NSDictionary {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
        return object.filter { !($0.value is NSNull) } as NSDictionary
    }
}
