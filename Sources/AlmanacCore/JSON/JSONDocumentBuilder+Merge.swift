/// Taking in the part of a text that another thread parsed (see `JSONSplit`).
extension JSONDocumentBuilder {
    /// Parts with fewer node words merge on one thread: a second one costs more than it saves.
    static let mergeOnTwoThreadsFrom = 1 << 20

    /// Parts with fewer bytes of nodes (or of arena) than this copy them; larger ones move
    /// their pages (see `Pages.move`).
    static let movePagesFrom = 64 << 10

    /// Appends the nodes of a detached builder (which parsed the rest of the same text on
    /// another thread) as if this builder had parsed them: its arena goes after this one,
    /// each of its distinct interned strings is looked up once in this builder's tables (so
    /// equal strings still share one node value), and its nodes get offsets and container
    /// ends moved. Returns the index its first node gets. The part ends the text, and this
    /// builder takes no further text after it; the part's storage is spent.
    ///
    /// A large part's arena and nodes move here page by page rather than being copied: the
    /// kernel would otherwise clear as many fresh pages as it copies. Its nodes are rewritten
    /// where they are, a few words down (into the page of room in front of them) to line up
    /// with their place here within a page; its arena lands a few bytes past this one's end
    /// (bytes never read) for the same reason.
    ///
    /// `boundaries`: indices in the part where a node starts (noted as it was parsed). A large
    /// part is rewritten by two threads, split at the boundary nearest its middle; the value
    /// lookups are halved too. The main thread waits here either way, and the other core is
    /// free: its parse ended before this one's.
    mutating func appendDetached(_ part: JSONDocumentBuilder, boundaries: [Int] = [], twoThreadsFrom: Int = mergeOnTwoThreadsFrom,
                                 movePagesFrom: Int = movePagesFrom) -> Int {
        precondition(part.detached && !detached, "only a detached part merges into a main builder")
        precondition(part.pending.isEmpty, "a part is merged once its parse is done")
        resolvePending()
        let base = nodeWords.count
        let arenaStart = arenaBytes.count
        let partNodes = part.nodeWords.buffer
        let partArena = part.arenaBytes.buffer
        let threads = partNodes.count >= twoThreadsFrom ? 2 : 1

        arenaBytes.reserve(arenaStart + Pages.size + partArena.count)
        let moveArena = partArena.count >= movePagesFrom
        let gap = moveArena ? Pages.gap(to: arenaBytes.base + arenaStart, from: partArena.baseAddress!) : 0
        let shift = UInt64(arenaStart + gap) << JSONDocument.lengthBits

        // The part's distinct values in this builder's table, read from the part's arena
        // before it moves. The part's new values are not added to the table: the parse of
        // one text no longer needs it (the part ends the text).
        nonisolated(unsafe) let mainArena = UnsafeBufferPointer(start: arenaBytes.base, count: arenaStart)
        nonisolated(unsafe) let valuePayloads = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: part.values.count)
        defer { valuePayloads.deallocate() }
        let values = self.values
        onThreads(threads) { half in
            // The main table is larger than the caches: each lookup's slot is asked for a
            // batch ahead of it. (A buffer, not an Array a nested function appends to: that
            // one's every access was checked for exclusivity.)
            let batch = UnsafeMutableBufferPointer<(hash: UInt64, payload: UInt64, ordinal: Int)>.allocate(capacity: Self.lookupBatch)
            defer { batch.deallocate() }
            var waiting = 0
            let lookUp = { (count: Int) in
                for entry in batch[..<count] {
                    let text = InternTable.slice(entry.payload, of: partArena)
                    valuePayloads[entry.ordinal] = values.existingPayload(hash: entry.hash, bytes: text, arena: mainArena) ?? entry.payload + shift
                }
            }
            part.values.forEachEntry(inSlots: Self.share(half, of: part.values.slotCount, threads)) { hash, payload, ordinal in
                values.prefetch(hash: hash)
                batch[waiting] = (hash, payload, ordinal)
                waiting += 1
                if waiting == Self.lookupBatch {
                    lookUp(waiting)
                    waiting = 0
                }
            }
            lookUp(waiting)
        }
        let arenaTarget = arenaBytes.claim(gap + partArena.count) + gap
        (arenaTarget - gap).initialize(repeating: 0, count: gap)
        if !(moveArena && Pages.move(UnsafeMutableRawPointer(mutating: partArena.baseAddress!), count: partArena.count, to: arenaTarget)) {
            Self.copy(partArena, to: arenaTarget, threads: threads)
        }

        // Keys are few, and their table stays with the document: added here, on one thread.
        let arena = arenaBytes.buffer
        var keyPayloads = [UInt64](repeating: 0, count: part.keys.count)
        part.keys.forEachEntry { hash, payload, ordinal in
            keyPayloads[ordinal] = keys.adopt(hash: hash, payload: payload + shift, arena: arena)
        }
        repeatedKeys += part.repeatedKeys.map { RepeatedKey(object: $0.object + base, key: $0.key) }

