/// Where a link leads from each record: the rows of the target dataset, per row of the source
/// (offsets into one array, as a column of lists). Made once per pair of dataset contents.
public struct LinkIndex: Sendable {
    /// Row `r`'s targets are `targets[offsets[r]..<offsets[r + 1]]`.
    public let offsets: [Int32]
    public let targets: [Int32]

    public var rowCount: Int { offsets.count - 1 }

    public func targets(of row: Int) -> ArraySlice<Int32> { targets[Int(offsets[row])..<Int(offsets[row + 1])] }

    /// Records whose link leads somewhere.
    public var linkedRows: Int { (0..<rowCount).reduce(0) { $0 + (offsets[$1] < offsets[$1 + 1] ? 1 : 0) } }

    init(offsets: [Int32], targets: [Int32]) {
        self.offsets = offsets
        self.targets = targets
    }

    /// The link from `source` into `target` (for a backwards link, `source` is the dataset the
    /// path starts in and the keys are read from `target`).
    public static func of(_ link: LinkDefinition, from source: Dataset, to target: Dataset) -> LinkIndex {
        source.cached(CacheKey<LinkIndex>("link:\(link.name)->\(target.serial)")) {
            if link.isReverse {
                let forward = LinkDefinition(from: link.to, name: link.from, field: link.field, to: link.from, match: link.match)
                return forwardIndex(forward, from: target, to: source).inverted(rows: source.count)
            }
            return forwardIndex(link, from: source, to: target)
        }
    }

    private static func forwardIndex(_ link: LinkDefinition, from source: Dataset, to target: Dataset) -> LinkIndex {
        let lookup = LinkLookup(link.match, in: target)
        let path = source.compile(FieldPath(link.field), derived: false)
        var offsets: [Int32] = [0]
        offsets.reserveCapacity(source.count + 1)
        var targets: [Int32] = []
        for row in 0..<source.count {
            source.forEachValue(of: path, row: row) { value in
                for found in lookup.rows(for: source, value) where !targets[Int(offsets[row])...].contains(found) {
                    targets.append(found)
                }
            }
            offsets.append(Int32(targets.count))
        }
        return LinkIndex(offsets: offsets, targets: targets)
    }

    /// The same pairs the other way: for each row of the target, the source rows leading to it.
    func inverted(rows: Int) -> LinkIndex {
        var counts = [Int32](repeating: 0, count: rows + 1)
        for target in targets { counts[Int(target) + 1] += 1 }
        for row in 0..<rows { counts[row + 1] += counts[row] }
        var filled = counts
        var sources = [Int32](repeating: 0, count: targets.count)
        for row in 0..<rowCount {
            for target in self.targets(of: row) {
                sources[Int(filled[Int(target)])] = Int32(row)
                filled[Int(target)] += 1
            }
        }
        return LinkIndex(offsets: counts, targets: sources)
    }
}

/// A target dataset's rows by the values a link matches on.
struct LinkLookup {
    private var byKey: [String: [Int32]] = [:]
    private let match: LinkDefinition.Match

    init(_ match: LinkDefinition.Match, in target: Dataset) {
        self.match = match
        switch match {
        case let .key(field):
            let path = target.compile(FieldPath(field), derived: false)
            for row in 0..<target.count {
                target.forEachValue(of: path, row: row) { value in
                    byKey[Self.key(target.text(of: value)), default: []].append(Int32(row))
                }
            }
        case .countryName:
            for (name, row) in CountryNames.rows(of: target) { byKey[name, default: []].append(Int32(row)) }
        }
    }

    func rows(for dataset: Dataset, _ value: FieldValue) -> [Int32] {
        let text = dataset.text(of: value)
        switch match {
        case .key: return byKey[Self.key(text)] ?? []
        case .countryName: return byKey[CountryNames.key(text)] ?? []
        }
    }

    /// Keys compare as text; a number by its digits (`12` and `12.0` are one key).
    static func key(_ text: String) -> String {
        if let number = Double(text), number.isFinite, number == number.rounded(), abs(number) < 1e15 { return String(Int(number)) }
        return text
    }
}
