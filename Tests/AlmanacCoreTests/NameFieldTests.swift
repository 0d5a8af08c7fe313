import Testing
@testable import AlmanacCore

/// Of several `…Title`/`…Name` fields, a generic file's records are named by the one that tells
/// them apart, not by the first.
@Suite struct NameFieldTests {
    static func nameField(_ text: String) throws -> String { try MapTests.generic(text).layout.nameField }

    @Test func theNameLikeFieldWithTheMostValuesNamesTheRecords() throws {
        #expect(try Self.nameField("""
        [{"countryTitle": "Австрия", "cityTitle": "город Вена", "stationTitle": "Vienna"},
         {"countryTitle": "Австрия", "cityTitle": "город Вена", "stationTitle": "U-BHF ERDBERGSTR."},
         {"countryTitle": "Австрия", "cityTitle": "город Линц", "stationTitle": "Industriezeile"}]
        """) == "stationTitle")
    }

    @Test func onATieTheFirstNamesThem() throws {
        #expect(try Self.nameField(#"[{"firstName": "Ada", "lastName": "Lovelace"}, {"firstName": "Alan", "lastName": "Turing"}]"#)
            == "firstName")
        #expect(try Self.nameField(#"[{"code": "x", "title": "same"}, {"code": "y", "title": "same"}]"#) == "title",
                "an exact name or title still wins")
    }
}
