import Foundation
import Testing
@testable import AlmanacCore

/// `%` takes the remainder of the numbers as written. The cheap way (fmod of the binary values,
/// rounded to their decimals) must agree with Foundation's Decimal on every pair it answers.
@Suite struct DecimalRemainderTests {
    @Test func theNumbersAsWrittenGiveTheRemainder() throws {
        #expect(DecimalRemainder.of(7.3, 0.1) == 0)
        #expect(DecimalRemainder.of(7.3, 1) == 0.3)
        #expect(DecimalRemainder.of(-7.5, 2) == -1.5)
        #expect(DecimalRemainder.of(1e15 + 7, 10) == 7)
        #expect(DecimalRemainder.of(48.20253753662109, 1) == 0.20253753662109)
        #expect(DecimalRemainder.of(0.3, 0.1) == 0)
        #expect(DecimalRemainder.of(1, 0).isNaN)
        func digits(_ x: Double) -> [Int64]? { DecimalRemainder.digits(x).map { [$0.value, Int64($0.places)] } }
        #expect(digits(1.5e-05) == [15, 6])
        #expect(digits(12.0) == [12, 0])
        #expect(digits(-7.25) == [725, 2])
        #expect(digits(1e15) == [1_000_000_000_000_000, 0])
        // Past 2^53 of the last place: left to Decimal.
        #expect(digits(1e20) == nil)
        #expect(digits(0.1 + 0.2) == nil)
    }

    /// Decimals of up to 17 places (the stations' coordinates have 14) against divisors whole
    /// and not: the whole-number way answers, and its answer is Decimal's, bit for bit.
    @Test func theCheapWayAgreesWithDecimalArithmetic() throws {
        var generator = SystemRandomNumberGenerator()
        let divisors: [Double] = [1, 2, 7, 0.1, 0.25, 0.3, 2.5, 0.003, 1.1, 360, 0.0001, 12.34]
        var checked = 0
        for _ in 0..<20_000 {
            let places = Int.random(in: 0...17, using: &generator)
            let digits = Double(Int64.random(in: -99_999_999_999_999...99_999_999_999_999, using: &generator))
            let a = Double("\(digits / pow(10, Double(places)))") ?? 0
            for b in divisors {
                let exact = try #require(DecimalRemainder.exact(a, b))
                #expect(DecimalRemainder.of(a, b) == exact, "\(a) % \(b)")
                // The whole-number way answers when the decimals fit in 64 bits, and then as Decimal.
                if let cheap = DecimalRemainder.scaled(a, b) { #expect(cheap == exact, "\(a) % \(b)") }
                checked += 1
            }
        }
        #expect(checked == 240_000)
    }

    /// The stations' coordinates (up to 15 decimals) mostly take the cheap way; every answer is
    /// Decimal's. A coordinate with 16 digits under 10 (8.533259391784668) has two 15-place
    /// decimals that read back as it, and Decimal picks.
    @Test func coordinatesMostlyTakeTheCheapWay() throws {
        let stations = try #require(RawData.object("stations.json") as? [String: Any])
        let cities = (stations["citiesFrom"] as? [[String: Any]] ?? []) + (stations["citiesTo"] as? [[String: Any]] ?? [])
        let points = cities.flatMap { $0["stations"] as? [[String: Any]] ?? [] }.compactMap { $0["point"] as? [String: Double] }
        #expect(points.count == 4_781)  // python: stations under citiesFrom and citiesTo
        var cheap = 0
        var all = 0
        for point in points {
            for value in [point["latitude"], point["longitude"]].compactMap({ $0 }) {
                for divisor in [1, 0.5, 0.1, 15.0] {
                    let exact = DecimalRemainder.exact(value, divisor)
                    #expect(DecimalRemainder.of(value, divisor) == exact, "\(value) % \(divisor)")
                    if let answer = DecimalRemainder.scaled(value, divisor) {
                        #expect(answer == exact, "\(value) % \(divisor)")
                        cheap += 1
                    }
                    all += 1
                }
            }
        }
        #expect(Double(cheap) >= 0.9 * Double(all), "\(cheap) of \(all)")
    }
}
