#if canImport(Glibc)
import Glibc
#endif
import AlmanacCore

/// The things arguments complete to, shared by every command that declares them.
enum CompletionSources {
    /// Dataset names (and `all` when asked).
    static func datasets(_ request: CompletionRequest, in session: Session, includingAll: Bool = false) -> [CompletionCandidate] {
        request.matching(session.catalog.names + (includingAll ? ["all"] : []))
    }

    /// Field paths of the datasets in scope, without waiting for loads.
    static func fields(_ request: CompletionRequest, in session: Session) -> [CompletionCandidate] {
        let names = session.scopeNames.compactMap { session.catalog.dataset($0)?.fieldsIfReady }.flatMap { FieldLookup.names(in: $0) }
        var seen = Set<String>()
        return request.matching(names.filter { seen.insert($0).inserted })
    }

    /// A field's values when it has few (`filter region = <TAB>`).
    static func values(of field: String, _ request: CompletionRequest, in session: Session) -> [CompletionCandidate] {
        let values = session.scopeNames.compactMap { session.catalog.dataset($0)?.fieldsIfReady }
            .compactMap { FieldLookup.field(field, in: $0)?.values }.flatMap { $0 }
        var seen = Set<String>()
        return request.matching(values.filter { seen.insert($0).inserted })
    }

    /// Record names of the datasets in scope starting with the fragment (folded). A dataset
    /// whose index is still being built offers nothing yet: TAB never makes the prompt wait.
    static func recordNames(_ request: CompletionRequest, in session: Session, limit: Int = 500,
                            where include: ((Dataset, Int) -> Bool)? = nil) -> [CompletionCandidate] {
        var names: [String] = []
        for dataset in session.scopeNames.compactMap({ session.catalog.dataset($0) }) {
            guard let index = NameIndex.ifReady(dataset) else { continue }
            for row in index.rows(withNamePrefix: request.fragment, limit: include == nil ? limit : .max) {
                if let include, !include(dataset, row) { continue }
                names.append(dataset.name(of: row))
                if names.count >= limit { break }
            }
        }
        return names.map { CompletionCandidate($0) }
    }

    /// File and folder paths; folders end in `/` and take no space after them.
    static func files(_ request: CompletionRequest) -> [CompletionCandidate] {
        let fragment = request.fragment
        var directory = "."
        var prefix = fragment
        var shownDirectory = ""
        if let slash = fragment.lastIndex(of: "/") {
            shownDirectory = String(fragment[...slash])
            prefix = String(fragment[fragment.index(after: slash)...])
            directory = shownDirectory
            if directory.hasPrefix("~/"), let home = getenv("HOME") { directory = String(cString: home) + directory.dropFirst() }
        }
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var candidates: [CompletionCandidate] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name == "." || name == ".." { continue }
            if name.hasPrefix("."), !prefix.hasPrefix(".") { continue }
            guard Folding.hasPrefix(name, prefix) else { continue }
            var status = stat()
            let isDirectory = stat(directory + "/" + name, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
            candidates.append(CompletionCandidate(shownDirectory + name + (isDirectory ? "/" : ""), appendSpace: !isDirectory))
        }
        return candidates.sorted { $0.text < $1.text }
    }
}
