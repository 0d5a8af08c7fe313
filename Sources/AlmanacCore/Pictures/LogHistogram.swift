#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Geometric bins for skewed values (populations, areas): each bin's bounds a constant factor
/// apart, so a few giants do not squeeze everything else into the first bin. Only values above
/// zero have a place on such a scale; the caller says how many were left out.
extension Histogram {
    /// Without a count: bins a power of ten wide (1 – 10, 10 – 100, …) from the decade holding
    /// the smallest value to the one holding the largest, split into 2, 3 or more equal factors
    /// when there are too few decades for Sturges' count. With a count: exactly that many
    /// bins, each the same factor wider, from the smallest value to the largest.
    public static func logarithmic(_ values: [Double], bins requested: Int? = nil) -> Histogram {
        let positive = values.filter { $0 > 0 && $0.isFinite }
        guard let minimum = positive.min(), let maximum = positive.max() else { return Histogram(bins: [], scale: .number(decimals: 0)) }
        return counted(positive, logarithmicPlan(count: positive.count, minimum: minimum, maximum: maximum, bins: requested))
    }

    /// The bins `logarithmic(_:bins:)` draws, planned from how many values are above zero and
    /// the smallest and largest of them.
    public static func logarithmicPlan(count: Int, minimum: Double, maximum: Double, bins requested: Int?) -> HistogramPlan {
        var edges: [Double]
        if let requested {
            let factor = maximum > minimum ? pow(maximum / minimum, 1 / Double(requested)) : 10
            edges = (0...requested).map { minimum * pow(factor, Double($0)) }
            // The last bin ends at the largest value itself, not at the product's rounding of
            // it (17,124,442.000000022 for the largest country's area in five bins).
            edges[requested] = maximum
            edges = edges.enumerated().map { $0.offset == 0 || $0.offset == requested ? $0.element : significant($0.element, 3) }
        } else {
            let low = Int(log10(minimum).rounded(.down))
            var high = Int(log10(maximum).rounded(.up))
            if high == low { high += 1 }
            let decades = high - low
            let sturges = Int(log2(Double(count)).rounded(.up)) + 1
            let perDecade = decades >= sturges / 2 ? 1 : min(10, (sturges + decades - 1) / decades)
            edges = (0...(decades * perDecade)).map { step in
                let exponent = Double(low) + Double(step) / Double(perDecade)
                return perDecade == 1 ? pow(10, exponent) : significant(pow(10, exponent), 3)
            }
            // The last bin holds its upper bound: drop bins wholly above the largest value.
            while edges.count > 2, edges[edges.count - 2] >= maximum { edges.removeLast() }
            while edges.count > 2, edges[1] <= minimum { edges.removeFirst() }
        }
        let smallestStep = zip(edges, edges.dropFirst()).map { $1 - $0 }.min() ?? 1
        return HistogramPlan(edges: edges, uniform: false, scale: .number(decimals: min(6, max(0, decimals(for: edges[0]), decimals(for: smallestStep)))),
                             factor: edges.count > 1 ? edges[1] / edges[0] : 10)
    }

    /// `value` to `digits` significant digits (1,234,567 → 1,230,000).
    static func significant(_ value: Double, _ digits: Int) -> Double {
        guard value > 0, value.isFinite else { return value }
        let scale = pow(10, Double(digits - 1) - log10(value).rounded(.down))
        return (value * scale).rounded() / scale
    }
}
