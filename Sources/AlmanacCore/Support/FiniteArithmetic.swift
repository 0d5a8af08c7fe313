/// Means and interpolations that stay finite for finite values however large: the sum of
/// `1e308` and `1e308`, or the distance from `-1e308` to `1e308`, overflow a Double.
public enum FiniteArithmetic {
    /// The mean of finite `values`; their sum is scaled down first when it would overflow.
    public static func mean(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let count = Double(values.count)
        let sum = values.reduce(0, +)
        if sum.isFinite { return sum / count }
        return values.reduce(0) { $0 + $1 / count }
    }

    /// The point `fraction` (0…1) of the way from `low` to `high`.
    public static func between(_ low: Double, _ high: Double, _ fraction: Double) -> Double {
        let distance = high - low
        if distance.isFinite { return low + distance * fraction }
        return low * (1 - fraction) + high * fraction
    }
}
