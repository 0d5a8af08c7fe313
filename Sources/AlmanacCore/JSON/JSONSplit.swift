import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// One text parsed by two threads: while the main parser works from the start, another
/// thread parses from a boundary between two elements of an array near the middle, without
/// knowing what encloses that array. When the main parser reaches that element it takes the
/// other part's nodes (`JSONDocumentBuilder.appendDetached`) and closes its open containers
/// with the members the other part found; the document is the same as one parsed alone.
///
/// The boundary is found by its look, `}` `,` `{`, which could also sit inside a string:
/// only the main parser, arriving at an element start exactly there, can confirm it. Any
/// doubt (the other part failed, was late, or does not fit) and the main parser simply goes
/// on alone, so every error is found and reported exactly as without a split.
public final class JSONSplit: @unchecked Sendable {
    /// One container the other part ends, innermost first: its kind (from its closing
    /// bracket), the members it added, and where its nodes end in the part.
    struct Level: Equatable {
        var kind: JSONDocument.Kind
        var count: Int
        var end: Int
    }

    /// What the other thread made of the rest of the text.
    final class Suffix {
        var builder: JSONDocumentBuilder
        let levels: [Level]
        /// The deepest nesting in the part, relative to the array it starts in.
        let deepest: Int
        /// Node indices where a node starts, about one per megabyte of text.
        let boundaries: [Int]

        init(builder: JSONDocumentBuilder, levels: [Level], deepest: Int, boundaries: [Int]) {
            self.builder = builder
            self.levels = levels
            self.deepest = deepest
            self.boundaries = boundaries
        }
    }

    /// Parsed bytes kept behind the other thread's position, as the main parser keeps them.
    static let releaseMargin = 4 << 20

    private let position = Atomic<Int>(-1)
    private let abandoned = Atomic<Bool>(false)
    private let parsed = Atomic<Int>(0)
    private let finished = DispatchSemaphore(value: 0)
    /// Written by the other thread before it signals `finished`.
    private var suffix: Suffix?

    /// Parts of at least this many node words merge on two threads, and parts of at least
    /// this many bytes of nodes or arena move their pages (see `appendDetached`).
    let mergeOnTwoThreadsFrom: Int
    let movePagesFrom: Int

    public convenience init() { self.init(mergeOnTwoThreadsFrom: JSONDocumentBuilder.mergeOnTwoThreadsFrom) }

    init(mergeOnTwoThreadsFrom: Int, movePagesFrom: Int = JSONDocumentBuilder.movePagesFrom) {
        self.mergeOnTwoThreadsFrom = mergeOnTwoThreadsFrom
        self.movePagesFrom = movePagesFrom
    }

    /// Where the main builder's storage is and how far the main parser has come, published
    /// as it goes: the other thread, its part done, faults in the pages that the rest of the
    /// main parse and the merge will write, so the main thread does not wait on them.
    struct MainProgress {
        var position = 0
        var nodes: (address: Int, count: Int, capacity: Int) = (0, 0, 0)
        var arena: (address: Int, count: Int, capacity: Int) = (0, 0, 0)
    }

    private let mainProgress = Mutex(MainProgress())

    func publish(position: Int, builder: JSONDocumentBuilder) {
        var progress = MainProgress(position: position)
        progress.nodes = builder.nodeWords.extent
        progress.arena = builder.arenaBytes.extent
        mainProgress.withLock { $0 = progress }
    }

    /// Where the other part starts, once the other thread has chosen.
    var publishedPosition: Int? {
        let value = position.load(ordering: .acquiring)
        return value < 0 ? nil : value
    }

    /// Whether the main parser took the other part in (for tests and measurements).
    public private(set) var wasSpliced = false

    func markSpliced() { wasSpliced = true }

    /// Bytes the other thread has parsed so far, for progress.
    public var bytesParsed: Int { parsed.load(ordering: .relaxed) }

    /// The main parser will not use the other part: it stops at its next progress check.
    func abandon() { abandoned.store(true, ordering: .relaxed) }

