import Foundation
import PostgresCluster
import Testing

/// `=~` reads ICU's syntax in memory; on a table PostgreSQL runs the pattern. Where the two
/// spell a thing differently the table's answer was silently another: `\b` is a word boundary
/// to ICU and a backspace to PostgreSQL, so `name =~ '\bof\b'` kept none of the 14 countries.
@Suite("PostgreSQL: =~ patterns answer as in memory")
struct PostgresRegexTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    @Test("word boundaries match the same countries; Unicode properties are refused, not misread")
    func wordBoundaries() throws {
        let countries = try JSONSerialization.jsonObject(with: Data(try DataFolder.realContents("countries"))) as! [[String: Any]]
        let regex = try NSRegularExpression(pattern: "\\bof\\b")
        let expected = countries.filter { country in
            let name = country["name"] as! String
            return regex.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) != nil
        }.count
        #expect(expected == 14)
        let output = try Database.sameAnswers("countries", table: "regex_boundaries", in: home, [#"filter name =~ '\bof\b'"#, "count"])
        #expect(output.lines == ["count", String(expected)], "\(output)")
        let (_, url) = try Database.exported("countries", as: "regex_properties", in: home)
        let refused = try home.run(["load d from \(url)", "use d", #"filter name =~ '\p{Lu}\p{Ll}'"#], options: ["--no-rc"])
        #expect(refused.stderr.contains(#"uses \p{…}, which PostgreSQL's regular expressions lack"#), "\(refused)")
        #expect(refused.status == 1)
    }
}
