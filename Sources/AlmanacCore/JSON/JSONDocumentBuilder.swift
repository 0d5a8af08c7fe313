/// Accumulates parsed values into the compact form of `JSONDocument`. One builder can take
/// several texts (the pages of an API, the lines of NDJSON) before `finish()`.
///
/// Keys and short string values are interned, in two tables: keys are few and stay with the
/// document for lookups by key; values can be millions, and their table is dropped when the
/// document is finished. Number literals are not interned: they are mostly unique.
public struct JSONDocumentBuilder: JSONNodes {
    /// Written through pointers (see `BuilderStorage`); a copy of the builder is for reading.
    var nodeWords: BuilderStorage<UInt64>
    var arenaBytes: BuilderStorage<UInt8>
    /// Copies of what is written so far (for tests and readers of the protocol).
    public var nodes: [UInt64] { nodeWords.elements }
    public var arena: [UInt8] { arenaBytes.elements }
    var roots: [Int] = []
    /// The roots are NDJSON's lines (see `JSONDocument.isLines`).
    var isLines = false
    /// The 1-based line of each NDJSON root that is not an object, by node: such a line is
    /// skipped with a warning, which names it (records are not always one a line).
    var lineOfRoot: [Int: Int] = [:]
    /// Objects that named a key twice (see `keepLastOfRepeatedKeys`), in the order they closed.
    var repeatedKeys: [RepeatedKey] = []
    var elementMarks: [JSONDocument.ElementMark] = []
    /// The ordinal of the last key appended in its table; -1 for a long key (not interned).
    private(set) var lastKeyOrdinal = -1
    var keys = InternTable(capacity: 256)
    var values: InternTable
    /// Next keys guessed by the key before (slot 0: an object's first key), and values by
    /// their key (see `InternGuesses`).
    private var keyGuesses: InternGuesses
    private var valueGuesses: InternGuesses
    /// Values waiting for their probe of the value table (see `appendStringLookingUp`).
    private(set) var pending: [PendingValue] = []
    struct PendingValue {
        /// The node to write, the text (a slice of the input, still there), its hash, its guess slot.
        var node: Int
        var bytes: UnsafeBufferPointer<UInt8>
        var hash: UInt64
        var slot: Int
    }
    private static let maximumPending = 4
    /// How many values may wait for their probe (see `appendStringLookingUp`); CSV lets more
    /// wait (`waitingProbes`), its probes having little other work to hide behind.
    var pendingLimit = JSONDocumentBuilder.maximumPending
    /// The key guesses' slot for the next key: the last key's ordinal + 1; in a new object,
    /// the slot after half of them for the key before the object (an object's first key
    /// depends on what holds it: a station's, or its point's).
    private var keySlot = 0

    /// Strings up to this many bytes are stored once however often they occur.
    static let internLimit = 64

    /// Whether interned strings are written as ordinals (see `appendDetached`).
    let detached: Bool

    /// `detached`: for a part of a text parsed on another thread, to be merged into the main
    /// builder with `appendDetached`; its own nodes are not a document.
    public init(expectedBytes: Int = 0, detached: Bool = false) {
        self.init(expectedBytes: expectedBytes, detached: detached, guessing: true)
    }

    /// `guessing: false` only for tests, which compare with a builder that always looks up.
    /// `valueBytes`: the bytes whose values the value table is sized for (`expectedBytes` if nil).
    init(expectedBytes: Int, detached: Bool, guessing: Bool, valueBytes: Int? = nil) {
        // Reserved but untouched capacity costs address space, not memory.
        // A part keeps a page of room in front of its nodes, to line them up with a page
        // offset of the main builder's when merged (see `appendDetached`).
        nodeWords = BuilderStorage(capacity: max(64, expectedBytes / 10), front: detached ? Pages.size / 8 : 0)
        arenaBytes = BuilderStorage(capacity: max(256, expectedBytes / 3))
        // About one distinct short string per kilobyte in the bundled files; more grows the table.
        values = InternTable(capacity: max(1024, (valueBytes ?? expectedBytes) / 1024))
        self.detached = detached
        keyGuesses = InternGuesses(remembers: guessing)
        valueGuesses = InternGuesses(remembers: guessing)
        pending.reserveCapacity(Self.maximumPending * 4)
    }

