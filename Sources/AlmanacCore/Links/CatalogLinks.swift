/// The links a catalog's datasets have: the bundled ones and those the user declared, each
/// also followed backwards. Declared links are the catalog's, as its datasets are.
extension Catalog {
    /// Declares `link` (replacing one of the same dataset and name).
    public func declare(_ link: LinkDefinition) {
        declaredLinks.withLock { links in
            links.removeAll { $0.from == link.from && $0.name == link.name }
            links.append(link)
        }
    }

    /// Forgets the declared link `from.name`; false when there is none.
    @discardableResult
    public func dropLink(from dataset: String, named name: String) -> Bool {
        declaredLinks.withLock { links in
            let before = links.count
            links.removeAll { $0.from == dataset.lowercased() && ($0.name == name || $0.field == name) }
            return links.count < before
        }
    }

    /// Every link whose two datasets the catalog knows: the bundled, then the declared; each
    /// forward, then backwards where no link or field of the dataset already has its name.
    public var links: [LinkDefinition] {
        let declared = declaredLinks.withLock { $0 }
        let known = Set(names)
        let forward = (LinkDefinition.bundled.filter { !$0.isReverse } + declared).filter { known.contains($0.from) && known.contains($0.to) }
        var all = forward + LinkDefinition.bundled.filter { $0.isReverse && known.contains($0.from) && known.contains($0.to) }
        for link in forward where !link.isReverse {
            let back = link.reversed
            if !all.contains(where: { $0.from == back.from && $0.name == back.name }) { all.append(back) }
        }
        return all
    }

    /// The links a path may cross from `dataset`.
    public func links(from dataset: String) -> [LinkDefinition] { links.filter { $0.from == dataset.lowercased() } }

    /// The link `name` from `dataset`, if there is one.
    public func link(_ name: String, from dataset: String) -> LinkDefinition? {
        links(from: dataset).first { $0.name == name } ?? links(from: dataset).first { $0.name.lowercased() == name.lowercased() }
    }

    /// The declared links, as `link` lines (what `save` writes).
    public var declaredLinkCommands: [String] { declaredLinks.withLock { $0 }.compactMap(\.command) }
}

extension Catalog {
    /// The dataset `name` in memory, its load started and waited for when it has not run yet
    /// (a script loads only what it uses), with those it links into, and theirs: a path from an
    /// attached table into memory reads them all. Nil when it is a table, unknown, or failed.
    public func awaitLinkedDatasets(from name: String, cancellation: Cancellation) throws -> Dataset? {
        var seen: Set<String> = [name.lowercased()]
        var next = [name.lowercased()]
        while let current = next.popLast() {
            for link in links(from: current) where seen.insert(link.to).inserted { next.append(link.to) }
        }
        for other in seen where table(other) == nil && contains(other) {
            start(other)
            if let load = activeLoad(other) {
                while !load.wait(seconds: 0.05) { try cancellation.checkpoint() }
            }
        }
        return dataset(name)
    }
}
