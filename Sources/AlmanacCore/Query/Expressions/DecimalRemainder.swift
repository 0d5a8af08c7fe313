import Foundation

/// `a % b` of the numbers as written — their shortest decimals, which listings and JSON show —,
/// as PostgreSQL's numeric gives it on a table: 7.3 % 0.1 is 0 and 7.3 % 1 is 0.3, not fmod's
/// 0.09999999999999942 and 0.2999999999999998 of the binary values. The sign is a's.
enum DecimalRemainder {
    static func of(_ a: Double, _ b: Double) -> Double {
        let binary = fmod(a, b)
        guard a.isFinite, b.isFinite, binary.isFinite else { return binary }
        // Whole numbers are exact in binary: fmod is the answer.
        if a.rounded(.towardZero) == a, b.rounded(.towardZero) == b { return binary + 0 }
        return scaled(a, b) ?? exact(a, b) ?? binary
    }

    /// The remainder of the two decimals as whole numbers of their last place (48.20253753662109
    /// % 1 is 4820253753662109 % 100000000000000, in hundred-trillionths), when both fit in 64
    /// bits: ~50× cheaper than `exact`, which the coordinates of 100× stations would wait
    /// seconds for.
    static func scaled(_ a: Double, _ b: Double) -> Double? {
        guard let x = digits(a), let y = digits(b) else { return nil }
        let places = max(x.places, y.places)
        guard places <= 22, let left = x.value.scaled(by: places - x.places), let right = y.value.scaled(by: places - y.places),
              right > 0 else { return nil }
        let rest = left % right
        // Exact in a Double, so the one division below rounds once, as reading the decimal would.
        guard rest < 1 << 53 else { return nil }
        let magnitude = Double(rest) / pow(10, Double(places))
        return a < 0 ? -magnitude + 0 : magnitude
    }

    /// The same with Foundation's Decimal, for decimals too long for 64 bits.
    static func exact(_ a: Double, _ b: Double) -> Double? {
        guard let x = Decimal(string: "\(abs(a))"), let y = Decimal(string: "\(abs(b))") else { return nil }
        var quotient = x / y
        var whole = Decimal()
        NSDecimalRound(&whole, &quotient, 0, .down)
        var rest = x - y * whole
        // A quotient rounded up past a whole number (beyond Decimal's 38 digits).
        if rest < 0 { rest += y }
        guard let magnitude = Double("\(rest)") else { return nil }
        return a < 0 ? -magnitude + 0 : magnitude
    }

    /// |x|'s shortest decimal as a whole number and the places it is shifted by: 7.3 → (73, 1),
    /// 1.5e-05 → (15, 6); nil past 64 bits. The fewest places whose decimal reads back as x, as
    /// the shortest text of x has them, found without making that text (which cost ~2 µs a
    /// value: 0.9 s for 403,700 coordinates).
    static func digits(_ x: Double) -> (value: Int64, places: Int)? {
        let x = abs(x)
        var scale = 1.0
        for places in 0...22 {
            // Past these, a decimal of this many places is not the only one that reads back as
            // x (10^-places under x's spacing), or the product is not within one of it.
            guard x * scale < 9_007_199_254_740_992, x.ulp * scale < 1 else { return nil }
            let nearest = (x * scale).rounded()
            // The product rounds once, so the decimal may be a neighbour of its nearest integer.
            if nearest / scale == x { return (Int64(nearest), places) }
            if nearest >= 1, (nearest - 1) / scale == x { return (Int64(nearest - 1), places) }
            if (nearest + 1) / scale == x { return (Int64(nearest + 1), places) }
            scale *= 10
        }
        return nil
    }
}

private extension Int64 {
    /// self × 10^places, nil when it overflows.
    func scaled(by places: Int) -> Int64? {
        var result = self
        for _ in 0..<places {
            let (next, overflow) = result.multipliedReportingOverflow(by: 10)
            if overflow { return nil }
            result = next
        }
        return result
    }
}
