import Testing
@testable import AlmanacCore

/// Numbers written as text: a comma groups thousands, three digits a group, and is never a
/// decimal comma read away (`1,5` was 15).
@Suite struct NumericTextTests {
    @Test func commasBetweenGroupsOfThreeDigits() {
        #expect(NumericText.value(of: "1,000") == 1000)
        #expect(NumericText.value(of: "12,345,678.5") == 12_345_678.5)
        #expect(NumericText.value(of: "-1,000") == -1000)
        #expect(NumericText.value(of: " 999,999 ") == 999_999)
        #expect(NumericText.value(of: "1,000BBY") == -1000)
        #expect(NumericText.value(of: "1,000e3") == 1_000_000)
        #expect(NumericText.literal("1,000,000") == 1_000_000)
    }

    @Test func aDecimalCommaOrAStrayCommaIsNoNumber() {
        for text in ["1,5", "2,25", "1,0000", "1000,000", "1,000,00", ",5", "1,", "1,,000", "1.000,5", "0.5,000", "1,5e3", "1e3,000"] {
            #expect(NumericText.value(of: text) == nil, "\(text)")
        }
    }

    @Test func numbersWithoutCommasReadAsBefore() {
        #expect(NumericText.value(of: "180") == 180)
        #expect(NumericText.value(of: "2.5") == 2.5)
        #expect(NumericText.value(of: "41.9BBY") == -41.9)
        #expect(NumericText.value(of: "1e3") == 1000)
        #expect(NumericText.value(of: "unknown") == nil)
    }
}
