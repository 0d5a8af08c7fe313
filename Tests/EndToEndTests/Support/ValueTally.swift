import Foundation

/// How many times each value occurs, most first (equal counts by value): the order value
/// completion lists and explanations name them in, worked out independently of almanac.
enum ValueTally {
    static func counted(_ values: [String]) -> [(value: String, count: Int)] {
        var counts: [String: Int] = [:]
        for value in values { counts[value, default: 0] += 1 }
        let pairs: [(value: String, count: Int)] = counts.map { (value: $0.key, count: $0.value) }
        return pairs.sorted { left, right in left.count != right.count ? left.count > right.count : left.value < right.value }
    }

    /// `Europe (53)` for each value of `field` among `records`, most first.
    static func listed(_ field: String, of records: [[String: Any]]) -> [String] {
        let values: [String] = records.compactMap { $0[field] as? String }
        return counted(values).map { "\($0.value) (\($0.count))" }
    }
}
