import Foundation
import Testing

/// A listing shows the last sort's keys beside its columns; keys of a sort before it only break
/// its ties. On a table a computed key stayed a column after `sort name` replaced it.
@Suite("A replaced sort key leaves the listing, memory and table alike")
struct ReplacedSortColumnTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    @Test("sort population / area desc, then sort name: the density column goes")
    func replacedComputedKey() throws {
        let output = try Database.sameAnswers("countries", table: "replaced_sort", in: home, [
            "filter region = Oceania", "columns name, area", "sort population / area desc", "limit 2", "page",
            "limit", "sort name", "limit 2", "page",
        ])
        // Oceania's densest: Nauru 10,834 / 21 and Tuvalu 11,792 / 26; then by name, no density.
        #expect(output.split(separator: "\n") == [
            "name,area,population / area,region", "Nauru,21,515.9047619047619,Oceania", "Tuvalu,26,453.53846153846155,Oceania",
            "name,area,region", "American Samoa,199,Oceania", "Australia,7692024,Oceania",
        ], "\(output)")
    }
}
