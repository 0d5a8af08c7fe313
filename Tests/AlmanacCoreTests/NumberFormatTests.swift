import Testing
@testable import AlmanacCore

/// How numbers read for people in tables: the sign, the separators, the decimals.
@Suite struct NumberFormatTests {
    @Test func fractionsBetweenMinusOneAndZeroKeepTheirSign() {
        #expect(NumberFormat.grouped(-0.25) == "-0.25")
        #expect(NumberFormat.grouped(-0.75) == "-0.75")
        #expect(NumberFormat.grouped(-0.5) == "-0.5")
        #expect(NumberFormat.grouped(-0.076, decimals: 3) == "-0.076")
        // Rounded to two decimals, to a whole number: still negative.
        #expect(NumberFormat.grouped(-0.999) == "-1")
    }

    @Test func otherNegativesReadAsBefore() {
        #expect(NumberFormat.grouped(-1.5) == "-1.5")
        #expect(NumberFormat.grouped(-1234567.25) == "-1,234,567.25")
        #expect(NumberFormat.grouped(-3) == "-3")
        #expect(NumberFormat.grouped(-4037) == "-4,037")
    }

    @Test func negativeZeroReadsAsZero() {
        #expect(NumberFormat.grouped(-0.0) == "0")
        #expect(NumberFormat.grouped(-0.0, decimals: 3) == "0")
        #expect(NumberFormat.plain(-0.0) == "0")
    }

    @Test func positivesAreGroupedWithTrailingZerosDropped() {
        #expect(NumberFormat.grouped(0.25) == "0.25")
        #expect(NumberFormat.grouped(2023.5) == "2,023.5")
        #expect(NumberFormat.grouped(38928341) == "38,928,341")
        #expect(NumberFormat.grouped(0.1 + 0.2) == "0.3")
    }

    @Test func nonzeroNumbersTooSmallForTheDecimalsShowTheirSignificantDigits() {
        #expect(NumberFormat.grouped(1e-320) == "1e-320")
        #expect(NumberFormat.grouped(5e-324) == "4.9e-324")
        #expect(NumberFormat.grouped(0.0004) == "0.0004")
        #expect(NumberFormat.grouped(-0.00001234) == "-1.2e-05")
        #expect(NumberFormat.grouped(0.004, decimals: 2) == "0.004")
        #expect(NumberFormat.grouped(1e-7, decimals: 6) == "1e-07")
        #expect(NumberFormat.grouped(0.3, decimals: 0) == "0.3")
        // Those the decimals show read as before.
        #expect(NumberFormat.grouped(0.006) == "0.01")
        #expect(NumberFormat.grouped(0.0004, decimals: 4) == "0.0004")
    }

    @Test func withoutThousandsOnlyTheSeparatorsGo() {
        #expect(NumberFormat.grouped(2024, thousands: false) == "2024")
        #expect(NumberFormat.grouped(2023.25, thousands: false) == "2023.25")
        #expect(NumberFormat.grouped(-12345.678, decimals: 1, thousands: false) == "-12345.7")
        #expect(NumberFormat.grouped(-0.25, thousands: false) == "-0.25")
    }
}
