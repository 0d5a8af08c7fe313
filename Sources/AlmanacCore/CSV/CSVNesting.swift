/// Dotted column names are nested objects: a header `id,user.login,user.id` gives records
/// `{"id": 1, "user": {"login": "zoë", "id": 5000}}`, as a flattened export (pandas'
/// json_normalize, a spreadsheet of an API's answer) meant them, and `user.login` is a
/// path again. A name whose prefix is itself a column with values (`user` and `user.login`),
/// or with an empty part (`a..b`, `.x`), stays one flat key; a prefix column without any value
/// (json_normalize writes `assignee` beside `assignee.login` for a null) goes. An object none
/// of whose columns has a value in a row is left out of that record.
enum CSVNesting {
    indirect enum Slot {
        case leaf(column: Int, key: String)
        case group(key: String, children: [Slot])
    }

    /// The records' shape from the column names, or nil when no name nests. `empty`: the
    /// columns without a value in any row.
    static func slots(for names: [String], empty: Set<Int> = []) -> [Slot]? {
        let parts = names.map { $0.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }
        let flatNames = Set(names.indices.filter { !empty.contains($0) }.map { names[$0] })
        func nests(_ index: Int) -> Bool {
            let path = parts[index]
            guard path.count > 1, !path.contains(where: \.isEmpty) else { return false }
            // No prefix of it may be a column of its own.
            return !(1..<path.count).contains { flatNames.contains(path.prefix($0).joined(separator: ".")) }
        }
        guard names.indices.contains(where: nests) else { return nil }
        var root: [Slot] = []
        func insert(_ column: Int, _ path: ArraySlice<String>, into slots: inout [Slot]) {
            guard path.count > 1 else { return slots.append(.leaf(column: column, key: path.first!)) }
            if let index = slots.firstIndex(where: { if case let .group(key, _) = $0 { key == path.first! } else { false } }),
               case .group(let key, var children) = slots[index] {
                insert(column, path.dropFirst(), into: &children)
                slots[index] = .group(key: key, children: children)
            } else {
                var children: [Slot] = []
                insert(column, path.dropFirst(), into: &children)
                slots.append(.group(key: path.first!, children: children))
            }
        }
        let nested = names.indices.filter(nests)
        let prefixes = Set(nested.flatMap { index in (1..<parts[index].count).map { parts[index].prefix($0).joined(separator: ".") } })
        for index in names.indices {
            if nested.contains(index) {
                insert(index, parts[index][...], into: &root)
            } else if !(empty.contains(index) && prefixes.contains(names[index])) {
                root.append(.leaf(column: index, key: names[index]))
            }
        }
        return root
    }
}

extension JSONDocumentBuilder {
    /// Rewrites the flat records of the array at `root` (one member per column with a value,
    /// keyed by `columns`' keys) into the shape `slots` gives, in new storage.
    mutating func nest(_ slots: [CSVNesting.Slot], columns: [CSVColumn], root: Int) {
        resolvePending()
        var columnOfKey: [UInt64: Int] = [:]
        for (index, column) in columns.enumerated() { columnOfKey[Self.stringTag | column.key.payload] = index }
        // Each slot's key word, interned once.
        var keyWords: [String: UInt64] = [:]
        func word(_ key: String) -> UInt64 {
            if let known = keyWords[key] { return known }
            let made = Self.stringTag | internKey(key).payload
            keyWords[key] = made
            return made
        }
        func prepare(_ slots: [CSVNesting.Slot]) {
            for slot in slots {
                switch slot {
                case let .leaf(_, key): _ = word(key)
                case let .group(key, children): _ = word(key); prepare(children)
                }
            }
        }
        prepare(slots)
        let old = nodeWords
        var new = BuilderStorage<UInt64>(capacity: old.count + old.count / 4 + 64)
        for index in 0..<(root + 2) { new.append(old[index]) }
        // Per row, where each column's value is (0: none) and how many words it takes.
        var values = [(start: Int, words: Int)](repeating: (0, 0), count: columns.count)
        var records = 0
        var read = root + 2
        let end = Int(old[root + 1])
        func emit(_ slots: [CSVNesting.Slot]) -> Int {
            var members = 0
            for slot in slots {
                switch slot {
                case let .leaf(column, key):
                    let value = values[column]
                    guard value.words > 0 else { continue }
                    new.append(keyWords[key]!)
                    // A cell's list or object: its containers' ends move with it.
                    let shift = new.count - value.start
                    var offset = 0
                    while offset < value.words {
                        let word = old[value.start + offset]
                        new.append(word)
                        switch JSONDocument.kind(ofWord: word) {
                        case .number: new.append(old[value.start + offset + 1]); offset += 2
                        case .array, .object: new.append(UInt64(Int(old[value.start + offset + 1]) + shift)); offset += 2
                        default: offset += 1
                        }
                    }
                    members += 1
                case let .group(key, children):
                    new.append(keyWords[key]!)
                    let object = new.count
                    new.append(UInt64(JSONDocument.Kind.object.rawValue) << JSONDocument.tagShift, 0)
                    let count = emit(children)
                    if count == 0 {
                        new.removeLast(3)
                        continue
                    }
                    new[object] |= UInt64(count)
                    new[object + 1] = UInt64(new.count)
                    members += 1
                }
            }
            return members
        }
        while read < end {
            let members = count(at: read)
            for index in values.indices { values[index] = (0, 0) }
            var child = read + 2
            for _ in 0..<members {
                let valueIndex = child + 1
                let words = self.end(of: valueIndex) - valueIndex
                if let column = columnOfKey[old[child]] { values[column] = (valueIndex, words) }
                child = valueIndex + words
            }
            let object = new.count
            new.append(UInt64(JSONDocument.Kind.object.rawValue) << JSONDocument.tagShift, 0)
            new[object] |= UInt64(emit(slots))
            new[object + 1] = UInt64(new.count)
            records += 1
            read = child
        }
        new[root + 1] = UInt64(new.count)
        nodeWords = new
    }
}
