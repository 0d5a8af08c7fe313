/// Quantities drawn with text: horizontal bars in eighths of a cell, and sparklines.
public enum Bars {
    /// The partial blocks, one to seven eighths of a cell wide.
    static let eighths: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    /// A bar for `value` scaled so that `maximum` fills `width` cells, in whole blocks and one
    /// partial block (rounded to the nearest eighth). A value above nothing but too small for
    /// an eighth still shows one, so "some" never reads as "none".
    public static func bar(_ value: Double, maximum: Double, width: Int) -> String {
        guard width > 0, maximum > 0, value > 0, value.isFinite, maximum.isFinite else { return "" }
        let eighthsWide = max(1, Int((min(value, maximum) / maximum * Double(width * 8)).rounded()))
        var bar = String(repeating: "█", count: eighthsWide / 8)
        if eighthsWide % 8 > 0 { bar.append(eighths[eighthsWide % 8 - 1]) }
        return bar
    }

    /// The eight heights of a sparkline, lowest first.
    static let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// One character per value, its height scaled between zero and the largest value: an
    /// empty slot is the lowest block, any non-zero value at least the second, so a gap in a
    /// distribution stays visible.
    public static func sparkline(_ values: [Double]) -> String {
        let maximum = values.filter(\.isFinite).max() ?? 0
        return String(values.map { value -> Character in
            guard maximum > 0, value > 0, value.isFinite else { return levels[0] }
            let level = Int((value / maximum * Double(levels.count - 1)).rounded(.up))
            return levels[min(levels.count - 1, max(1, level))]
        })
    }

    public static func sparkline(_ counts: [Int]) -> String { sparkline(counts.map(Double.init)) }
}
