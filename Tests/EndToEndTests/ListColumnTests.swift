import Foundation
import PostgresCluster
import Testing

/// A chosen column over a field whose values sit in lists is a list in every row: Portugal's
/// one border was written `"borders":"ESP"` beside Austria's `["CZE", …]`, so a program found a
/// string in 23 rows and a list in 143, and CSV lost the brackets `load` reads a list by.
@Suite("A list field is a list in every row")
struct ListColumnTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    static func countries() throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: Data(try DataFolder.realContents("countries"))) as! [[String: Any]]
    }

    @Test("JSON: borders is the source's list in every row that has one, however many")
    func everyRowAList() throws {
        let output = try home.succeed(["use countries", "columns name, borders"], options: ["--no-rc"], format: "json")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
        let expected = Dictionary(uniqueKeysWithValues: try Self.countries().map { ($0["name"] as! String, $0["borders"] as? [String] ?? []) })
        #expect(rows.count == expected.count)
        for row in rows {
            let name = row["name"] as! String
            if expected[name]!.isEmpty { continue }
            #expect(row["borders"] as? [String] == expected[name], "\(name): \(String(describing: row["borders"]))")
        }
        #expect(expected.values.filter { $0.count == 1 }.count == 23)
    }

    @Test("CSV writes a one-element list as a list, memory and table alike; the table shows it as before")
    func csvAndTable() throws {
        let output = try Database.sameAnswers("countries", table: "list_columns", in: home, [
            "filter alpha3Code = PRT", "columns name, borders, languages.name",
        ])
        // Portugal borders Spain alone and speaks Portuguese alone.
        #expect(output.lines == ["name,borders,languages.name,alpha3Code", #"Portugal,"[""ESP""]","[""Portuguese""]",PRT"#], "\(output)")
        let table = try home.succeed(["use countries", "filter alpha3Code = PRT", "columns name, borders"], options: ["--no-rc"])
        #expect(table.lines.last?.split(separator: " ", omittingEmptySubsequences: true) == ["1", "Portugal", "ESP", "PRT"], "\(table)")
    }
}
