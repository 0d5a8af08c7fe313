#if canImport(Glibc)
import Glibc
#endif

/// Taking in the part of a text that another thread parsed (see `JSONSplit`).
extension JSONDocumentBuilder {
    /// Parts with fewer node words merge on one thread: a second one costs more than it saves.
    static let mergeOnTwoThreadsFrom = 1 << 20

    /// Appends the nodes of a detached builder (which parsed the rest of the same text on
    /// another thread) as if this builder had parsed them: its arena goes after this one,
    /// each of its distinct interned strings is looked up once in this builder's tables (so
    /// equal strings still share one node value), and its nodes are copied with offsets and
    /// container ends moved. Returns the index its first node gets. The part ends the text,
    /// and this builder takes no further text after it.
    ///
    /// `boundaries`: indices in the part where a node starts (noted as it was parsed). A large
    /// part is copied by two threads, split at the boundary nearest its middle; the arena
    /// and the value lookups are halved too. The main thread waits here either way, and the
    /// other core is free: its parse ended before this one's.
    mutating func appendDetached(_ part: JSONDocumentBuilder, boundaries: [Int] = [], twoThreadsFrom: Int = mergeOnTwoThreadsFrom) -> Int {
        precondition(part.detached && !detached, "only a detached part merges into a main builder")
        precondition(part.pending.isEmpty, "a part is merged once its parse is done")
        resolvePending()
        let base = nodeWords.count
        let arenaStart = arenaBytes.count
        let shift = UInt64(arenaStart) << JSONDocument.lengthBits
        let partNodes = part.nodeWords.buffer
        let partArena = part.arenaBytes.buffer
        let threads = partNodes.count >= twoThreadsFrom ? 2 : 1

        // The arena, and the part's distinct values in this builder's table. The part's new
        // values are not added to it: the parse of one text no longer needs it (the part
        // ends the text).
        nonisolated(unsafe) let arenaTarget = arenaBytes.claim(partArena.count)
        nonisolated(unsafe) let mainArena = UnsafeBufferPointer(start: arenaBytes.base, count: arenaStart)
        nonisolated(unsafe) let valuePayloads = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: part.values.count)
        defer { valuePayloads.deallocate() }
        let values = self.values
        onThreads(threads) { half in
            let bytes = Self.share(half, of: partArena.count, threads)
            Self.populate(arenaTarget + bytes.lowerBound, bytes: bytes.count)
            (arenaTarget + bytes.lowerBound).update(from: partArena.baseAddress! + bytes.lowerBound, count: bytes.count)
            // The main table is larger than the caches: each lookup's slot is asked for a
            // batch ahead of it.
            var batch: [(hash: UInt64, payload: UInt64, ordinal: Int)] = []
            batch.reserveCapacity(Self.lookupBatch)
            func lookUp() {
                for entry in batch {
                    let text = InternTable.slice(entry.payload, of: partArena)
                    valuePayloads[entry.ordinal] = values.existingPayload(hash: entry.hash, bytes: text, arena: mainArena) ?? entry.payload + shift
                }
                batch.removeAll(keepingCapacity: true)
            }
            part.values.forEachEntry(inSlots: Self.share(half, of: part.values.slotCount, threads)) { hash, payload, ordinal in
                values.prefetch(hash: hash)
                batch.append((hash, payload, ordinal))
                if batch.count == Self.lookupBatch { lookUp() }
            }
            lookUp()
        }
        // Keys are few, and their table stays with the document: added here, on one thread.
        let arena = arenaBytes.buffer
        var keyPayloads = [UInt64](repeating: 0, count: part.keys.count)
        part.keys.forEachEntry { hash, payload, ordinal in
            keyPayloads[ordinal] = keys.adopt(hash: hash, payload: payload + shift, arena: arena)
        }
        repeatedKeys += part.repeatedKeys.map { RepeatedKey(object: $0.object + base, key: $0.key) }

        nonisolated(unsafe) let nodeTarget = nodeWords.claim(partNodes.count)
        let middle = threads == 2 ? boundaries.filter { $0 > 0 && $0 < partNodes.count }.min { abs($0 - partNodes.count / 2) < abs($1 - partNodes.count / 2) } : nil
        let ranges = middle.map { [0..<$0, $0..<partNodes.count] } ?? [0..<partNodes.count]
        keyPayloads.withUnsafeBufferPointer { keyPayloads in
            nonisolated(unsafe) let keyPayloads = keyPayloads
            onThreads(ranges.count) { half in
                Self.populate(nodeTarget + ranges[half].lowerBound, bytes: ranges[half].count * 8)
                Self.move(partNodes, ranges[half], to: nodeTarget, shift: shift, base: UInt64(base),
                          keys: keyPayloads, values: UnsafeBufferPointer(valuePayloads))
            }
        }
        return base
    }

    /// Writes each of the part's words in `range` as one word at the same index from `target`.
    private static func move(_ source: UnsafeBufferPointer<UInt64>, _ range: Range<Int>, to target: UnsafeMutablePointer<UInt64>,
                             shift: UInt64, base: UInt64, keys: UnsafeBufferPointer<UInt64>, values: UnsafeBufferPointer<UInt64>) {
        var index = range.lowerBound
        while index < range.upperBound {
            let node = source[index]
            switch node >> JSONDocument.tagShift {
            case 3:
                target[index] = node + shift
            case 4:
                let ordinal = Int(node & 0xFFFF_FFFF)
                target[index] = stringTag | (node & keyFlag != 0 ? keys[ordinal] : values[ordinal])
            case 5:
                target[index] = node + shift
                index += 1
                target[index] = source[index]
            case 6, 7:
                target[index] = node
                index += 1
                target[index] = source[index] + base
            default:
                target[index] = node
            }
            index += 1
        }
    }

    static let lookupBatch = 16

    /// Faults in the fresh pages a thread is about to write in one call (MADV_POPULATE_WRITE,
    /// Linux 5.14), cheaper than a fault per page. Populating never changes what a page holds.
    private static func populate<Element>(_ start: UnsafeMutablePointer<Element>, bytes: Int) {
        #if os(Linux)
        let from = Int(bitPattern: start) & ~4095
        let to = (Int(bitPattern: start) + bytes + 4095) & ~4095
        guard to > from else { return }
        _ = madvise(UnsafeMutableRawPointer(bitPattern: from), to - from, 23 /* MADV_POPULATE_WRITE */)
        #endif
    }

    /// The `index`th of `parts` nearly equal runs of `0..<count`.
    private static func share(_ index: Int, of count: Int, _ parts: Int) -> Range<Int> {
        (count * index / parts)..<(count * (index + 1) / parts)
    }
}
