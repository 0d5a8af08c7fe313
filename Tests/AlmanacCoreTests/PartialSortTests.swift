import Foundation
import Testing
@testable import AlmanacCore

/// A sort's first pages come from a partial sort (`TopSort`, `SortedResults`): they must be
/// exactly the full sort's first records, in its order, for every kind of key.
@Suite struct PartialSortTests {
    /// Numbers (with nulls and missing values), text (folded, with absent words), numbers
    /// written as text (SWAPI), lists, several keys, both directions.
    static let cases: [(Dataset, [SortKey])] = [
        (RealData.stations, [SortKey("point.latitude", descending: true)]),
        (RealData.stations, [SortKey("point.latitude")]),
        (RealData.stations, [SortKey("stationTitle")]),
        (RealData.stations, [SortKey("regionTitle", descending: true)]),
        (RealData.stations, [SortKey("countryTitle"), SortKey("point.longitude", descending: true)]),
        (RealData.stations, [SortKey("cityId", descending: true)]),
        (RealData.countries, [SortKey("population", descending: true)]),
        (RealData.countries, [SortKey("area")]),
        (RealData.countries, [SortKey("gini", descending: true)]),
        (RealData.countries, [SortKey("languages.name")]),
        (RealData.species, [SortKey("average_lifespan", descending: true)]),
        (RealData.species, [SortKey("average_height")]),
        (RealData.people, [SortKey("mass", descending: true), SortKey("name")]),
    ]

    @Test(arguments: 0..<cases.count)
    func firstRecordsAreTheFullSortsFirst(_ index: Int) throws {
        let (dataset, keys) = Self.cases[index]
        let all = ResultSet.all([dataset])
        let full = try Sort.run(all, by: keys).items
        for count in [1, 2, 7, 25, 100, 1_000, dataset.count, dataset.count + 5] {
            let positions = try TopSort.first(count, of: all, by: keys, cancellation: .never)
            #expect(positions.map { all.items[$0] } == Array(full.prefix(count)), "\(keys) first \(count)")
        }
    }

    @Test func aFilteredResultSetSortsItsOwnRecords() throws {
        let some = try filter("countryTitle = Россия", RealData.stations)
        let keys = [SortKey("point.longitude", descending: true)]
        let positions = try TopSort.first(30, of: some, by: keys, cancellation: .never)
        #expect(positions.map { some.items[$0] } == Array(try Sort.run(some, by: keys).items.prefix(30)))
    }

    @Test func pagesNearTheTopAndFarDownAreTheFullSorts() throws {
        // Larger than twice the partial order, so the first pages come from it.
        let rows = 5 * SortedResults.prefixLength
        let all = ResultSet.all([RealData.stations])
        let many = all.with((0..<rows).map { all.items[$0 % all.count] })
        let keys = [SortKey("point.latitude", descending: true)]
        let full = try Sort.run(many, by: keys).items
        let sorted = try SortedResults(many, by: keys, cancellation: .never)
        #expect(sorted.count == rows)
        for (start, size) in [(0, 25), (25, 25), (975, 50), (990, 10), (1_500, 25), (rows - 10, 25)] {
            let page = try sorted.page(start: start, size: size, cancellation: .never)
            let end = min(rows, start + size)
            #expect(page.range.map { page.results.items[$0] } == Array(full[start..<end]), "page at \(start)")
        }
        #expect(try sorted.all(cancellation: .never).items == full)
    }

    @Test func aSortAppliedThenListedMatchesTheFullSort() throws {
        let keys = [SortKey("stationTitle", descending: true)]
        let source = try MemoryResults(datasets: [RealData.stations]).applying(.sort(keys), cancellation: .never)
        var counted = source
        #expect(try counted.count(fresh: false, cancellation: .never) == RealData.stations.count)
        let page = try source.page(start: 0, size: 20, cancellation: .never)
        let full = try Sort.run(.all([RealData.stations]), by: keys).items
        #expect(page.range.map { page.results.items[$0] } == Array(full.prefix(20)))
        #expect(source.results.items == full)
        let record = try source.record(at: 3, cancellation: .never)
        #expect(record.row == full[3].row)
    }

    @Test func anUnknownSortFieldIsStillAnErrorWhenTheSortIsApplied() throws {
        #expect(throws: QueryError.self) {
            _ = try MemoryResults(datasets: [RealData.stations]).applying(.sort([SortKey("nosuchfield")]), cancellation: .never)
        }
    }
}
