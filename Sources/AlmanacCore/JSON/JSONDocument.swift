/// Parsed JSON held compactly: one flat array of 64-bit nodes for the structure and one byte
/// arena for the text of strings and numbers.
///
/// Why not `[String: Any]` or Codable structs: a record costs a few dozen bytes instead of
/// dozens of allocations, loading is one pass over the bytes, and every value keeps the exact
/// text it came with, so a record can be written back as its source object. Short strings are
/// interned: equal strings share one arena slice, and so one node value, which makes grouping
/// and equality cheap.
///
/// Node layout (tag in the top 4 bits):
/// - null, false, true: the tag alone;
/// - string: arena offset (38 bits) and byte length (22 bits);
/// - number: like a string (the literal's text), followed by one node with the Double's bits;
/// - array, object: the element count (60 bits), followed by one node with the index just past
///   the container's last node. An object's children are key (a string node), value, key, value…
public final class JSONDocument: JSONNodes, @unchecked Sendable {
    // Immutable once built; @unchecked because the storage is plain arrays read from any thread.
    public let nodes: [UInt64]
    public let arena: [UInt8]
    /// Indices of the top-level values, in order (one for a file, several for NDJSON or pages).
    public let roots: [Int]
    /// Whether the text was NDJSON: each root is one line, one record as it is (a line that
    /// is an array or holds records under a key is still one record).
    public let isLines: Bool
    /// The 1-based line of an NDJSON root that is not an object, by node (for its warning).
    public let lineOfRoot: [Int: Int]

    private let interned: InternTable
    /// Objects that named a key twice and kept its last value, by node (see `RepeatedKey`).
    public let repeatedKeys: [RepeatedKey]
    /// Elements of arrays whose place is known without walking the array (see `ElementMark`).
    public let elementMarks: [ElementMark]
    /// The storage of `nodes`. The array is never changed after init and lives as long as the
    /// document, so its buffer stays put: hot loops read through this pointer and skip the
    /// reference counting that every array access would otherwise pay.
    private let nodeBase: UnsafePointer<UInt64>
    /// Nodes from this index on are a CSV's rows, made from its columns (`TableNodes`);
    /// `Int.max` for a tape (every JSON document): one compare, always taken the same way.
    let virtualBase: Int
    private let table: TableNodes?
    private let arenaBase: UnsafePointer<UInt8>

    init(nodes: [UInt64], arena: [UInt8], roots: [Int], isLines: Bool = false, lineOfRoot: [Int: Int] = [:], interned: InternTable,
         repeatedKeys: [RepeatedKey] = [], elementMarks: [ElementMark] = [], table: TableNodes? = nil) {
        self.table = table
        virtualBase = table == nil ? Int.max : nodes.count
        arenaBase = arena.withUnsafeBufferPointer { $0.baseAddress ?? UnsafePointer(bitPattern: 8)! }
        self.isLines = isLines
        self.lineOfRoot = lineOfRoot
        self.repeatedKeys = repeatedKeys
        self.elementMarks = elementMarks
        self.nodes = nodes
        self.arena = arena
        self.roots = roots
        self.interned = interned
        self.nodeBase = nodes.withUnsafeBufferPointer { $0.baseAddress ?? UnsafePointer(bitPattern: 8)! }
    }

    /// A document of other nodes over the same strings: `nodes` may hold only this document's
    /// string and number words (copied values), which the arena and intern table serve as they are.
    func sharingStrings(nodes: [UInt64], roots: [Int], repeatedKeys: [RepeatedKey]) -> JSONDocument {
        JSONDocument(nodes: nodes, arena: arena, roots: roots, interned: interned,
                     repeatedKeys: repeatedKeys.sorted { $0.object < $1.object })
    }

    @inline(__always)
    public func node(_ index: Int) -> UInt64 {
        if _fastPath(index < virtualBase) { return nodeBase[index] }
        return tableNode(index)
    }

    @inline(never)
    private func tableNode(_ index: Int) -> UInt64 {
        table.unsafelyUnwrapped.word(index - virtualBase, base: virtualBase, arena: arenaBase)
    }

    /// Indices below this are nodes (`nodes.count` for a tape; a CSV table's rows are
    /// made when read, beyond `nodes`).
    public var nodeCount: Int {
        guard let table else { return nodes.count }
        return virtualBase + table.rows << table.shift
    }

    /// Whether the records are a CSV's columns (`TableNodes`) rather than a tape.
    public var isTable: Bool { table != nil }

    /// An element of an array known by its place: where a parse on two threads joined (see
    /// `JSONSplit`), one mark per array around that point. Finding the element at the
    /// middle of a large array otherwise takes a walk over every element before it.
    public struct ElementMark: Sendable, Equatable {
        /// The array's node, the element's place in it (from 0), and the element's node.
        public var array: Int
        public var ordinal: Int
        public var node: Int
    }

    /// The node every occurrence of the string `text` has, when `text` is short enough to be
    /// interned: comparing node words then replaces comparing bytes. Nil when `text` is long
    /// or occurs nowhere in the document.
    public func internedNode(for text: String) -> UInt64? {
        var text = text
        guard text.utf8.count <= JSONDocumentBuilder.internLimit else { return nil }
        return text.withUTF8 { bytes in
            interned.existingPayload(for: bytes, arena: arena).map { UInt64(Kind.string.rawValue) << Self.tagShift | $0 }
        }
    }

