import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Values counted into contiguous bins. Every bin holds its lower bound; the last holds its
/// upper bound too, so the bins add up to every value.
public struct Histogram: Sendable, Equatable {
    public struct Bin: Sendable, Equatable {
        public var lower: Double
        public var upper: Double
        public var count: Int
    }

    /// Numbers, or dates as seconds since 1970 (UTC).
    public enum Scale: Sendable, Equatable {
        /// Bounds shown with this many decimals.
        case number(decimals: Int)
        /// Bounds shown as precisely as the unit (`2014`, `2014-12`, `2014-12-10`).
        case date(DateUnit)
    }

    public var bins: [Bin]
    public var scale: Scale
    /// How bounds of numbers are written: galactic years as `900BBY`.
    public var notation: NumberNotation = .plain
    /// Geometric bins (`histogram FIELD log`): how many times wider each bin is than the one
    /// before; nil for bins of equal width.
    public var factor: Double? = nil
    /// Whether bounds of numbers have thousands separators: not for years (`2023 – 2024`), as
    /// the field's values read (`ComputedField.groupsThousands`).
    public var groupsThousands = true

    /// The most bins chosen without being asked; more is noise on a terminal.
    public static let maximumDefaultBins = 40
    /// The most bins a person may ask for.
    public static let maximumBins = 1000

    public var total: Int { bins.reduce(0) { $0 + $1.count } }

    /// No bins: nothing to count.
    public static let empty = Histogram(bins: [], scale: .number(decimals: 0))

    /// A bound as a person reads it.
    public func text(_ bound: Double) -> String {
        switch scale {
        // Past 10²¹ six significant digits (`3.33333e+307`): bin bounds, not values to copy.
        case let .number(decimals):
            abs(bound) >= 1e21 ? String(format: "%.6g", bound)
                : notation.text(bound, decimals: decimals == 0 ? nil : decimals) ?? NumberFormat.grouped(bound, decimals: decimals, thousands: groupsThousands)
        case let .date(unit): CalendarDate.text(bound, unit: unit)
        }
    }

    // MARK: - Numbers

    /// Bins for numbers. Without a count: Freedman–Diaconis (twice the interquartile range over
    /// the cube root of the count), never fewer than Sturges' log₂ n + 1 nor more than
    /// `maximumDefaultBins`, with a round width (1, 2 or 5 × 10ᵏ, and 2.5 for non-integers)
    /// and bounds on its multiples. With a count: exactly that many bins, round ones when
    /// they fit the values, else equal parts of the range.
    public static func numbers(_ values: [Double], bins requested: Int? = nil) -> Histogram {
        var values = values.filter(\.isFinite)
        guard let minimum = values.min(), let maximum = values.max() else {
            return Histogram(bins: [], scale: .number(decimals: 0))
        }
        let integers = values.allSatisfy { $0 == $0.rounded() && abs($0) < 1e15 }
        let plan = numberPlan(count: values.count, minimum: minimum, maximum: maximum, integers: integers, bins: requested) {
            quantile(&values, 0.75) - quantile(&values, 0.25)
        }
        return counted(values, plan)
    }

    /// The bins `numbers(_:bins:)` draws, planned from the values' statistics alone: how many
    /// finite values, the smallest and largest, whether all are integers below 10¹⁵, and the
    /// interquartile range (asked only when the bins' count is chosen from it). A database
    /// that computes these bins its values as memory does.
    public static func numberPlan(count: Int, minimum: Double, maximum: Double, integers: Bool, bins requested: Int?,
                                  interquartile: () -> Double) -> HistogramPlan {
        let range = maximum - minimum
        if let requested {
            let plan = numberBins(from: minimum, to: maximum, integers: integers, count: requested)
            return HistogramPlan(edges: plan.edges, uniform: true, scale: plan.scale)
        }
        if range == 0 { return numberPlan(count: count, minimum: minimum, maximum: maximum, integers: integers, bins: 1, interquartile: interquartile) }
        let sturges = Int(log2(Double(count)).rounded(.up)) + 1
        guard roundWidthsFit(minimum, maximum, bins: maximumDefaultBins) else {
            return HistogramPlan(edges: equalParts(minimum, maximum, min(maximumDefaultBins, sturges)), uniform: false, scale: .number(decimals: 0))
        }
        let interquartile = interquartile()
        // As a Double first: a tiny interquartile range under a wide one gives more bins than an Int holds.
        let freedmanDiaconis = interquartile > 0
            ? Int(min(Double(maximumDefaultBins), (range / (2 * interquartile / cbrt(Double(count)))).rounded(.up))) : 0
        let target = min(maximumDefaultBins, max(sturges, freedmanDiaconis))
        // The smallest round width whose bins, starting on a multiple of it, cover the values
        // in at most `target` bins.
        var width = RoundWidth(atLeast: range / Double(target), integers: integers)
        while width.bins(from: minimum, to: maximum) > target { width = width.next }
        let bins = width.bins(from: minimum, to: maximum)
        let first = width.first(for: minimum)
        return HistogramPlan(edges: (first...(first + bins)).map(width.edge), uniform: true, scale: .number(decimals: width.decimals))
    }

