/// Accumulates parsed values into the compact form of `JSONDocument`. One builder can take
/// several texts (the pages of an API, the lines of NDJSON) before `finish()`.
public struct JSONDocumentBuilder: JSONNodes {
    public private(set) var nodes: [UInt64] = []
    public private(set) var arena: [UInt8] = []
    var roots: [Int] = []
    private var interned = InternTable()

    /// Strings up to this many bytes are stored once however often they occur.
    static let internLimit = 64

    public init(expectedBytes: Int = 0) {
        // Reserved but untouched capacity costs address space, not memory.
        nodes.reserveCapacity(max(64, expectedBytes / 10))
        arena.reserveCapacity(max(256, expectedBytes / 3))
    }

    public func finish() -> JSONDocument {
        JSONDocument(nodes: nodes, arena: arena, roots: roots, interned: interned)
    }

    public var nodeCount: Int { nodes.count }

    /// Drops every node from `index` on (a value that turned out to be unwanted). The arena keeps
    /// its text, which interned strings may share.
    mutating func truncate(to index: Int) {
        nodes.removeSubrange(index...)
    }

    @inline(__always)
    mutating func appendScalar(_ kind: JSONDocument.Kind) {
        nodes.append(UInt64(kind.rawValue) << JSONDocument.tagShift)
    }

    /// Appends a string or number node whose text is `bytes`, interning short texts.
    @inline(__always)
    mutating func appendText(_ kind: JSONDocument.Kind, _ bytes: UnsafeBufferPointer<UInt8>) {
        let payload: UInt64
        if bytes.count <= Self.internLimit {
            payload = interned.payload(for: bytes, arena: &arena)
        } else {
            payload = UInt64(arena.count) << JSONDocument.lengthBits | UInt64(bytes.count)
            arena.append(contentsOf: bytes)
        }
        nodes.append(UInt64(kind.rawValue) << JSONDocument.tagShift | payload)
    }

    mutating func appendNumber(_ literal: UnsafeBufferPointer<UInt8>, value: Double) {
        appendText(.number, literal)
        nodes.append(value.bitPattern)
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

/// Open-addressing table from short byte strings to their one copy in the arena.
struct InternTable {
    /// Each slot: 0 when empty, else the node payload (offset and length) with the top bit set.
    private var slots = [UInt64](repeating: 0, count: 1 << 12)
    private var used = 0

    /// The payload of `bytes` when it was interned, without adding it.
    func existingPayload(for bytes: UnsafeBufferPointer<UInt8>, arena: [UInt8]) -> UInt64? {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: Self.hash(bytes)) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { return nil }
            let payload = entry & ~(1 << 63)
            if Self.matches(payload, bytes, arena) { return payload }
            slot = (slot + 1) & mask
        }
    }

    mutating func payload(for bytes: UnsafeBufferPointer<UInt8>, arena: inout [UInt8]) -> UInt64 {
        if used * 2 >= slots.count { grow(arena: arena) }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: Self.hash(bytes)) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 {
                let payload = UInt64(arena.count) << JSONDocument.lengthBits | UInt64(bytes.count)
                arena.append(contentsOf: bytes)
                slots[slot] = payload | (1 << 63)
                used += 1
                return payload
            }
            let payload = entry & ~(1 << 63)
            if Self.matches(payload, bytes, arena) { return payload }
            slot = (slot + 1) & mask
        }
    }

    @inline(__always)
    private static func matches(_ payload: UInt64, _ bytes: UnsafeBufferPointer<UInt8>, _ arena: [UInt8]) -> Bool {
        let length = Int(payload & ((1 << JSONDocument.lengthBits) - 1))
        guard length == bytes.count else { return false }
        let offset = Int(payload >> JSONDocument.lengthBits)
        if length == 0 { return true }
        return arena.withUnsafeBufferPointer { memcmp($0.baseAddress! + offset, bytes.baseAddress!, length) == 0 }
    }

    private mutating func grow(arena: [UInt8]) {
        let old = slots
        slots = [UInt64](repeating: 0, count: old.count * 2)
        let mask = slots.count - 1
        arena.withUnsafeBufferPointer { arena in
            for entry in old where entry != 0 {
                let payload = entry & ~(1 << 63)
                let length = Int(payload & ((1 << JSONDocument.lengthBits) - 1))
                let offset = Int(payload >> JSONDocument.lengthBits)
                var slot = Int(truncatingIfNeeded: Self.hash(UnsafeBufferPointer(rebasing: arena[offset..<(offset + length)]))) & mask
                while slots[slot] != 0 { slot = (slot + 1) & mask }
                slots[slot] = entry
            }
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
