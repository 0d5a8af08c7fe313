/// The bins of a histogram before counting: their edges, whether equally spaced, how their
/// bounds are written, and for geometric bins the factor between consecutive bounds.
public struct HistogramPlan: Sendable, Equatable {
    public var edges: [Double]
    public var uniform: Bool
    public var scale: Histogram.Scale
    public var factor: Double? = nil
}

extension Histogram {
    /// The planned bins holding `counts` (one per bin), as a database counted them.
    public static func planned(_ plan: HistogramPlan, counts: [Int]) -> Histogram {
        let bins = (0..<(plan.edges.count - 1)).map { Bin(lower: plan.edges[$0], upper: plan.edges[$0 + 1], count: counts.indices.contains($0) ? counts[$0] : 0) }
        return Histogram(bins: bins, scale: plan.scale, factor: plan.factor)
    }

    static func counted(_ values: [Double], _ plan: HistogramPlan) -> Histogram {
        var histogram = counted(values, edges: plan.edges, uniform: plan.uniform, scale: plan.scale)
        histogram.factor = plan.factor
        return histogram
    }
}