    /// The edges of exactly `count` bins over `minimum...maximum`, as `numbers(_:bins:)` counts
    /// them: round ones when they fit, else equal parts of the range. A database that knows
    /// only the minimum, the maximum and whether every value is an integer (below 10¹⁵) bins
    /// its values on these edges as almanac would (describe on a PostgreSQL table).
    public static func numberBins(from minimum: Double, to maximum: Double, integers: Bool, count target: Int)
        -> (edges: [Double], scale: Scale) {
        let range = maximum - minimum
        if range == 0 {
            let width = integers ? 1.0 : max(abs(minimum) * 1e-6, 1e-9)
            // Near the largest Double the bins lie below the value (the last bin holds it).
            let start = (minimum + Double(target) * width).isFinite ? minimum : minimum - Double(target) * width
            return ((0...target).map { start + Double($0) * width }, .number(decimals: integers ? 0 : decimals(for: width)))
        }
        guard roundWidthsFit(minimum, maximum, bins: target) else {
            return (equalParts(minimum, maximum, target), .number(decimals: 0))
        }
        func edges(_ width: RoundWidth, _ bins: Int) -> (edges: [Double], scale: Scale) {
            let first = width.first(for: minimum)
            return ((first...(first + bins)).map(width.edge), .number(decimals: width.decimals))
        }
        var width = RoundWidth(atLeast: range / Double(target), integers: integers)
        while true {
            let needed = width.bins(from: minimum, to: maximum)
            if needed == target { return edges(width, needed) }
            if needed < target { break }
            width = width.next
        }
        // A count 1, 2 and 5 do not give: a width of two significant digits (1.8 million for
        // ten bins of areas up to 17.1 million), else three or four, the smallest that needs
        // exactly that many bins.
        for digits in 2...4 {
            var candidate = RoundWidth.significant(digits, atLeast: range / Double(target), integers: integers)
            for _ in 0..<200 {
                let needed = candidate.bins(from: minimum, to: maximum)
                if needed == target, !integers || candidate.value == candidate.value.rounded() { return edges(candidate, needed) }
                if needed < target { break }
                candidate = candidate.nextSignificant(digits)
            }
        }
        // A count no round width gives: equal parts of the range.
        let exact = range / Double(target)
        var equal = (0...target).map { minimum + Double($0) * exact }
        equal[target] = maximum
        return (equal, .number(decimals: decimals(for: exact)))
    }

    /// Whether round widths can bin `minimum...maximum`: its range is a finite Double, neither
    /// vanishingly small (subnormal) nor so large against the bounds that the bounds' multiples
    /// of a width leave an Int's exact range. Else the bins are equal parts (`equalParts`).
    static func roundWidthsFit(_ minimum: Double, _ maximum: Double, bins: Int) -> Bool {
        let width = (maximum - minimum) / Double(max(1, bins))
        guard width.isFinite, width >= 1e-300 else { return false }
        return abs(minimum) / width < 1e15 && abs(maximum) / width < 1e15
    }

    /// `count` equal parts of `minimum...maximum`, computed without the range itself (which
    /// may overflow: `-1e308...1e308`).
    static func equalParts(_ minimum: Double, _ maximum: Double, _ count: Int) -> [Double] {
        let count = max(1, count)
        var edges = (0...count).map { FiniteArithmetic.between(minimum, maximum, Double($0) / Double(count)) }
        edges[count] = maximum
        return edges
    }

    /// A width of 1, 2, (2.5,) 5 × 10ᵏ, with edges on its multiples computed so that each is
    /// the Double nearest its decimal text (0.3, not 0.30000000000000004).
    struct RoundWidth {
        /// 1, 2, 2.5 or 5.
        var step: Double
        var exponent: Int
        var integers: Bool

        init(step: Double, exponent: Int, integers: Bool) {
            self.step = step
            self.exponent = exponent
            self.integers = integers
        }

        /// The smallest round width at least `minimum` (at least 1 for integers).
        init(atLeast minimum: Double, integers: Bool) {
            self.integers = integers
            guard minimum > 0, minimum.isFinite, !(integers && minimum <= 1) else {
                step = 1
                exponent = 0
                return
            }
            exponent = Int(log10(minimum).rounded(.down))
            step = 10
            for candidate in Self.steps(integers: integers, exponent: exponent)
            where candidate * pow(10, Double(exponent)) >= minimum * (1 - 1e-12) {
                step = candidate
                break
            }
            if step == 10 { step = 1; exponent += 1 }
        }

