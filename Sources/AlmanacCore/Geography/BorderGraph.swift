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
        let neighbours = sets.map { $0.sorted() }
        self.neighbours = neighbours
        unknownCodes = unknown
        var component = [Int](repeating: -1, count: codes.count)
        var next = 0
        for start in 0..<codes.count where component[start] < 0 {
            let reached = Self.breadthFirst(neighbours, from: start).distance
            for row in reached.indices where reached[row] >= 0 { component[row] = next }
            next += 1
        }
        self.component = component
    }

    /// Breadth-first from `start`, neighbours in row order, at most `limit` borders out, stopping
    /// once `end` is reached: each row's distance in borders (-1: not reached) and the row it
    /// was first reached from.
    static func breadthFirst(_ neighbours: [[Int]], from start: Int, limit: Int = .max, end: Int? = nil)
        -> (distance: [Int], parent: [Int]) {
        var distance = [Int](repeating: -1, count: neighbours.count)
        var parent = [Int](repeating: -1, count: neighbours.count)
        distance[start] = 0
        parent[start] = start
        var queue = [start]
        var head = 0
        while head < queue.count {
            let row = queue[head]
            head += 1
            guard distance[row] < limit else { continue }
            for other in neighbours[row] where distance[other] < 0 {
                distance[other] = distance[row] + 1
                parent[other] = row
                if other == end { return (distance, parent) }
                queue.append(other)
            }
        }
        return (distance, parent)
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
        let parent = Self.breadthFirst(neighbours, from: start, end: end).parent
        guard parent[end] >= 0 else { return nil }
        var chain = [end]
        while chain[chain.count - 1] != start { chain.append(parent[chain[chain.count - 1]]) }
        return chain.reversed()
    }

    /// The countries within `limit` borders of `start`, not `start` itself, each with how many
    /// borders away it is: nearest first, then in row order.
    public func reach(from start: Int, within limit: Int) -> [(row: Int, borders: Int)] {
        guard start >= 0, start < count, limit > 0 else { return [] }
        let distance = Self.breadthFirst(neighbours, from: start, limit: limit).distance
        return distance.indices.filter { distance[$0] > 0 }.map { ($0, distance[$0]) }.sorted { ($0.borders, $0.row) < ($1.borders, $1.row) }
    }

    /// `reach`'s answer as memory and a table both give it: nearest first, then by name (folded,
    /// as sort compares text), whatever order the rows come in (a table's by its key).
    public func reach(from start: Int, within limit: Int, namedIn countries: Dataset) -> [(row: Int, borders: Int)] {
        let reached = reach(from: start, within: limit)
        let names = Dictionary(uniqueKeysWithValues: reached.map { ($0.row, Folding.fold(countries.name(of: $0.row))) })
        return reached.sorted { ($0.borders, names[$0.row]!, $0.row) < ($1.borders, names[$1.row]!, $1.row) }
    }

    /// The rows of the land component `start` belongs to, in row order.
    public func members(ofComponentOf row: Int) -> [Int] {
        guard row >= 0, row < count else { return [] }
        let wanted = component[row]
        return component.indices.filter { component[$0] == wanted }
    }
}
