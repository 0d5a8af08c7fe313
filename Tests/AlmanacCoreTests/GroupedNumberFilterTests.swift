import Foundation
import Testing
@testable import AlmanacCore

/// A filter's numbers may group their thousands with commas, unquoted (`population >
/// 1,000,000`): a condition has no list of items, so outside a call a comma is that. The
/// answers are checked against countries.json read by Foundation.
@Suite struct GroupedNumberFilterTests {
    nonisolated(unsafe) static let countries = RawData.object("countries.json") as! [[String: Any]]

    static func filter(_ text: String) throws -> FilterExpression {
        try FilterExpression.parse(FilterExpression.tokens(ExpressionTokens.words(of: text)))
    }

    func names(_ text: String) throws -> [String] {
        AlmanacCoreTests.names(try Filter.run(Self.filter(text), on: .all([RealData.countries])))
    }

    static func names(where keep: ([String: Any]) -> Bool) -> [String] {
        countries.filter(keep).map { $0["name"] as! String }
    }

    static func number(_ country: [String: Any], _ key: String) -> Double? { (country[key] as? NSNumber)?.doubleValue }

    @Test func aGroupedNumberIsOneValue() throws {
        #expect(try Self.filter("population > 1,000,000") == .comparison(field: "population", op: .greater, value: "1,000,000"))
        #expect(try Self.filter("area <= 12,345.5") == .comparison(field: "area", op: .lessOrEqual, value: "12,345.5"))
    }

    @Test func filtersAnswerAsWithThePlainNumber() throws {
        let millions = Self.names { (Self.number($0, "population") ?? 0) > 1_000_000 }
        #expect(millions.count == 160)
        #expect(try names("population > 1,000,000") == millions)
        #expect(try names("population>1,000,000") == millions)
        #expect(try names("population / 1,000 > 1,000") == millions)
        let europe = Self.names { (Self.number($0, "population") ?? 0) > 1_000_000 && $0["region"] as? String == "Europe" }
        #expect(try names("(population > 1,000,000 and region = Europe)") == europe)
        let large = Self.names { (Self.number($0, "area") ?? -1) >= 1_000_000 }
        #expect(large.count == 31)
        #expect(try names("area >= 1,000,000") == large)
    }

    @Test func aCallsCommasSeparateItsArguments() throws {
        guard case let .computed(expression) = try Self.filter("power(2,100) > 1,000"),
              case let .comparison(_, left, right) = expression.node, case let .call(name, arguments) = left.node else {
            Issue.record("not a comparison of a call"); return
        }
        #expect(name == "power" && arguments.map(\.node) == [.number(2, text: "2"), .number(100, text: "100")])
        #expect(right.node == .number(1000, text: "1,000"))
        // Three arguments, which round refuses when bound.
        guard case let .computed(rounded) = try Self.filter("round(area, 1,000) > 5"), case let .comparison(_, call, _) = rounded.node,
              case let .call(_, roundArguments) = call.node else { Issue.record("not a call"); return }
        #expect(roundArguments.count == 3)
    }

    @Test func listsOfItemsKeepTheirCommas() throws {
        // `columns population > 1,000` is two items, as before.
        let items = try ExpressionList.parse(ExpressionTokens.tokens(ExpressionTokens.words(of: "population > 1,000")))
        #expect(items.map(\.spec) == ["population > 1", "000"])
    }

    @Test func anythingButGroupsOfThreeIsStillAnError() {
        for text in ["population > 1,0000", "population > 1,00", "population > 1000,000", "population > 1,000BBY"] {
            #expect(throws: FilterSyntaxError.self, "\(text)") { _ = try Self.filter(text) }
        }
    }
}
