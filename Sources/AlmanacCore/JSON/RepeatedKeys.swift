/// An object that names a key twice keeps one member for it: in the first one's place, with
/// the last one's value (as most JSON readers do), so the table, `filter`, `sort` and the JSON
/// written back all see that one value. The parser asks for this only for objects whose keys
/// may repeat (a 256-bit filter on the key ordinals): objects without repeats cost nothing.
///
/// An object around the point where a large file's second thread took over (see `JSONSplit`)
/// cannot be rewritten in place: one that repeats a key has the file parsed again on one thread.
public struct RepeatedKey: Sendable, Equatable {
    /// The object's node, in the finished document.
    public var object: Int
    /// One key it repeated (the first found).
    public var key: String

    /// The warning's words, one per record.
    public var message: String { "the key '\(excerpt)' appears more than once" + Self.ending }
    public static let ending = "; the last value is kept"

    /// The key as messages quote it: a glimpse of a long one.
    var excerpt: String { key.count > 40 ? key.prefix(40) + "…" : key }

    /// One warning for a source whose records were not told apart (a model of its own).
    static func sourceWarning(_ repeated: [RepeatedKey]) -> LoadWarning {
        let objects = repeated.count == 1 ? "1 object names" : "\(repeated.count.grouped) objects name"
        return LoadWarning(message: "\(objects) a key more than once (the first: '\(repeated[0].excerpt)'); each keeps its last value")
    }
}

extension JSONDocumentBuilder {
    /// For the object just closed at `index` (the last value in `nodes`): each key keeps the
    /// place of its first member and the value of its last; the object is recorded.
    mutating func keepLastOfRepeatedKeys(object index: Int) {
        resolvePending()
        let members = count(at: index)
        guard members > 1, Int(nodeWords[index + 1]) == nodeWords.count else { return }
        var starts: [Int] = []
        starts.reserveCapacity(members + 1)
        var child = index + 2
        for _ in 0..<members {
            starts.append(child)
            child = end(of: child + 1)
        }
        starts.append(child)
        // For each member, the member whose value it takes; nil when an earlier one took its key.
        var source = [Int?](repeating: nil, count: members)
        var first: [KeyIdentity: Int] = [:]
        var repeated: Int?
        for member in 0..<members {
            let identity = identity(ofKeyAt: starts[member])
            if let earlier = first[identity] {
                source[earlier] = member
                repeated = repeated ?? starts[member]
            } else {
                first[identity] = member
                source[member] = member
            }
        }
        guard let repeated else { return }
        let key = text(ofKeyAt: repeated)
        // Written again from a copy: values move, and the containers inside them with them.
        let old = Array(UnsafeBufferPointer(rebasing: nodeWords.buffer[(index + 2)...]))
        let base = index + 2
        nodeWords.removeLast(nodeWords.count - base)
        var moves: [(from: Range<Int>, by: Int)] = []
        for member in 0..<members {
            guard let taken = source[member] else { continue }
            nodeWords.append(old[starts[member] - base])
            let value = (starts[taken] + 1)..<starts[taken + 1]
            let shift = nodeWords.count - value.lowerBound
            moves.append((value, shift))
            var node = value.lowerBound
            while node < value.upperBound {
                let word = old[node - base]
                nodeWords.append(word)
                switch word >> JSONDocument.tagShift {
                case 5: nodeWords.append(old[node + 1 - base]); node += 2
                case 6, 7: nodeWords.append(UInt64(Int(old[node + 1 - base]) + shift)); node += 2
                default: node += 1
                }
            }
        }
        let countMask: UInt64 = (1 << JSONDocument.tagShift) - 1
        nodeWords[index] = nodeWords[index] & ~countMask | UInt64(first.count)
        nodeWords[index + 1] = UInt64(nodeWords.count)
        // Objects recorded inside this one (the last entries) move with their value, or go with it.
        var inside = repeatedKeys.count
        while inside > 0, repeatedKeys[inside - 1].object > index { inside -= 1 }
        let moved: [RepeatedKey] = repeatedKeys[inside...].compactMap { entry in
            moves.first { $0.from.contains(entry.object) }.map { RepeatedKey(object: entry.object + $0.by, key: entry.key) }
        }
        repeatedKeys.removeSubrange(inside...)
        repeatedKeys += moved.sorted { $0.object < $1.object }
        repeatedKeys.append(RepeatedKey(object: index, key: key))
    }

    /// Whether the object at `index` names a key twice (a full check, for the few objects
    /// around a split point).
    func repeatsAKey(object index: Int) -> Bool {
        var seen = Set<KeyIdentity>()
        var child = index + 2
        for _ in 0..<count(at: index) {
            if !seen.insert(identity(ofKeyAt: child)).inserted { return true }
            child = end(of: child + 1)
        }
        return false
    }

    /// What tells keys apart: an interned key's node word (equal words, equal keys), a long key's text.
    private enum KeyIdentity: Hashable {
        case word(UInt64)
        case text(String)
    }

    private func identity(ofKeyAt index: Int) -> KeyIdentity {
        let word = nodeWords[index]
        if word >> JSONDocument.tagShift == 4 { return .word(word) }
        return textRange(at: index).count <= Self.internLimit ? .word(word) : .text(string(at: index))
    }

    /// A key's text; a detached part's interned key is found by its ordinal.
    private func text(ofKeyAt index: Int) -> String {
        let word = nodeWords[index]
        guard word >> JSONDocument.tagShift == 4 else { return string(at: index) }
        let ordinal = Int(word & 0xFFFF_FFFF)
        var text = ""
        keys.forEachEntry { _, payload, entry in
            guard entry == ordinal else { return }
            let length = Int(payload & ((1 << JSONDocument.lengthBits) - 1))
            let offset = Int(payload >> JSONDocument.lengthBits)
            text = withArenaBytes { String(decoding: UnsafeBufferPointer(rebasing: $0[offset..<(offset + length)]), as: UTF8.self) }
        }
        return text
    }
}

extension JSONDocument {
    /// The first object at or inside the value at `index` that repeated a key, if any.
    public func repeatedKey(within index: Int) -> RepeatedKey? {
        let end = end(of: index)
        var low = 0
        var high = repeatedKeys.count
        while low < high {
            let middle = (low + high) / 2
            if repeatedKeys[middle].object < index { low = middle + 1 } else { high = middle }
        }
        return low < repeatedKeys.count && repeatedKeys[low].object < end ? repeatedKeys[low] : nil
    }
}