    /// The document, in the storage written (not a copy of it). The builder may go on
    /// taking text: its next node or byte goes to new storage.
    public mutating func finish() -> JSONDocument {
        resolvePending()
        return JSONDocument(nodes: nodeWords.finished(), arena: arenaBytes.finished(), roots: roots, isLines: isLines, lineOfRoot: lineOfRoot, interned: keys,
                     repeatedKeys: repeatedKeys.sorted { $0.object < $1.object }, elementMarks: elementMarks)
    }

    public var nodeCount: Int { nodeWords.count }

    /// Populates the storage the next stretch of text will write (see `BuilderStorage.populate`),
    /// about a megabyte of text's worth, called at each progress report. Given the bytes of
    /// text parsed and left, no further than the rest of the text needs at the rate so far
    /// (an eighth more): the 1× stations file's last stretch used to populate 0.8 MB of
    /// nodes never written, a fifth of its load's page clearing.
    mutating func populateAhead(textDone: Int = 0, textLeft: Int = 0) {
        nodeWords.populate(ahead: Self.ahead(1 << 17, written: nodeWords.count, textDone: textDone, textLeft: textLeft))
        arenaBytes.populate(ahead: Self.ahead(1 << 19, written: arenaBytes.count, textDone: textDone, textLeft: textLeft))
    }

    /// `limit`, or less when `written` elements for `textDone` bytes predict fewer for the
    /// `textLeft` bytes still to parse (with an eighth more); `limit` without a rate.
    static func ahead(_ limit: Int, written: Int, textDone: Int, textLeft: Int) -> Int {
        guard textDone > 0, written > 0 else { return limit }
        let predicted = Double(written) / Double(textDone) * Double(textLeft) * 1.125
        return predicted < Double(limit) ? Int(predicted) : limit
    }

    public var arenaCount: Int { arenaBytes.count }

    @inline(__always)
    public func node(_ index: Int) -> UInt64 { nodeWords[index] }

    public func withArenaBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result { body(arenaBytes.buffer) }

    @inline(__always)
    mutating func appendScalar(_ kind: JSONDocument.Kind) {
        nodeWords.append(UInt64(kind.rawValue) << JSONDocument.tagShift)
    }

    /// Appends a key of an object. The first guess is checked here, inlined in the parser;
    /// the rest is out of line.
    @inline(__always)
    mutating func appendKey(_ bytes: UnsafeBufferPointer<UInt8>) {
        let slot = keySlot
        if bytes.count <= Self.internLimit,
           let entry = keyGuesses.first(at: slot, bytes, arena: arenaBytes.buffer) {
            appendKey(entry)
        } else {
            appendKeyLookingUp(bytes)
        }
    }

    @inline(never)
    private mutating func appendKeyLookingUp(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count <= Self.internLimit else {
            lastKeyOrdinal = -1
            keySlot = 0
            return appendString(raw: bytes)
        }
        let slot = keySlot
        if let entry = keyGuesses.second(at: slot, bytes, arena: arenaBytes.buffer) {
            return appendKey(entry)
        }
        resolvePending()
        let entry = keys.intern(bytes, arena: &arenaBytes)
        keyGuesses.remember(entry, at: slot)
        appendKey(entry)
    }

    /// Appends an interned key (CSV columns intern theirs once).
    @inline(__always)
    mutating func appendKey(_ entry: (payload: UInt64, ordinal: Int)) {
        lastKeyOrdinal = entry.ordinal
        keySlot = (entry.ordinal + 1) & (InternGuesses.slotCount / 2 - 1)
        nodeWords.append(detached ? Self.ordinalTag | Self.keyFlag | UInt64(entry.ordinal) : Self.stringTag | entry.payload)
    }

    /// Appends a string value, interning short ones. The value its key had last time is
    /// checked here; the rest is out of line. `stable`: the bytes stay where they are until
    /// the text is parsed (a slice of the input, not of a scratch buffer).
    @inline(__always)
    mutating func appendString(_ bytes: UnsafeBufferPointer<UInt8>, stable: Bool = false) {
        let slot = lastKeyOrdinal
        if bytes.count <= Self.internLimit,
           let entry = valueGuesses.first(at: slot, bytes, arena: arenaBytes.buffer) {
            appendValue(entry)
        } else {
            appendStringLookingUp(bytes, stable: stable)
        }
    }

