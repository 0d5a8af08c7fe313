import Foundation
import PostgresCluster
import Testing

/// A comparison shown as a value — a column, a group key, a sort key — is true or false, in
/// memory and on a table alike: a missing operand makes it false, as a filter reads it. The
/// table used to answer NULL there (`gini > 40` for a country without a gini), so `group
/// gini > 40` had a third group memory never shows.
@Suite("PostgreSQL: a comparison as a value is true or false, as in memory")
struct PostgresComparisonValueTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    @Test("group and columns of comparisons over a field some records lack")
    func comparisonsAsValues() throws {
        let countries = try JSONSerialization.jsonObject(with: Data(try DataFolder.realContents("countries"))) as! [[String: Any]]
        let unequal = countries.filter { ($0["gini"] as? Double).map { $0 > 40 } ?? false }.count
        #expect(unequal == 65)
        let output = try Database.sameAnswers("countries", table: "comparison_values", in: home, [
            "group gini > 40 as unequal",
            "filter alpha3Code = ALA",
            "columns name, gini > 40 as above, gini = 40 as equal, gini < 40 or gini >= 40 as either, not (gini > 40) as below",
        ])
        #expect(output.lines == ["unequal,count,percent", "false,\(countries.count - unequal),74", "true,\(unequal),26",
                                 "name,above,equal,either,below,alpha3Code", "Åland Islands,false,false,false,true,ALA"], "\(output)")
    }

    @Test("% is the remainder of the numbers as written, in memory and on a table alike")
    func remainderOfDecimals() throws {
        // The doubles' own remainders are float artefacts: fmod gives 0.09999999999999942 and
        // 0.2999999999999998; the table's numeric gave 0 and 0.3.
        #expect(fmod(7.3, 0.1) == 0.09999999999999942 && fmod(7.3, 1) == 0.2999999999999998)
        let output = try Database.sameAnswers("countries", table: "remainder_values", in: home, format: "json", [
            "filter alpha3Code = NOR", "columns name, 7.3 % 0.1 as r, 7.3 % 1 as s, -7.5 % 2 as n, -4 % 2 as z, (1e15 + 7) % 10 as w",
        ])
        #expect(output.contains(#""r":0,"s":0.3,"n":-1.5,"z":0,"w":7"#), "\(output)")
    }
}
