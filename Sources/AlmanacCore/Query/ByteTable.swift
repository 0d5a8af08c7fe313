#if canImport(Glibc)
import Glibc
#endif

/// Distinct byte strings (UTF-8 texts) with a number each, looked up by their bytes where they
/// lie — in a document's arena, in a `String` — so a look-up makes no array; only a new entry
/// is copied, into one flat buffer. Entry 0 is the empty text.
struct ByteTable: Sendable {
    private var storage: [UInt8] = []
    /// Where each entry ends in `storage` (it starts where the one before ends).
    private var ends: [Int] = [0]
    private var values: [Int32]
    /// Each hash's first entry.
    private var firsts = WordTable()
    /// Per entry: the next entry with the same hash, or -1 (64-bit hashes nearly never meet).
    private var sameHash: [Int32] = [-1]

    /// `empty`: the value of the empty text.
    init(empty: Int32) {
        values = [empty]
        firsts.insert(Self.hash(UnsafeBufferPointer(start: nil, count: 0)), 0)
    }

    /// The bytes of entry `entry`.
    func withBytes<Result>(of entry: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let start = entry == 0 ? 0 : ends[entry - 1]
        return storage.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<ends[entry]])) }
    }

    /// The value and entry of `bytes`, after storing them as a new entry with value `new` when
    /// they have none.
    mutating func value(of bytes: UnsafeBufferPointer<UInt8>, or new: Int32) -> (value: Int32, entry: Int) {
        let next = ends.count
        var entry = Int(firsts.value(of: Self.hash(bytes)) { Int32(next) })
        if entry != next {
            while true {
                if equal(entry, bytes) { return (values[entry], entry) }
                guard sameHash[entry] >= 0 else {
                    sameHash[entry] = Int32(next)
                    break
                }
                entry = Int(sameHash[entry])
            }
        }
        storage.append(contentsOf: bytes)
        ends.append(storage.count)
        values.append(new)
        sameHash.append(-1)
        return (new, next)
    }

    private func equal(_ entry: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = entry == 0 ? 0 : ends[entry - 1]
        guard ends[entry] - start == bytes.count else { return false }
        guard let base = bytes.baseAddress, bytes.count > 0 else { return true }
        return storage.withUnsafeBufferPointer { memcmp($0.baseAddress! + start, base, bytes.count) == 0 }
    }

    /// A 64-bit hash of `bytes`, eight at a time.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count)
        var offset = 0
        var tail: UInt64 = 0
        // An empty buffer hashes the same with or without an address.
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while offset + 8 <= bytes.count {
                hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
                hash ^= hash >> 29
                offset += 8
            }
            while offset < bytes.count {
                tail = tail << 8 | UInt64(base[offset])
                offset += 1
            }
        }
        hash = (hash ^ tail) &* 0x9E37_79B9_7F4A_7C15
        return hash ^ hash >> 32
    }
}
