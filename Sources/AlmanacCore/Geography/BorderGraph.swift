/// The land borders between countries as a graph over the rows of the countries dataset. A
/// border named by either side counts both ways: the data lists a few pairs on one side only
/// (Brazil names France, France does not name Brazil).
public struct BorderGraph: Sendable {
    /// Per row: the rows it borders, in row order (the dataset's order, by name).
    public let neighbours: [[Int]]
    /// Per row: its land component (countries reachable over borders), numbered from 0 in the
    /// order of each component's first row.
    public let component: [Int]
    /// Codes (alpha-3) in `borders` that name no country, with the row naming them.
    public let unknownCodes: [(row: Int, code: String)]

    /// Builds the graph from each row's code and its `borders` codes.
    public init(codes: [String], borders: [[String]]) {
        var rowOfCode: [String: Int] = [:]
        for (row, code) in codes.enumerated() where !code.isEmpty && rowOfCode[code.uppercased()] == nil {
            rowOfCode[code.uppercased()] = row
        }
        var sets = [Set<Int>](repeating: [], count: codes.count)
        var unknown: [(row: Int, code: String)] = []
        for (row, list) in borders.enumerated() where row < codes.count {
            for code in list {
                guard let other = rowOfCode[code.uppercased()] else {
                    unknown.append((row, code))
                    continue
                }
                guard other != row else { continue }
                sets[row].insert(other)
                sets[other].insert(row)
            }
        }
        neighbours = sets.map { $0.sorted() }
        unknownCodes = unknown
        var component = [Int](repeating: -1, count: codes.count)
        var next = 0
        for start in 0..<codes.count where component[start] < 0 {
            component[start] = next
            var queue = [start]
            var head = 0
            while head < queue.count {
                let row = queue[head]
                head += 1
                for other in sets[row] where component[other] < 0 {
                    component[other] = next
                    queue.append(other)
                }
            }
            next += 1
        }
        self.component = component
    }

    /// The graph of a countries dataset (`alpha3Code`, `borders`), built once per dataset.
    public static func of(_ countries: Dataset) -> BorderGraph {
        countries.cached(CacheKey<BorderGraph>("border-graph")) {
            let codePath = countries.compile(FieldPath("alpha3Code"))
            let bordersPath = countries.compile(FieldPath("borders"))
            var codes: [String] = []
            var borders: [[String]] = []
            codes.reserveCapacity(countries.count)
            for row in 0..<countries.count {
                codes.append(countries.values(of: codePath, row: row).first.map { countries.text(of: $0) } ?? "")
                borders.append(countries.values(of: bordersPath, row: row).map { countries.text(of: $0) })
            }
            return BorderGraph(codes: codes, borders: borders)
        }
    }

    public var count: Int { neighbours.count }

    /// A shortest chain of borders from `start` to `end`, both included; nil when no land route
    /// joins them. Breadth-first, neighbours in row order: of equally short chains, the one
    /// whose steps come first by name.
    public func path(from start: Int, to end: Int) -> [Int]? {
        guard start >= 0, end >= 0, start < count, end < count, component[start] == component[end] else { return nil }
        if start == end { return [start] }
        var parent = [Int](repeating: -1, count: count)
        parent[start] = start
        var queue = [start]
        var head = 0
        while head < queue.count {
            let row = queue[head]
            head += 1
            for other in neighbours[row] where parent[other] < 0 {
                parent[other] = row
                if other == end {
                    var chain = [end]
                    var at = end
                    while at != start {
                        at = parent[at]
                        chain.append(at)
                    }
                    return chain.reversed()
                }
                queue.append(other)
            }
        }
        return nil
    }

    /// The countries within `limit` borders of `start`, not `start` itself, each with how many
    /// borders away it is: nearest first, then in row order.
    public func reach(from start: Int, within limit: Int) -> [(row: Int, borders: Int)] {
        guard start >= 0, start < count, limit > 0 else { return [] }
        var distance = [Int](repeating: -1, count: count)
        distance[start] = 0
        var frontier = [start]
        var found: [(row: Int, borders: Int)] = []
        var step = 0
        while !frontier.isEmpty, step < limit {
            step += 1
            var next: [Int] = []
            for row in frontier {
                for other in neighbours[row] where distance[other] < 0 {
                    distance[other] = step
                    next.append(other)
                }
            }
            next.sort()
            for row in next { found.append((row, step)) }
            frontier = next
        }
        return found
    }

    /// The rows of the land component `start` belongs to, in row order.
    public func members(ofComponentOf row: Int) -> [Int] {
        guard row >= 0, row < count else { return [] }
        let wanted = component[row]
        return component.indices.filter { component[$0] == wanted }
    }
}
