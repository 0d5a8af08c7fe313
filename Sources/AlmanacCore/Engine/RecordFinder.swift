import Foundation

/// How `show NAME` finds a record among datasets in memory: an identity (`NOR`, `9362`), then a
/// name exactly, exactly another name search looks at (an author, a city), a unique beginning.
public enum RecordFinder {
    public static func find(_ text: String, in datasets: [Dataset], where include: ((Dataset, Int) -> Bool)? = nil,
                            cancellation: Cancellation) throws -> RecordMatch {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let accept = include ?? { _, _ in true }
        let byIdentity = datasets.compactMap { dataset in dataset.row(forIdentity: trimmed).map { RecordRef(dataset: dataset, row: $0) } }
            .filter { accept($0.dataset, $0.row) }
        if byIdentity.count == 1 { return .one(byIdentity[0]) }
        let folded = Folding.fold(trimmed)
        var exact: [RecordRef] = []
        var otherName: [RecordRef] = []
        var prefixed: [RecordRef] = []
        for dataset in datasets {
            let index = try NameIndex.of(dataset, cancellation: cancellation)
            for row in index.rows(withNamePrefix: trimmed) where accept(dataset, row) {
                let target = RecordRef(dataset: dataset, row: row)
                if Folding.fold(dataset.name(of: row)) == folded { exact.append(target) } else { prefixed.append(target) }
            }
            for row in try index.rows(withOtherName: trimmed, cancellation: cancellation) where accept(dataset, row) {
                otherName.append(RecordRef(dataset: dataset, row: row))
            }
        }
        let candidates = !exact.isEmpty ? exact : !byIdentity.isEmpty ? byIdentity : !otherName.isEmpty ? otherName : prefixed
        if candidates.count == 1 { return .one(candidates[0]) }
        if candidates.isEmpty {
            return .none(similar: try similarNames(to: trimmed, in: datasets, where: accept, cancellation: cancellation))
        }
        return .several(candidates, total: candidates.count, identities: candidates.map { _ in nil })
    }

    /// Up to three names like `text` (a word of theirs starts with it, or it is a typo of
    /// them), for "did you mean".
    private static func similarNames(to text: String, in datasets: [Dataset], where accept: (Dataset, Int) -> Bool,
                                     cancellation: Cancellation) throws -> [String] {
        var names: [String] = []
        for dataset in datasets {
            let index = try NameIndex.of(dataset, cancellation: cancellation)
            for (row, _) in index.similarRows(to: text, comparing: .whole, limit: 50, cancellation: cancellation)
            where accept(dataset, row) && !names.contains(dataset.name(of: row)) {
                names.append(dataset.name(of: row))
            }
        }
        return Array(names.prefix(3))
    }
}
