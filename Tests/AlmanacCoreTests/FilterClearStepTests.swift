import Foundation
import Testing
@testable import AlmanacCore

/// `.clear` (filter clear) takes the filters, drill-downs and limits since the last search,
/// near, within, outside or reach away: that step's results again, in the sorts' order since.
@Suite struct FilterClearStepTests {
    func filterStep(_ text: String) throws -> QueryStep {
        .filter(try FilterExpression.parse(FilterExpression.tokens(text.split(separator: " ").map { (String($0), false) })))
    }

    nonisolated(unsafe) static let countries = RawData.object("countries.json") as! [[String: Any]]

    @Test func clearKeepsTheSearch() throws {
        var stack = QueryStack(datasets: [RealData.countries])
        let found = try stack.apply(.search("united"))
        try stack.apply(try filterStep("region = Europe"))
        let cleared = try stack.apply(.clear)
        #expect(names(cleared) == names(found))
        #expect(stack.fieldsInUse == [], "no filter is in force")
    }

    @Test func clearKeepsTheSortsSinceAndDropsLimits() throws {
        var stack = QueryStack(datasets: [RealData.countries])
        try stack.apply(.sort([SortKey("population", descending: true)]))
        try stack.apply(try filterStep("region = Asia"))
        try stack.apply(.limit(3))
        let cleared = try stack.apply(.clear)
        let byPopulation = Self.countries.sorted { ($0["population"] as? Double ?? 0) > ($1["population"] as? Double ?? 0) }
        #expect(cleared.count == 250)
        #expect(Array(names(cleared).prefix(3)) == byPopulation.prefix(3).compactMap { $0["name"] as? String })
        #expect(stack.fieldsInUse == ["population"], "the sort is still in force")
        // `limit` alone after the clear: it kept no limit, so there is none to take away.
        #expect(throws: QueryError.invalid("the results have no limit to clear")) { try stack.apply(.clearLimits) }
    }

    @Test func withNoSearchClearIsEveryRecord() throws {
        var stack = QueryStack(datasets: [RealData.countries])
        try stack.apply(try filterStep("region = Europe"))
        #expect(try stack.apply(.clear).count == 250)
    }
}