        static func steps(integers: Bool, exponent: Int) -> [Double] {
            integers && exponent < 1 ? [1, 2, 5] : [1, 2, 2.5, 5]
        }

        var value: Double { edge(1) }

        func edge(_ multiple: Int) -> Double {
            exponent < 0 ? Double(multiple) * step / pow(10, Double(-exponent)) : Double(multiple) * step * pow(10, Double(exponent))
        }

        /// The next larger round width.
        var next: RoundWidth {
            let steps = Self.steps(integers: integers, exponent: exponent)
            if let index = steps.firstIndex(of: step), index + 1 < steps.count {
                return RoundWidth(step: steps[index + 1], exponent: exponent, integers: integers)
            }
            return RoundWidth(step: 1, exponent: exponent + 1, integers: integers)
        }

        /// Decimals that show every edge exactly.
        var decimals: Int { max(0, -exponent + (step == 2.5 ? 1 : 0)) }

        /// Bins from the multiple at or below `minimum` until one holds `maximum` (its upper bound included).
        func bins(from minimum: Double, to maximum: Double) -> Int {
            let first = Int((minimum / value).rounded(.down))
            var needed = max(1, Int(((maximum - edge(first)) / value).rounded(.up)))
            while edge(first + needed) < maximum { needed += 1 }
            while needed > 1, edge(first + needed - 1) >= maximum { needed -= 1 }
            return needed
        }

        func first(for minimum: Double) -> Int { Int((minimum / value).rounded(.down)) }

        /// The smallest width of `digits` significant digits at least `minimum`: its step an
        /// integer from 10^(digits−1) to 10^digits − 1.
        static func significant(_ digits: Int, atLeast minimum: Double, integers: Bool) -> RoundWidth {
            let exponent = Int(log10(minimum).rounded(.down)) - (digits - 1)
            let low = pow(10, Double(digits - 1))
            let step = max(low, (minimum / pow(10, Double(exponent)) * (1 - 1e-12)).rounded(.up))
            if step >= low * 10 { return RoundWidth(step: low, exponent: exponent + 1, integers: integers) }
            return RoundWidth(step: step, exponent: exponent, integers: integers)
        }

        func nextSignificant(_ digits: Int) -> RoundWidth {
            let low = pow(10, Double(digits - 1))
            return step + 1 < low * 10 ? RoundWidth(step: step + 1, exponent: exponent, integers: integers)
                : RoundWidth(step: low, exponent: exponent + 1, integers: integers)
        }
    }

    /// Enough decimals that bounds `width` apart read differently (at most 6).
    static func decimals(for width: Double) -> Int {
        guard width > 0, width.isFinite else { return 0 }
        var decimals = 0
        while decimals < 6, (width * pow(10, Double(decimals))).rounded() != width * pow(10, Double(decimals))
            || width * pow(10, Double(decimals)) < 1 {
            decimals += 1
        }
        return decimals
    }

    /// The `fraction` quantile (linear between the closest ranks), found by selection.
    static func quantile(_ values: inout [Double], _ fraction: Double) -> Double {
        let position = fraction * Double(values.count - 1)
        let lowerRank = Int(position.rounded(.down))
        let lower = select(&values, rank: lowerRank)
        guard lowerRank + 1 < values.count, position > Double(lowerRank) else { return lower }
        // After selection everything above `lowerRank` is at least `lower`: the next rank is their minimum.
        let upper = values[(lowerRank + 1)...].min() ?? lower
        return lower + (upper - lower) * (position - Double(lowerRank))
    }

    /// The value of rank `rank` in sorted order; reorders `values` around it (quickselect).
    static func select(_ values: inout [Double], rank: Int) -> Double {
        var low = 0
        var high = values.count - 1
        while low < high {
            let middle = low + (high - low) / 2
            // Median of three as the pivot keeps sorted and reversed input linear.
            if values[middle] < values[low] { values.swapAt(middle, low) }
            if values[high] < values[low] { values.swapAt(high, low) }
            if values[high] < values[middle] { values.swapAt(high, middle) }
            let pivot = values[middle]
            var left = low
            var right = high
            while left <= right {
                while values[left] < pivot { left += 1 }
                while values[right] > pivot { right -= 1 }
                if left <= right {
                    values.swapAt(left, right)
                    left += 1
                    right -= 1
                }
            }
            if rank <= right { high = right } else if rank >= left { low = left } else { return values[rank] }
        }
        return values[rank]
    }

