/// Accumulates parsed values into the compact form of `JSONDocument`. One builder can take
/// several texts (the pages of an API, the lines of NDJSON) before `finish()`.
///
/// Keys and short string values are interned, in two tables: keys are few and stay with the
/// document for lookups by key; values can be millions, and their table is dropped when the
/// document is finished. Number literals are not interned: they are mostly unique.
public struct JSONDocumentBuilder: JSONNodes {
    public private(set) var nodes: [UInt64] = []
    public private(set) var arena: [UInt8] = []
    var roots: [Int] = []
    private var keys = InternTable(capacity: 256)
    private var values: InternTable

    /// Strings up to this many bytes are stored once however often they occur.
    static let internLimit = 64

    public init(expectedBytes: Int = 0) {
        // Reserved but untouched capacity costs address space, not memory.
        nodes.reserveCapacity(max(64, expectedBytes / 10))
        arena.reserveCapacity(max(256, expectedBytes / 3))
        values = InternTable(capacity: max(1024, expectedBytes / 256))
    }

    public func finish() -> JSONDocument {
        JSONDocument(nodes: nodes, arena: arena, roots: roots, interned: keys)
    }

    public var nodeCount: Int { nodes.count }

    public func node(_ index: Int) -> UInt64 { nodes[index] }

    @inline(__always)
    mutating func appendScalar(_ kind: JSONDocument.Kind) {
        nodes.append(UInt64(kind.rawValue) << JSONDocument.tagShift)
    }

    /// Appends a key of an object.
    @inline(__always)
    mutating func appendKey(_ bytes: UnsafeBufferPointer<UInt8>) {
        let payload = bytes.count <= Self.internLimit ? keys.payload(for: bytes, arena: &arena) : appendRaw(bytes)
        nodes.append(UInt64(JSONDocument.Kind.string.rawValue) << JSONDocument.tagShift | payload)
    }

    /// Appends a string value, interning short ones.
    @inline(__always)
    mutating func appendString(_ bytes: UnsafeBufferPointer<UInt8>) {
        let payload = bytes.count <= Self.internLimit ? values.payload(for: bytes, arena: &arena) : appendRaw(bytes)
        nodes.append(UInt64(JSONDocument.Kind.string.rawValue) << JSONDocument.tagShift | payload)
    }

    mutating func appendNumber(_ literal: UnsafeBufferPointer<UInt8>, value: Double) {
        let payload = appendRaw(literal)
        nodes.append(UInt64(JSONDocument.Kind.number.rawValue) << JSONDocument.tagShift | payload)
        nodes.append(value.bitPattern)
    }

    /// Copies `bytes` to the end of the arena; returns the node payload for them.
    @inline(__always)
    private mutating func appendRaw(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let payload = UInt64(arena.count) << JSONDocument.lengthBits | UInt64(bytes.count)
        arena.append(contentsOf: bytes)
        return payload
    }

    /// Starts an array or object; returns the index to pass to `closeContainer`.
    @inline(__always)
    mutating func openContainer(_ kind: JSONDocument.Kind) -> Int {
        let index = nodes.count
        nodes.append(UInt64(kind.rawValue) << JSONDocument.tagShift)
        nodes.append(0)
        return index
    }

    @inline(__always)
    mutating func closeContainer(at index: Int, count: Int) {
        nodes[index] |= UInt64(count)
        nodes[index + 1] = UInt64(nodes.count)
    }

    mutating func addRoot(_ index: Int) { roots.append(index) }
}

/// Open-addressing table from short byte strings to their one copy in the arena. Each slot
/// keeps the full hash beside the payload, so probing rarely touches the arena, and growing
/// never rehashes bytes; a small direct-mapped cache in front answers the most frequent
/// strings without touching the big table at all.
struct InternTable {
    /// Two words per slot: the hash, and the payload (offset and length) with the top bit set.
    private var slots: [UInt64]
    private var mask: Int
    private var used = 0
    /// Recently seen strings: hash and payload, indexed by the hash's low bits.
    private var recent = [UInt64](repeating: 0, count: 2 * 512)

    init(capacity: Int) {
        var count = 16
        while count < capacity * 2 { count <<= 1 }
        slots = [UInt64](repeating: 0, count: count * 2)
        mask = count - 1
    }

    private static let occupied: UInt64 = 1 << 63

    /// The payload of `bytes` when it was interned, without adding it.
    func existingPayload(for bytes: UnsafeBufferPointer<UInt8>, arena: [UInt8]) -> UInt64? {
        let hash = Self.hash(bytes)
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = slots[2 * slot + 1]
            if entry == 0 { return nil }
            let payload = entry & ~Self.occupied
            if slots[2 * slot] == hash, Self.matches(payload, bytes, arena) { return payload }
            slot = (slot + 1) & mask
        }
    }

    @inline(__always)
    mutating func payload(for bytes: UnsafeBufferPointer<UInt8>, arena: inout [UInt8]) -> UInt64 {
        let hash = Self.hash(bytes)
        let cached = Int(truncatingIfNeeded: hash) & 511
        if recent[2 * cached] == hash, recent[2 * cached + 1] != 0 {
            let payload = recent[2 * cached + 1] & ~Self.occupied
            if Self.matches(payload, bytes, arena) { return payload }
        }
        if used * 2 >= mask + 1 { grow() }
        var slot = Int(truncatingIfNeeded: hash) & mask
        let payload: UInt64
        while true {
            let entry = slots[2 * slot + 1]
            if entry == 0 {
                payload = UInt64(arena.count) << JSONDocument.lengthBits | UInt64(bytes.count)
                arena.append(contentsOf: bytes)
                slots[2 * slot] = hash
                slots[2 * slot + 1] = payload | Self.occupied
                used += 1
                break
            }
            if slots[2 * slot] == hash, Self.matches(entry & ~Self.occupied, bytes, arena) {
                payload = entry & ~Self.occupied
                break
            }
            slot = (slot + 1) & mask
        }
        recent[2 * cached] = hash
        recent[2 * cached + 1] = payload | Self.occupied
        return payload
    }

    @inline(__always)
    private static func matches(_ payload: UInt64, _ bytes: UnsafeBufferPointer<UInt8>, _ arena: [UInt8]) -> Bool {
        let length = Int(payload & ((1 << JSONDocument.lengthBits) - 1))
        guard length == bytes.count else { return false }
        if length == 0 { return true }
        let offset = Int(payload >> JSONDocument.lengthBits)
        return arena.withUnsafeBufferPointer { memcmp($0.baseAddress! + offset, bytes.baseAddress!, length) == 0 }
    }

    private mutating func grow() {
        let old = slots
        let count = (mask + 1) * 2
        slots = [UInt64](repeating: 0, count: count * 2)
        mask = count - 1
        for index in stride(from: 0, to: old.count, by: 2) where old[index + 1] != 0 {
            var slot = Int(truncatingIfNeeded: old[index]) & mask
            while slots[2 * slot + 1] != 0 { slot = (slot + 1) & mask }
            slots[2 * slot] = old[index]
            slots[2 * slot + 1] = old[index + 1]
        }
    }

    /// A fast multiplicative hash over 8-byte words.
    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        guard let base = bytes.baseAddress else { return hash }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        while offset + 8 <= bytes.count {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash >> 32
            offset += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count {
            tail |= UInt64(base[offset]) << shift
            shift += 8
            offset += 1
        }
        hash = (hash ^ tail) &* 0xC4CE_B9FE_1A85_EC53
        return hash ^ (hash >> 29)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