        let nodeTarget = nodeWords.claim(partNodes.count)
        let middle = threads == 2 ? boundaries.filter { $0 > 0 && $0 < partNodes.count }.min { abs($0 - partNodes.count / 2) < abs($1 - partNodes.count / 2) } : nil
        let ranges = middle.map { [0..<$0, $0..<partNodes.count] } ?? [0..<partNodes.count]
        let moveNodes = partNodes.count * 8 >= movePagesFrom && part.nodeWords.front * 8 >= Pages.size
        keyPayloads.withUnsafeBufferPointer { keyPayloads in
            let rewrite = Rewrite(shift: shift, base: UInt64(base), keys: keyPayloads, values: UnsafeBufferPointer(valuePayloads))
            guard moveNodes else { return rewrite.copy(partNodes, ranges, to: nodeTarget) }
            let down = Pages.gap(to: nodeTarget, from: partNodes.baseAddress!) / 8
            let rewritten = rewrite.inPlace(partNodes, ranges, down: down)
            if !Pages.move(UnsafeMutableRawPointer(rewritten), count: partNodes.count * 8, to: nodeTarget) {
                Self.copy(UnsafeBufferPointer(start: rewritten, count: partNodes.count), to: nodeTarget, threads: threads)
            }
        }
        return base
    }

    /// How a part's node words change as they join this builder's.
    private struct Rewrite: @unchecked Sendable {
        // @unchecked: the tables are read only.
        let shift: UInt64
        let base: UInt64
        let keys: UnsafeBufferPointer<UInt64>
        let values: UnsafeBufferPointer<UInt64>

        /// Writes the rewritten words of `ranges` at the same indices from `target` (a thread a range).
        func copy(_ source: UnsafeBufferPointer<UInt64>, _ ranges: [Range<Int>], to target: UnsafeMutablePointer<UInt64>) {
            nonisolated(unsafe) let target = target
            onThreads(ranges.count) { run in
                Pages.populate(target + ranges[run].lowerBound, bytes: ranges[run].count * 8)
                JSONDocumentBuilder.move(source, ranges[run], to: target, rewrite: self)
            }
        }

        /// Rewrites the words of `source` where they are, each `down` words lower (into the
        /// storage's room in front), a thread a range; returns where they start.
        func inPlace(_ source: UnsafeBufferPointer<UInt64>, _ ranges: [Range<Int>], down: Int) -> UnsafeMutablePointer<UInt64> {
            nonisolated(unsafe) let words = UnsafeMutablePointer(mutating: source.baseAddress!) - down
            // The second range's first words land on the last ones the first range reads: they
            // wait in a buffer until both are done. Its first node at least `down` on is where
            // writing in place is safe.
            var held = 0..<0
            if ranges.count == 2, down > 0 {
                var end = ranges[1].lowerBound
                while end < min(ranges[1].lowerBound + down, ranges[1].upperBound) { end += JSONDocumentBuilder.words(source[end]) }
                held = ranges[1].lowerBound..<end
            }
            nonisolated(unsafe) let buffer = UnsafeMutablePointer<UInt64>.allocate(capacity: max(1, held.count))
            defer { buffer.deallocate() }
            onThreads(ranges.count) { run in
                var range = ranges[run]
                if run == 1, !held.isEmpty {
                    // Index `held.lowerBound` is written to the buffer's first word.
                    JSONDocumentBuilder.move(source, held, to: buffer - held.lowerBound, rewrite: self)
                    range = held.upperBound..<range.upperBound
                }
                JSONDocumentBuilder.move(source, range, to: words, rewrite: self)
            }
            (words + held.lowerBound).update(from: buffer, count: held.count)
            return words
        }
    }

    /// The words of the node whose first word is `word`.
    private static func words(_ word: UInt64) -> Int {
        switch word >> JSONDocument.tagShift {
        case 5, 6, 7: 2
        default: 1
        }
    }

    /// Writes each of the part's words in `range`, rewritten, at the same index from `target`.
    /// `target` may be the source a few words down: each word is read before one is written there.
    private static func move(_ source: UnsafeBufferPointer<UInt64>, _ range: Range<Int>, to target: UnsafeMutablePointer<UInt64>, rewrite: Rewrite) {
        let (shift, base, keys, values) = (rewrite.shift, rewrite.base, rewrite.keys, rewrite.values)
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

    /// Copies `source` to `target` (fresh storage), in halves on two threads when `threads` is 2.
    private static func copy<Element>(_ source: UnsafeBufferPointer<Element>, to target: UnsafeMutablePointer<Element>, threads: Int) {
        nonisolated(unsafe) let target = target
        onThreads(threads) { half in
            let range = share(half, of: source.count, threads)
            Pages.populate(target + range.lowerBound, bytes: range.count * MemoryLayout<Element>.stride)
            (target + range.lowerBound).update(from: source.baseAddress! + range.lowerBound, count: range.count)
        }
    }

    /// The `index`th of `parts` nearly equal runs of `0..<count`.
    private static func share(_ index: Int, of count: Int, _ parts: Int) -> Range<Int> {
        (count * index / parts)..<(count * (index + 1) / parts)
    }
}
