/// What TAB offers for a path across links: after `homeworld.` the planet's fields and links,
/// after `species.homeworld.` the same two hops on; without a dot, the links beside the fields
/// (`coun` → `country`, `count(stat` → `stations`). Never waits: a dataset whose fields are not
/// yet known offers nothing.
public enum LinkCompletion {
    /// Whole paths (`homeworld.climate`) continuing `fragment` from `datasets`; `isLink`: the
    /// path ends at a link, where a `.` may follow.
    public static func paths(continuing fragment: String, from datasets: [Dataset]) -> [(path: String, isLink: Bool)] {
        var seen = Set<String>()
        return datasets.flatMap { paths(continuing: fragment, from: $0) }.filter { seen.insert($0.path).inserted }
    }

    static func paths(continuing fragment: String, from dataset: Dataset) -> [(path: String, isLink: Bool)] {
        guard let dot = fragment.lastIndex(of: ".") else { return dataset.links(from: dataset.name).map { ($0.name, true) } }
        let head = String(fragment[..<dot])
        guard let target = target(of: head.split(separator: ".", omittingEmptySubsequences: false).map(String.init)[...], from: dataset) else {
            return []
        }
        return continuations(of: head, into: target)
    }

    /// `head.` and each field and link of `target`, the dataset `head` leads to.
    public static func continuations(of head: String, into target: Dataset) -> [(path: String, isLink: Bool)] {
        guard let fields = target.fieldsIfReady else { return [] }
        let links = target.links(from: target.name).map(\.name)
        return FieldLookup.names(in: fields).filter { !links.contains($0) }.map { (head + "." + $0, false) } + links.map { (head + "." + $0, true) }
    }

    /// The dataset `steps` lead to when every step is a link (a declared link's field may be
    /// dotted: the longest link name first).
    private static func target(of steps: ArraySlice<String>, from dataset: Dataset) -> Dataset? {
        guard !steps.isEmpty else { return dataset }
        let links = dataset.links(from: dataset.name)
        for length in stride(from: steps.count, through: 1, by: -1) {
            let name = steps.prefix(length).joined(separator: ".").lowercased()
            guard let link = links.first(where: { $0.name.lowercased() == name }), let next = dataset.neighbour(link.to) else { continue }
            if let found = target(of: steps.dropFirst(length), from: next) { return found }
        }
        return nil
    }
}
