/// A number as its decimal literal says it, exactly: the shared rule for telling apart numbers
/// a Double cannot (`123456789012345678901234567890` and `…891` are one Double). Integers from
/// 2⁵³ on are where Doubles stop being exact, so only there does the literal decide; group,
/// filter's comparisons and describe's distinct count ask the same question here.
public struct ExactNumber: Hashable, Comparable, Sendable {
    /// Digits without leading or trailing zeros (none for zero).
    private var digits: [UInt8]
    /// The value is 0.DIGITS × 10^exponent.
    private var exponent: Int
    private var negative: Bool

    /// Whether numbers equal to `value` as Doubles may differ as written: integers past 2⁵³.
    public static func isAmbiguous(_ value: Double) -> Bool { value.isFinite && abs(value) >= 9_007_199_254_740_992 }

    /// Reads `[+-]DIGITS[.DIGITS][e[+-]DIGITS]` (thousands separators ignored); nil otherwise.
    public init?(_ text: some StringProtocol) {
        var bytes = Array(text.utf8.filter { $0 != UInt8(ascii: ",") })[...]
        negative = bytes.first == UInt8(ascii: "-")
        if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        var whole: [UInt8] = []
        var fraction: [UInt8] = []
        var inFraction = false
        while let byte = bytes.first, byte != UInt8(ascii: "e"), byte != UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if byte == UInt8(ascii: "."), !inFraction { inFraction = true; continue }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            if inFraction { fraction.append(byte - 48) } else { whole.append(byte - 48) }
        }
        guard !whole.isEmpty || !fraction.isEmpty else { return nil }
        var power = 0
        if !bytes.isEmpty {
            bytes = bytes.dropFirst()
            let sign = bytes.first == UInt8(ascii: "-") ? -1 : 1
            if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
            guard !bytes.isEmpty, bytes.count <= 9, bytes.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
            power = sign * Int(String(decoding: bytes, as: UTF8.self))!
        }
        var all = whole + fraction
        var exponent = whole.count + power
        while all.first == 0 { all.removeFirst(); exponent -= 1 }
        while all.last == 0 { all.removeLast() }
        if all.isEmpty { exponent = 0; negative = false }
        digits = all
        self.exponent = exponent
    }

    /// The number in decimal digits (`-1234567890123456789`, `12.5`), or nil when that would
    /// take more than `digitLimit` digits (`1e300`): then a Double says it as well as anything.
    public var decimalText: String? {
        guard !digits.isEmpty else { return "0" }
        let sign = negative ? "-" : ""
        let text = digits.map { String($0) }.joined()
        guard max(exponent, digits.count) <= Self.digitLimit, exponent > -Self.digitLimit else { return nil }
        if exponent >= digits.count { return sign + text + String(repeating: "0", count: exponent - digits.count) }
        if exponent > 0 { return sign + text.prefix(exponent) + "." + text.dropFirst(exponent) }
        return sign + "0." + String(repeating: "0", count: -exponent) + text
    }

    static let digitLimit = 40

    public static func < (left: ExactNumber, right: ExactNumber) -> Bool {
        if left.negative != right.negative { return left.negative }
        // Same sign: compare magnitudes, reversed for negatives.
        return left.negative ? magnitudeBelow(right, left) : magnitudeBelow(left, right)
    }

    private static func magnitudeBelow(_ left: ExactNumber, _ right: ExactNumber) -> Bool {
        if left.digits.isEmpty || right.digits.isEmpty { return left.digits.isEmpty && !right.digits.isEmpty }
        if left.exponent != right.exponent { return left.exponent < right.exponent }
        return left.digits.lexicographicallyPrecedes(right.digits)
    }
}
