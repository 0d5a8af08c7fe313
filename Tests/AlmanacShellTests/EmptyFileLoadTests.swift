import Foundation
import Testing
@testable import AlmanacShell

/// A CSV of a header alone, or an empty CSV or NDJSON file, loads no records: what `fields`
/// and `columns` say names only fields the file has.
@Suite struct EmptyFileLoadTests {
    func file(_ name: String, _ text: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("empty-load-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aHeaderAloneListsItsColumns() throws {
        let shell = ShellHarness(load: [])
        #expect(shell.output("load t from \(try file("header.csv", "a,b\n"))").ok)
        #expect(shell.run("use t"))
        #expect(shell.output("fields").out == """
            field  type   records  example  computed
            ─────  ─────  ───────  ───────  ────────
            a      empty        0           no
            b      empty        0           no
            names the records: a

            """)
        #expect(shell.output("columns").out == "t: a, b (the default)\n")
        #expect(shell.output("count").out == "0\n")
        // Not a header and a rule: a group of no records says why there are none.
        #expect(shell.output("group a").out == "no records to group — t has no records\n")
    }

    @Test func anEmptyCSVOrNDJSONFileLoadsNoRecordsAndSaysSo() throws {
        for (name, note) in [("empty.csv", "no header, no rows"), ("empty.ndjson", "no lines, no records")] {
            let shell = ShellHarness(load: [])
            let loaded = shell.output("load t from \(try file(name, ""))")
            #expect(loaded.ok, "\(name)")
            #expect(loaded.err == "t: 1 warning — the text is empty: \(note)\n", "\(name)")
            #expect(shell.run("use t"))
            #expect(shell.output("fields").out == """
                field  type  records  example  computed
                ─────  ────  ───────  ───────  ────────

                """, "\(name)")
            #expect(shell.output("columns").out == "t: no columns (the default)\n", "\(name)")
        }
    }

    /// `[{}, {}]` lists its two rows by number and says why nothing else is there.
    @Test func recordsWithoutFieldsSaySo() throws {
        let shell = ShellHarness(load: ["species"])
        #expect(shell.output("load t from \(try file("nothing.json", "[{}, {}]"))").ok)
        #expect(shell.run("use t"))
        #expect(shell.output("page").out == "#\n─\n1\n2\nthe records have no fields\n")
        // Under use all the rows have their names (no field of theirs is listed): no such note.
        #expect(shell.run("use all"))
        #expect(!shell.output("page").out.contains("no fields"))
    }

    /// A malformed CSV is still an error naming the file, the line and the column.
    @Test func aMalformedCSVNamesFileLineAndColumn() throws {
        let shell = ShellHarness(load: [])
        let path = try file("bad.csv", "a,b\n1,2\n3\n")
        let loaded = shell.output("load t from \(path)")
        #expect(!loaded.ok)
        #expect(loaded.err == "t: load failed: \(path): line 3, column 2: 1 field where the header has 2\ntest:1: 1 load failed\n")
    }
}
