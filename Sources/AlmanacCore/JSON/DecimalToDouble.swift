/// A decimal `mantissa × 10^exponent` rounded to the nearest double (ties to even), as strtod
/// rounds it, without strtod: the Eisel–Lemire algorithm (Lemire, "Number Parsing at a
/// Gigabyte per Second", 2021; this follows the form Go's strconv and Wuffs use). One or two
/// 64×64-bit multiplications by a 128-bit power of ten decide the rounding for all but rare
/// inputs; for those (a product too close to a halfway point, subnormals, infinities, exponents
/// outside `PowersOfTen128`) it answers nil and the caller asks strtod.
enum DecimalToDouble {
    @inline(__always)
    static func eiselLemire(mantissa: UInt64, exponent: Int, negative: Bool) -> Double? {
        if mantissa == 0 { return negative ? -0.0 : 0.0 }
        guard exponent >= PowersOfTen128.smallestExponent, exponent <= PowersOfTen128.largestExponent else { return nil }
        let leadingZeros = mantissa.leadingZeroBitCount
        let normalized = mantissa << UInt64(leadingZeros)
        // floor(exponent × log2(10)) is (217706 × exponent) >> 16 for |exponent| < 696.
        var binaryExponent = ((217706 * exponent) >> 16) + 64 + 1023 - leadingZeros

        let row = 2 * (exponent - PowersOfTen128.smallestExponent)
        var (high, low) = normalized.multipliedFullWidth(by: PowersOfTen128.words[row])
        // The low 9 bits of `high` all ones: the truncated power may have cost a carry into the
        // 54 bits kept; the power's lower word settles it, or shows it cannot be settled.
        if high & 0x1FF == 0x1FF, low &+ normalized < normalized {
            let (lowerHigh, lowerLow) = normalized.multipliedFullWidth(by: PowersOfTen128.words[row + 1])
            let mergedLow = low &+ lowerHigh
            let mergedHigh = high &+ (mergedLow < low ? 1 : 0)
            if mergedHigh & 0x1FF == 0x1FF, mergedLow == .max, lowerLow &+ normalized < normalized { return nil }
            (high, low) = (mergedHigh, mergedLow)
        }

        let topBit = Int(high >> 63)
        var significand = high >> UInt64(topBit + 9)
        binaryExponent -= 1 ^ topBit
        // Exactly halfway between two doubles as far as these bits tell: strtod decides.
        if low == 0, high & 0x1FF == 0, significand & 3 == 1 { return nil }

        significand += significand & 1
        significand >>= 1
        if significand >> 53 != 0 {
            significand >>= 1
            binaryExponent += 1
        }
        // Subnormal (≤ 0) or infinite (≥ 0x7FF): strtod's rounding there is not this one.
        guard binaryExponent > 0, binaryExponent < 0x7FF else { return nil }
        let sign: UInt64 = negative ? 1 << 63 : 0
        return Double(bitPattern: sign | UInt64(binaryExponent) << 52 | significand & (1 << 52 - 1))
    }
}
