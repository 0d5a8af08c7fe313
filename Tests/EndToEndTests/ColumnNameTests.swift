import Foundation
import Testing

/// One name, one column: `columns name as n, area as n` wrote `{"n":"Afghanistan","n":652230}`
/// (a key twice; jq keeps the last) and `sort n` sorted by one of them silently. A field named
/// twice is that one column.
@Suite("Column names are unique")
struct ColumnNameTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    @Test("two columns under one name are refused, saying which name")
    func clashingNames() throws {
        for columns in ["columns name as n, area as n", "columns name, area as name"] {
            let result = try home.run(["use countries", columns], options: ["--no-rc"], format: "json")
            let (name, column) = columns.hasSuffix("as n") ? ("n", 20) : ("name", 15)
            // The column of the second `as NAME`: its word as the terminal counts it, from 1.
            #expect(result.stderr == "-c:2:\(column): two columns are named '\(name)': give each its own name with as\n", "\(result)")
            #expect(result.status == 1)
        }
    }

    @Test("a field named twice is one column, in JSON one key")
    func repeatedField() throws {
        let plain = try home.succeed(["use countries", "columns name, name", "limit 1"], options: ["--no-rc"], format: "json")
        #expect(plain.lines == ["[", #"  {"name":"Afghanistan"}"#, "]"])
        let computed = try home.succeed(["use countries", "columns name, area * 2 as a, name", "limit 1"], options: ["--no-rc"], format: "json")
        // Afghanistan's area is 652,230 km².
        #expect(computed.lines == ["[", #"  {"name":"Afghanistan","a":1304460}"#, "]"])
    }
}
