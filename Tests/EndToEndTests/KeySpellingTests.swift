import Foundation
import Testing

/// Keys that differ only by `_` and `-` are one field in filters: REST Countries spells
/// `iso639_1` as `iso639-1` in Switzerland's Romansh, and `filter languages.iso639_1 = rm`
/// must still find it. Expected countries are computed here from Data/countries.json.
@Suite("Keys spelt with _ or - are one field")
struct KeySpellingTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    func names(_ commands: [String]) throws -> [String] {
        let listed = try home.succeed(commands, options: ["--no-rc"], format: "json")
        return try RecordFormats.jsonArray(listed).compactMap { $0["name"] as? String }.sorted()
    }

    /// Countries with a language whose ISO 639-1 code, under either spelling, is `code`.
    static func speaking(_ code: String) -> [String] {
        ValueReadingTests.records("countries").filter { country in
            ((country["languages"] as? [[String: Any]]) ?? []).contains {
                ($0["iso639_1"] as? String) == code || ($0["iso639-1"] as? String) == code
            }
        }.compactMap { $0["name"] as? String }.sorted()
    }

    @Test("filter languages.iso639_1 = rm finds Switzerland, whose record spells it iso639-1")
    func underscoreFindsDash() throws {
        let expected = Self.speaking("rm")
        #expect(expected.contains("Switzerland"))
        #expect(try names(["use countries", "filter languages.iso639_1 = rm"]) == expected)
        #expect(try names(["use countries", "filter languages.iso639-1 = rm"]) == expected)
        // And every other code still finds what it did.
        #expect(try names(["use countries", "filter languages.iso639_1 = de"]) == Self.speaking("de"))
    }

    @Test("a top-level key spelt both ways in a loaded file is one field for filters")
    func topLevelKeys() throws {
        let file = try home.write("""
            [{"name": "a", "first_name": "Ada"}, {"name": "b", "first-name": "Ada"}, {"name": "c", "first_name": "Bo"}]
            """, to: "people.json")
        #expect(try names(["load folks from \(file)", "use folks", "filter first_name = Ada"]) == ["a", "b"])
        #expect(try names(["load folks from \(file)", "use folks", "filter first-name != Ada"]) == ["c"])
    }
}