    /// On the other thread: chooses a boundary at or after `from`, publishes it, and parses
    /// the rest of the text from there. Returns at once when no boundary is near.
    /// `release` gets the ranges of bytes parsed (less a margin), whose pages the caller may
    /// give back.
    public func parseRest(of bytes: UnsafeBufferPointer<UInt8>, from: Int, source: String,
                          limits: JSONParser.Limits = JSONParser.Limits(), release: @escaping (Range<Int>) -> Void = { _ in },
                          shouldStop: @escaping () -> Bool = { false }) {
        guard !abandoned.load(ordering: .relaxed), let start = Self.boundary(in: bytes, from: from) else { return }
        position.store(start, ordering: .releasing)
        // The value table sized as the main one (for the whole text): the part's distinct values
        // are about as many, and growing it on the way (a rehash of every entry) costs the
        // thread whose parse ends last.
        var builder = JSONDocumentBuilder(expectedBytes: bytes.count - start, detached: true, guessing: true, valueBytes: bytes.count)
        let progress: JSONParser.Progress = { [self] consumed throws(CancelledError) in
            parsed.store(consumed - start, ordering: .relaxed)
            if abandoned.load(ordering: .relaxed) || shouldStop() { throw CancelledError() }
            if consumed - start > Self.releaseMargin { release(start..<(consumed - Self.releaseMargin)) }
        }
        guard let (levels, deepest, boundaries) = JSONParser.parseSuffix(bytes, from: start, source: source, into: &builder,
                                                              limits: limits, progress: progress) else {
            finished.signal()
            return
        }
        suffix = Suffix(builder: builder, levels: levels, deepest: deepest, boundaries: boundaries)
        finished.signal()
        // Where a part's pages will move, populating is wasted.
        func copied(_ bytes: Int) -> Int { bytes >= movePagesFrom ? 0 : bytes }
        prefaultMainStorage(start: start, partNodes: copied(builder.nodeCount * 8) / 8, partArena: copied(builder.arenaCount))
    }

    /// Populates (MADV_POPULATE_WRITE, Linux 5.14) the main builder's storage from where it
    /// is filled to where it will end: the main parser's bytes still to go at its density so
    /// far, plus this part. Populating never changes what a page holds, so it is safe while
    /// the main thread writes there; a guess too short leaves faults, too long a few pages.
    private func prefaultMainStorage(start: Int, partNodes: Int, partArena: Int) {
        #if os(Linux)
        let chunk = 1 << 21
        var done = (nodes: 0, arena: 0)
        while !abandoned.load(ordering: .relaxed) {
            let main = mainProgress.withLock { $0 }
            guard main.position > 0, main.position < start else { return }
            let remaining = Double(start - main.position) / Double(main.position)
            func next(_ storage: (address: Int, count: Int, capacity: Int), part: Int, element: Int, done: inout Int) -> Bool {
                guard storage.address != 0 else { return false }
                let expected = storage.count + Int(Double(storage.count) * remaining * 1.02) + part
                let mask = Pages.size - 1
                let end = (storage.address + min(storage.capacity, expected) * element + mask) & ~mask
                let from = max(done, (storage.address + storage.count * element) & ~mask)
                guard from < end else { return false }
                let length = min(chunk, end - from)
                if !Pages.populate(UnsafeRawPointer(bitPattern: from)!, bytes: length) {
                    done = Int.max
                    return false
                }
                done = from + length
                return true
            }
            let nodes = next(main.nodes, part: partNodes, element: 8, done: &done.nodes)
            let arena = next(main.arena, part: partArena, element: 1, done: &done.arena)
            if !nodes && !arena { return }
        }
        #endif
    }

    /// The main parser, at the published position: the other part, once it is parsed, or
    /// nil when it could not be.
    func waitForSuffix() -> Suffix? {
        finished.wait()
        return suffix
    }

    /// The first `{` at or after `from` that follows `}` `,` (with any whitespace), looking
    /// no further than a megabyte.
    static func boundary(in bytes: UnsafeBufferPointer<UInt8>, from: Int, within: Int = 1 << 20) -> Int? {
        let end = min(bytes.count, from + within)
        var index = max(1, from)
        while index < end {
            if bytes[index] == UInt8(ascii: "}") {
                var next = skipWhitespace(bytes, from: index + 1)
                if next < bytes.count, bytes[next] == UInt8(ascii: ",") {
                    next = skipWhitespace(bytes, from: next + 1)
                    if next < bytes.count, bytes[next] == UInt8(ascii: "{") { return next }
                }
            }
            index += 1
        }
        return nil
    }

    private static func skipWhitespace(_ bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        var index = from
        while index < bytes.count, JSONParser.isWhitespace(bytes[index]) { index += 1 }
        return index
    }
}