    // MARK: - Dates

    /// Bins for dates (seconds since 1970, UTC). Without a count, calendar bins as the range
    /// suggests: years over three years or more (several per bin to stay within
    /// `maximumDefaultBins`), else months over three months or more, else days. With a count:
    /// that many equal parts of the range.
    public static func dates(_ values: [Double], bins requested: Int? = nil) -> Histogram {
        let values = values.filter(\.isFinite)
        guard let minimum = values.min(), let maximum = values.max() else { return Histogram(bins: [], scale: .date(.day)) }
        return counted(values, datePlan(minimum: minimum, maximum: maximum, bins: requested))
    }

    /// The bins `dates(_:bins:)` draws, planned from the earliest and latest date alone.
    public static func datePlan(minimum: Double, maximum: Double, bins requested: Int?) -> HistogramPlan {
        let span = maximum - minimum
        if let requested {
            let plan = dateBins(from: minimum, to: maximum, count: requested)
            return HistogramPlan(edges: plan.edges, uniform: true, scale: plan.scale)
        }
        let day = CalendarDate.secondsPerDay
        let (unit, steps): (DateUnit, [Int]) = span >= 3 * 365 * day ? (.year, [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000])
            : span >= 90 * day ? (.month, [1, 2, 3, 6, 12]) : (.day, [1, 2, 7, 14, 28])
        for step in steps {
            var edges = [CalendarDate.start(of: unit, containing: minimum)]
            if unit == .year, step > 1 {
                // Decades start on years divisible by ten, and so on.
                let year = CalendarDate.date(days: Int((minimum / day).rounded(.down))).year
                let aligned = Int((Double(year) / Double(step)).rounded(.down)) * step
                edges = [CalendarDate.start(of: .year, containing: edges[0], plus: aligned - year)]
            }
            while edges.last! <= maximum, edges.count <= maximumDefaultBins + 1 {
                edges.append(CalendarDate.start(of: unit, containing: edges.last!, plus: step))
            }
            guard edges.count <= maximumDefaultBins + 1 else { continue }
            return HistogramPlan(edges: edges, uniform: false, scale: .date(step == 1 || unit != .year ? unit : .year))
        }
        return datePlan(minimum: minimum, maximum: maximum, bins: maximumDefaultBins)
    }

    /// The edges of exactly `count` equal bins over `minimum...maximum` (seconds), as
    /// `dates(_:bins:)` counts them; a database bins its dates on them (describe on a table).
    public static func dateBins(from minimum: Double, to maximum: Double, count requested: Int) -> (edges: [Double], scale: Scale) {
        let span = maximum - minimum
        let width = max(span / Double(requested), 60)
        var edges = (0...requested).map { minimum + Double($0) * width }
        if span > 0 { edges[requested] = maximum }
        let unit: DateUnit = width >= CalendarDate.secondsPerDay && isWholeDays(edges) ? .day : .minute
        return (edges, .date(unit))
    }

    static func isWholeDays(_ edges: [Double]) -> Bool {
        edges.allSatisfy { ($0 / CalendarDate.secondsPerDay).rounded() == $0 / CalendarDate.secondsPerDay }
    }

    // MARK: - Counting

    /// Counts `values` into the bins between consecutive `edges`; `uniform` edges are equally
    /// spaced, so a value's bin is computed and only checked against its edges.
    static func counted(_ values: [Double], edges: [Double], uniform: Bool, scale: Scale) -> Histogram {
        let binCount = edges.count - 1
        var counts = [Int](repeating: 0, count: binCount)
        let start = edges[0]
        let width = (edges[binCount] - start) / Double(binCount)
        edges.withUnsafeBufferPointer { edges in
            counts.withUnsafeMutableBufferPointer { counts in
                for value in values {
                    var bin: Int
                    if uniform, width > 0, width.isFinite {
                        let place = ((value - start) / width).rounded(.down)
                        bin = place.isFinite ? Int(min(Double(binCount - 1), max(0, place))) : 0
                        while bin > 0, value < edges[bin] { bin -= 1 }
                        while bin < binCount - 1, value >= edges[bin + 1] { bin += 1 }
                    } else {
                        // The last edge at or below the value.
                        var low = 0
                        var high = binCount - 1
                        while low < high {
                            let middle = (low + high + 1) / 2
                            if edges[middle] <= value { low = middle } else { high = middle - 1 }
                        }
                        bin = low
                    }
                    counts[bin] += 1
                }
            }
        }
        let bins = (0..<binCount).map { Bin(lower: edges[$0], upper: edges[$0 + 1], count: counts[$0]) }
        return Histogram(bins: bins, scale: scale)
    }
}
