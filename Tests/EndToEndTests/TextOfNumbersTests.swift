import Foundation
import PostgresCluster
import Testing

/// A field of numbers written as text (`numericCode`: "004") computes as numbers, but where
/// text is wanted — length, substr, ||, =~ — it is its text as written: `004`, never `4`.
/// Memory and a table answer alike.
@Suite("Numbers written as text read as their text in text functions")
struct TextOfNumbersTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    /// What the countries file says, counted here: every numericCode has three characters and
    /// thirty start with 0.
    static func codes() throws -> [String] {
        let data = Data(try DataFolder.realContents("countries"))
        let countries = try JSONSerialization.jsonObject(with: data) as! [[String: Any]]
        return countries.compactMap { $0["numericCode"] as? String }
    }

    @Test("length, substr, || and =~ see the leading zeros, in memory")
    func inMemory() throws {
        let codes = try Self.codes()
        let output = try home.succeed(["use countries", "columns name, numericCode, length(numericCode) as l, substr(numericCode, 1, 2) as s, "
                                       + "numericCode || name as j", "limit 2", "page"], options: ["--no-rc"], format: "csv")
        #expect(output.lines == ["name,numericCode,l,s,j", "Afghanistan,004,3,00,004Afghanistan", "Åland Islands,248,3,24,248Åland Islands"])
        let zeros = try home.succeed(["use countries", "filter numericCode =~ '^0'", "count"], options: ["--no-rc"], format: "csv")
        #expect(zeros.lines == ["count", String(codes.filter { $0.hasPrefix("0") }.count)])
        let three = try home.succeed(["use countries", "filter length(numericCode) = 3", "count"], options: ["--no-rc"], format: "csv")
        #expect(three.lines == ["count", String(codes.filter { $0.count == 3 }.count)])
        #expect(codes.filter { $0.hasPrefix("0") }.count == 30 && codes.count == 249)
    }

    @Test("a table's text column of codes answers as memory does")
    func onATable() throws {
        let output = try Database.sameAnswers("countries", table: "text_of_numbers", in: home, [
            "filter numericCode =~ '^0'", "count", "filter clear", "filter length(numericCode) = 3", "count", "filter clear",
            "sort name", "columns name, length(numericCode) as l, substr(numericCode, 1, 2) as s", "limit 2", "page",
        ])
        #expect(output.lines == ["count", "30", "count", "249", "name,l,s", "Afghanistan,3,00", "Åland Islands,3,24"], "\(output)")
    }
}
