import Foundation
import Testing
@testable import AlmanacCore

/// `.limit(N)` keeps the first N results; `.clearLimits` makes the steps since the last
/// search again without their limits.
@Suite struct LimitStepTests {
    func filterStep(_ text: String) throws -> QueryStep {
        .filter(try FilterExpression.parse(FilterExpression.tokens(text.split(separator: " ").map { (String($0), false) })))
    }

    @Test func limitKeepsTheFirstInTheirOrder() throws {
        var stack = QueryStack(datasets: [RealData.species])
        let sorted = try stack.apply(.sort([SortKey("name")]))
        let limited = try stack.apply(.limit(3))
        #expect(names(limited) == Array(names(sorted).prefix(3)))
        #expect(try stack.apply(.limit(10)).count == 3, "a limit after a limit keeps what the first kept")
    }

    @Test func clearingLimitsKeepsTheStepsAfterThem() throws {
        var stack = QueryStack(datasets: [RealData.species])
        try stack.apply(.sort([SortKey("name", descending: true)]))
        try stack.apply(.limit(5))
        try stack.apply(try filterStep("classification = mammal"))
        let cleared = try stack.apply(.clearLimits)
        var expected = QueryStack(datasets: [RealData.species])
        try expected.apply(.sort([SortKey("name", descending: true)]))
        #expect(names(cleared) == names(try expected.apply(try filterStep("classification = mammal"))))
        #expect(stack.fieldsInUse == ["name", "classification"])
        #expect(stack.steps.count == 4)
    }

    @Test func clearingWithoutALimitSinceTheSearchIsAnError() throws {
        var stack = QueryStack(datasets: [RealData.countries])
        try stack.apply(.limit(2))
        try stack.apply(.search("island"))
        #expect(throws: QueryError.invalid("the results have no limit to clear")) { try stack.apply(.clearLimits) }
    }
}