    /// Whether `text` is short enough that its absence from the intern table means it never occurs.
    public static func isInternable(_ text: String) -> Bool { text.utf8.count <= JSONDocumentBuilder.internLimit }

    public enum Kind: UInt8, Sendable {
        case null = 0, `false` = 1, `true` = 2, string = 3, number = 5, array = 6, object = 7
    }

    static let tagShift: UInt64 = 60
    static let lengthBits: UInt64 = 22
    static let maximumStringLength = (1 << 22) - 1
    static let offsetMask: UInt64 = (1 << 38) - 1

    /// A key prepared for repeated lookups: short keys compare as one node word.
    public enum Key: Sendable, Equatable {
        case interned(UInt64)
        case long(String)
        /// The key occurs nowhere in the document.
        case absent
    }

    public func key(_ text: String) -> Key {
        if let node = internedNode(for: text) { return .interned(node) }
        return Self.isInternable(text) ? .absent : .long(text)
    }

    /// The value of a prepared key in the object at `index`, or nil.
    @inline(__always)
    public func member(_ key: Key, of index: Int) -> Int? {
        switch key {
        case let .interned(node):
            guard kind(at: index) == .object else { return nil }
            var child = index + 2
            for _ in 0..<count(at: index) {
                if self.node(child) == node { return child + 1 }
                child = end(of: child + 1)
            }
            return nil
        case let .long(text):
            return member(text, of: index)
        case .absent:
            return nil
        }
    }

    /// The arena bytes of a string (or number literal) node word: queries keep node words in
    /// their columns and caches, and ask here what they hold.
    @inline(__always)
    public static func textRange(ofWord word: UInt64) -> Range<Int> {
        let length = Int(word & ((1 << lengthBits) - 1))
        let offset = Int((word >> lengthBits) & offsetMask)
        return offset..<(offset + length)
    }

    /// The kind a node word holds.
    @inline(__always)
    public static func kind(ofWord word: UInt64) -> Kind { Kind(rawValue: UInt8(truncatingIfNeeded: word >> tagShift)) ?? .null }

    /// A convenient handle on one value.
    public func value(at index: Int) -> JSONValue { JSONValue(document: self, index: index) }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading the node layout, shared by the finished document and the builder (which inspects
/// API pages while it is still adding to them).
public protocol JSONNodes {
    var nodes: [UInt64] { get }
    var arena: [UInt8] { get }
    /// One node word (the document reads it without reference counting).
    func node(_ index: Int) -> UInt64
    /// The arena's bytes (a builder lends its storage without copying it).
    func withArenaBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result
}

extension JSONNodes {
    public func withArenaBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        arena.withUnsafeBufferPointer(body)
    }

    @inline(__always)
    public func kind(at index: Int) -> JSONDocument.Kind {
        JSONDocument.Kind(rawValue: UInt8(truncatingIfNeeded: node(index) >> JSONDocument.tagShift)) ?? .null
    }

    /// The index just past the value at `index` (its children included).
    @inline(__always)
    public func end(of index: Int) -> Int {
        switch kind(at: index) {
        case .array, .object: Int(node(index + 1))
        case .number: index + 2
        default: index + 1
        }
    }

    /// Element count of an array, member count of an object.
    @inline(__always)
    public func count(at index: Int) -> Int { Int(node(index) & ((1 << JSONDocument.tagShift) - 1)) }

    /// The arena slice of a string or a number literal.
    @inline(__always)
    public func textRange(at index: Int) -> Range<Int> {
        let node = node(index)
        let length = Int(node & ((1 << JSONDocument.lengthBits) - 1))
        let offset = Int((node >> JSONDocument.lengthBits) & JSONDocument.offsetMask)
        return offset..<(offset + length)
    }

    public func string(at index: Int) -> String {
        let range = textRange(at: index)
        return withArenaBytes { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    public func number(at index: Int) -> Double { Double(bitPattern: node(index + 1)) }

    /// Whether the string at `index` is exactly `bytes`.
    public func stringEquals(at index: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let range = textRange(at: index)
        guard range.count == bytes.count else { return false }
        return withArenaBytes { arena in
            memcmp(arena.baseAddress! + range.lowerBound, bytes.baseAddress!, range.count) == 0
        }
    }

    /// The value of `key` in the object at `index`, or nil.
    public func member(_ key: String, of index: Int) -> Int? {
        guard kind(at: index) == .object else { return nil }
        var key = key
        return key.withUTF8 { keyBytes in
            var child = index + 2
            for _ in 0..<count(at: index) {
                if stringEquals(at: child, keyBytes) { return child + 1 }
                child = end(of: child + 1)
            }
            return nil
        }
    }

    /// The key and value indices of the object at `index`, in source order.
    public func members(of index: Int) -> [(key: Int, value: Int)] {
        guard kind(at: index) == .object else { return [] }
        var result: [(key: Int, value: Int)] = []
        result.reserveCapacity(count(at: index))
        var child = index + 2
        for _ in 0..<count(at: index) {
            result.append((child, child + 1))
            child = end(of: child + 1)
        }
        return result
    }

    /// The element indices of the array at `index`.
    public func elements(of index: Int) -> [Int] {
        guard kind(at: index) == .array else { return [] }
        var result: [Int] = []
        result.reserveCapacity(count(at: index))
        var child = index + 2
        for _ in 0..<count(at: index) {
            result.append(child)
            child = end(of: child)
        }
        return result
    }

}