    /// A value no guess knew: most are new (a station's title), and the table they go to has
    /// outgrown the caches, so a probe waits on memory. The probe of a stable text is made
    /// later: its slot is asked for now, its node written when the parser next appends to
    /// the arena (which keeps the arena, and so every node, as without waiting) or when a
    /// few wait; meanwhile the parser goes on.
    @inline(never)
    private mutating func appendStringLookingUp(_ bytes: UnsafeBufferPointer<UInt8>, stable: Bool) {
        guard bytes.count <= Self.internLimit else { return appendString(raw: bytes) }
        let slot = lastKeyOrdinal
        if let entry = valueGuesses.second(at: slot, bytes, arena: arenaBytes.buffer) {
            return appendValue(entry)
        }
        guard stable else {
            resolvePending()
            let entry = values.intern(bytes, arena: &arenaBytes)
            valueGuesses.remember(entry, at: slot)
            return appendValue(entry)
        }
        if pending.count >= pendingLimit { resolvePendingValues() }
        let hash = InternTable.hash(bytes)
        values.prefetch(hash: hash)
        pending.append(PendingValue(node: nodeWords.count, bytes: bytes, hash: hash, slot: slot))
        nodeWords.append(0)
    }

    /// Makes the probes of the values waiting, in order. Before anything else appends to the
    /// arena or reads value nodes.
    @inline(__always)
    mutating func resolvePending() {
        if !pending.isEmpty { resolvePendingValues() }
    }

    @inline(never)
    private mutating func resolvePendingValues() {
        for value in pending {
            let entry = values.intern(value.bytes, hash: value.hash, arena: &arenaBytes)
            valueGuesses.remember(entry, at: value.slot)
            nodeWords[value.node] = detached ? Self.ordinalTag | UInt64(entry.ordinal) : Self.stringTag | entry.payload
        }
        pending.removeAll(keepingCapacity: true)
    }

    @inline(__always)
    private mutating func appendValue(_ entry: (payload: UInt64, ordinal: Int)) {
        nodeWords.append(detached ? Self.ordinalTag | UInt64(entry.ordinal) : Self.stringTag | entry.payload)
    }

    private mutating func appendString(raw bytes: UnsafeBufferPointer<UInt8>) {
        nodeWords.append(Self.stringTag | appendRaw(bytes))
    }

    static let stringTag = UInt64(JSONDocument.Kind.string.rawValue) << JSONDocument.tagShift
    /// A detached builder's interned string: a tag no document uses, then the key flag and
    /// the ordinal in the key or value table.
    static let ordinalTag: UInt64 = 4 << JSONDocument.tagShift
    static let keyFlag: UInt64 = 1 << 40

    /// Appends a number without first making the probes of the values waiting (which
    /// `appendNumber` makes, to keep the arena as without waiting): a CSV row's numbers come
    /// between its new strings, and a probe made at each would have no time to arrive.
    mutating func appendNumberLeavingProbes(_ literal: UnsafeBufferPointer<UInt8>, value: Double) {
        let payload = UInt64(arenaBytes.count) << JSONDocument.lengthBits | UInt64(literal.count)
        arenaBytes.append(literal)
        nodeWords.append(UInt64(JSONDocument.Kind.number.rawValue) << JSONDocument.tagShift | payload, value.bitPattern)
    }

    mutating func appendNumber(_ literal: UnsafeBufferPointer<UInt8>, value: Double) {
        let payload = appendRaw(literal)
        nodeWords.append(UInt64(JSONDocument.Kind.number.rawValue) << JSONDocument.tagShift | payload, value.bitPattern)
    }

    /// Copies `bytes` to the end of the arena; returns the node payload for them.
    @inline(__always)
    private mutating func appendRaw(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        resolvePending()
        let payload = UInt64(arenaBytes.count) << JSONDocument.lengthBits | UInt64(bytes.count)
        arenaBytes.append(bytes)
        return payload
    }

    /// Starts an array or object; returns the index to pass to `closeContainer`.
    @inline(__always)
    mutating func openContainer(_ kind: JSONDocument.Kind) -> Int {
        if kind == .object { keySlot = InternGuesses.slotCount / 2 | (lastKeyOrdinal + 1) & (InternGuesses.slotCount / 2 - 1) }
        let index = nodeWords.count
        nodeWords.append(UInt64(kind.rawValue) << JSONDocument.tagShift, 0)
        return index
    }

    @inline(__always)
    mutating func closeContainer(at index: Int, count: Int) {
        closeContainer(at: index, count: count, end: nodeWords.count)
    }

    /// Closes a container whose last nodes came from a detached part, which ends at `end`.
    @inline(__always)
    mutating func closeContainer(at index: Int, count: Int, end: Int) {
        nodeWords[index] |= UInt64(count)
        nodeWords[index + 1] = UInt64(end)
    }

    mutating func addRoot(_ index: Int) { roots.append(index) }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
