/// What `show` adds to a record's detail: a section per declared link of its dataset (and
/// per declared link followed backwards) listing the linked records by name. The bundled
/// links are the models' own (a planet's residents, a country's borders and stations).
public enum LinkSections {
    /// Names listed in one section at most; the rest are counted.
    static let shownNames = 30

    public static func adding(to detail: RecordDetail, of dataset: Dataset, row: Int) -> RecordDetail {
        var detail = detail
        // A link named after its field (`owner_id`) gets its section beside the field's row.
        let shown = Set(detail.sections.map { $0.title.lowercased() })
        for link in dataset.links(from: dataset.name) where link.isDeclared {
            guard !shown.contains(link.name.lowercased()), let target = dataset.neighbour(link.to) else { continue }
            let index = LinkIndex.of(link, from: dataset, to: target)
            let names = index.targets(of: row).map { target.name(of: Int($0)) }
            guard !names.isEmpty else { continue }
            let title = link.name.prefix(1).uppercased() + link.name.dropFirst()
            var text = names.prefix(shownNames).joined(separator: ", ")
            if names.count > shownNames { text += " … and \((names.count - shownNames).grouped) more" }
            let label = names.count > 1 ? "\(names.count.grouped) \(link.to)" : link.to
            detail.sections.append(RecordDetail.Section(title, rows: [RecordDetail.Row(label, text)]))
        }
        return detail
    }
}
