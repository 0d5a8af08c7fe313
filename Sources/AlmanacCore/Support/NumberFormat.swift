import Foundation

/// How numbers are shown to people.
public enum NumberFormat {
    /// `210` for whole numbers, the shortest exact form otherwise (`27.8`).
    public static func plain(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// With thousands separators: `38,928,341`; fractions keep up to `decimals` digits, and
    /// numbers too small for them their first `decimals` significant ones. −0 reads `0`.
    /// `thousands` false leaves the separators out (years: `2023.5`), the rest alike;
    /// `keepingZeros` shows all `decimals` digits, as a listing's column does (`176.0`).
    public static func grouped(_ value: Double, decimals: Int = 2, thousands: Bool = true, keepingZeros: Bool = false) -> String {
        // Past 21 digits the shortest exact form (`1e+308`), not 309 digits.
        guard value.isFinite, abs(value) < 1e21 else { return "\(value)" }
        func digits(_ whole: Int) -> String { thousands ? whole.grouped : String(whole) }
        if !keepingZeros, value == value.rounded(), abs(value) < 1e15 { return digits(Int(value)) }
        // The magnitude, then the sign: the whole part of −0.25 is 0, which has no sign to keep.
        let fixed = String(format: "%.\(decimals)f", abs(value))
        let parts = fixed.split(separator: ".", maxSplits: 1)
        let whole = Int(parts[0]).map(digits) ?? String(parts[0])
        var fraction = parts.count > 1 ? String(parts[1]) : ""
        while !keepingZeros, fraction.hasSuffix("0") { fraction.removeLast() }
        var magnitude = fraction.isEmpty ? whole : whole + "." + fraction
        // A nonzero number never reads 0: below the decimals shown, its first significant
        // digits (`0.0004`, `1.2e-05`, `1e-320`).
        if magnitude == "0", value != 0 { magnitude = String(format: "%.\(max(1, decimals))g", abs(value)) }
        return (value < 0 && magnitude != "0" ? "-" : "") + magnitude
    }

    /// Exactly `decimals` digits after the point: coordinates to three decimals.
    public static func fixed(_ value: Double, decimals: Int) -> String {
        String(format: "%.\(decimals)f", value)
    }
}
