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
