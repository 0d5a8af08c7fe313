import Foundation
import Synchronization
import CGlibc
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file's bytes for parsing. A regular file is mapped, which costs a tenth of reading it
/// into memory of our own (no copy, no fresh pages to clear); under a guard, because another
/// program that shortens the file while it loads would make touching a mapped page past its
/// new end a SIGBUS: the guard puts zeros there instead (never valid JSON) and says so, and
/// the caller reads the file again, whole, before believing the error. Pages the parser has
/// finished with are given back as it moves on (their lines counted first, for error
/// messages), so memory stays near what is kept.
enum FileContents {
    /// Sources larger than this are refused: half the machine's memory (what is read is held
    /// while it parses), and never more than 64 GiB.
    static let maximumBytes: Int = {
        let physical = Int(sysconf(Int32(_SC_PHYS_PAGES))) * Int(sysconf(Int32(_SC_PAGESIZE)))
        return physical > 0 ? min(64 << 30, physical / 2) : 64 << 30
    }()

    static var limitText: String { ByteSize.text(maximumBytes) }

    /// Files from this size on get a second thread (`SecondHalfWork`): each half is then a
    /// millisecond of parsing or more, against the thread's 0.1 ms start on the other CPU.
    /// The 1× stations file (3.4 MB) answers `count` in a fresh process in 5.5–5.6 ms, not 6.9.
    static let secondThreadFrom = 2 << 20

    /// What the body learns besides the bytes: give back parsed pages (`release`), and
    /// whether the bytes it saw were the file's (`complete`: false when the file shrank
    /// under its mapping, so an error should be checked by reading the file again).
    struct Access {
        let release: (Int) -> Void
        let complete: () -> Bool
        /// Gives back the pages inside a range a second thread is done with (ranges in
        /// increasing order; a mapped file's only: memory of our own would come back as zeros).
        var releaseRange: (Range<Int>) -> Void = { _ in }
        /// Whether released pages come back from the file (it is mapped) rather than as zeros.
        var pagesComeBack = false
    }

    /// Work for a second thread on a file's bytes from the given offset near the middle (the
    /// second half of the parse); it runs while the caller parses the first half, gives back
    /// the pages of the bytes it is done with (`release`, which keeps no line count: errors
    /// count their lines from the bytes, read again), and should return soon after the
    /// closure it gets says to stop.
    typealias SecondHalfWork = (_ bytes: UnsafeBufferPointer<UInt8>, _ middle: Int, _ release: @escaping (Range<Int>) -> Void,
                                _ shouldStop: @escaping () -> Bool) -> Void

    /// What a pipe's bytes are checked for as they come: JSON (stopping at the first byte that
    /// cannot be), or text (CSV: stopping at a NUL byte).
    enum StreamCheck { case json, none }

    /// `mapped`: false to read the file into memory instead, whole, before `body` runs.
    static func withBytes<Result>(
        of path: String, name: String, progress: LoadProgress, cancellation: Cancellation, lines: LineTracker,
        mapped: Bool = true, secondHalf: SecondHalfWork? = nil, streamCheck: StreamCheck = .json,
        _ body: (UnsafeBufferPointer<UInt8>, Access) throws(LoadFailure) -> Result
    ) throws(LoadFailure) -> Result {
        let descriptor = SystemCalls.retryingInterrupts { SystemCalls.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard descriptor >= 0 else { throw .unreadable(path: name, reason: describe(errno)) }
        defer { _ = SystemCalls.close(descriptor) }
        var status = stat()
        guard SystemCalls.fstat(descriptor, &status) == 0 else { throw .unreadable(path: name, reason: describe(errno)) }
        let type = status.st_mode & S_IFMT
        if type == S_IFDIR { throw .unreadable(path: name, reason: "is a directory, not a file") }
        // A regular file of size 0 may still have text: /proc's files are made as they are read.
        if type == S_IFREG, status.st_size > 0 {
            let size = Int(status.st_size)
            guard size <= maximumBytes else { throw .unreadable(path: name, reason: "larger than the \(limitText) limit (half the memory)") }
            progress.setBytes(done: 0, total: size)
            if mapped, let mapping = GuardedMapping(descriptor: descriptor, size: size) {
                defer { mapping.close() }
                let bytes = mapping.bytes
                let second = size >= secondThreadFrom ? secondHalf.map { work in
                    SecondThread { stopped in
                        work(bytes, size / 2, pageDropper(mapping.start, size), { stopped() || cancellation.isCancelled })
                    }
                } : nil
                defer { second?.stopAndWait() }
                // A file's dropped pages come back from the file: an error counts its lines then.
                let access = Access(release: releaser(mapping.start, bytes, lines: nil), complete: { mapping.isIntact },
                                    releaseRange: pageDropper(mapping.start, size), pagesComeBack: true)
                return try body(bytes, access)
            }
            guard let memory = SystemCalls.mmap(size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1) else {
                throw .unreadable(path: name, reason: "not enough memory for \(size) bytes")
            }
            defer { SystemCalls.munmap(memory, size) }
            let base = memory.assumingMemoryBound(to: UInt8.self)
            let filled = try readWhole(descriptor, into: base, count: size, name: name, cancellation: cancellation)
            let bytes = UnsafeBufferPointer(start: UnsafePointer(base), count: filled)
            return try body(bytes, Access(release: releaser(memory, bytes, lines: lines), complete: { true }))
        }
        return try streamed(descriptor, name: name, progress: progress, cancellation: cancellation, check: streamCheck, body)
    }

    /// A pipe, a device, a FIFO, a file of /proc: read as it comes, checking for cancellation
    /// while waiting, and only as long as the text can still be JSON (`JSONStreamCheck`), so
    /// `/dev/zero` or `/dev/urandom` stop at once. What was read up to the first bad byte is
    /// parsed, for the parser's own error message.
    private static func streamed<Result>(
        _ descriptor: Int32, name: String, progress: LoadProgress, cancellation: Cancellation, check checking: StreamCheck,
        _ body: (UnsafeBufferPointer<UInt8>, Access) throws(LoadFailure) -> Result
    ) throws(LoadFailure) -> Result {
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var check = JSONStreamCheck()
        let checksJSON = checking == .json
        var stoppedAt: Int?
        reading: while true {
            var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&waiting, 1, 100)
            if cancellation.isCancelled { throw .cancelled }
            if ready <= 0 { continue }
            let count = chunk.withUnsafeMutableBytes { SystemCalls.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .unreadable(path: name, reason: describe(errno))
            }
            if count == 0 { break }
            data.append(contentsOf: chunk[0..<count])
            guard checksJSON else {
                // CSV has no NUL bytes: /dev/zero or /dev/urandom stop at once.
                if let zero = chunk[0..<count].firstIndex(of: 0) {
                    data.removeSubrange((data.count - count + zero)...)
                    stoppedAt = data.count
                    break reading
                }
                guard data.count <= maximumBytes else { throw .unreadable(path: name, reason: "larger than the \(limitText) limit (half the memory)") }
                progress.setBytes(done: data.count)
                continue
            }
            switch chunk.withUnsafeBufferPointer({ check.feed(UnsafeBufferPointer(rebasing: $0[0..<count])) }) {
            case nil:
                break
            case let .invalid(offset):
                // A few bytes past it, for the parser to quote what it found there.
                data.removeSubrange(min(data.count, offset + JSONStreamCheck.excerptBytes)...)
                stoppedAt = offset
                break reading
            case let .stringTooLong(opening):
                let (line, column) = data.withUnsafeBufferPointer { LineTracker().position(of: opening, in: $0) }
                let limit = JSONParser.Limits().maximumStringBytes
                throw .json(JSONError(reason: .stringTooLong(limit: limit), source: name, offset: opening, line: line, column: column))
            }
            guard data.count <= maximumBytes else { throw .unreadable(path: name, reason: "larger than the \(limitText) limit (half the memory)") }
            progress.setBytes(done: data.count)
        }
        progress.setBytes(done: 0, total: data.count)
        let result = try data.withUnsafeBufferPointer { bytes throws(LoadFailure) in
            try body(bytes, Access(release: { _ in }, complete: { true }))
        }
        // The parser took what the check refused: never expected, but what was read is not
        // the whole text, so it is no dataset.
        if let stoppedAt {
            throw .unreadable(path: name, reason: "reading stopped at byte \(stoppedAt), which cannot be \(checksJSON ? "JSON" : "text (a NUL byte)") there")
        }
        return result
    }

    /// Gives back the pages before the parser's position, keeping a margin behind it. Memory
    /// of our own comes back as zeros: `lines` counts its lines first. A mapped file's pages
    /// come back from the file, so counting there (a pass over every byte, ~5% of the main
    /// parser's time) waits until an error needs it.
    private static func releaser(_ start: UnsafeMutableRawPointer, _ bytes: UnsafeBufferPointer<UInt8>,
                                 lines: LineTracker?) -> (Int) -> Void {
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        var released = 0
        return { consumed in
            let upTo = (max(0, consumed - (4 << 20)) / pageSize) * pageSize
            if upTo > released {
                lines?.advance(to: upTo, in: bytes)
                _ = madvise(start + released, upTo - released, MADV_DONTNEED)
                released = upTo
            }
        }
    }

    /// Gives back the whole pages inside each range it gets (ranges in increasing order), for
    /// the second thread: without it the second half of a large file stayed resident until
    /// the load ended, a third of the peak memory at 100×.
    private static func pageDropper(_ start: UnsafeMutableRawPointer, _ size: Int) -> (Range<Int>) -> Void {
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        var dropped = 0
        return { range in
            let from = max(dropped, (range.lowerBound + pageSize - 1) / pageSize * pageSize)
            let upTo = min(size, range.upperBound) / pageSize * pageSize
            guard upTo > from else { return }
            _ = madvise(start + from, upTo - from, MADV_DONTNEED)
            dropped = upTo
        }
    }

    /// Reads up to `count` bytes (fewer when the file shrank meanwhile); returns how many.
    private static func readWhole(_ descriptor: Int32, into base: UnsafeMutablePointer<UInt8>, count: Int, name: String,
                             cancellation: Cancellation) throws(LoadFailure) -> Int {
        var filled = 0
        while filled < count {
            if cancellation.isCancelled { throw .cancelled }
            let read = SystemCalls.pread(descriptor, base + filled, min(4 << 20, count - filled), off_t(filled))
            if read < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .unreadable(path: name, reason: describe(errno))
            }
            if read == 0 { break }
            filled += read
        }
        return filled
    }

    static func describe(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file"
        case EACCES: "permission denied"
        default: String(cString: strerror(code)).lowercased()
        }
    }
}

/// A read-only private mapping of a whole file, guarded against the file shrinking (see
/// `FileContents`). Nil when the file cannot be mapped or no guard is free: read it instead.
final class GuardedMapping {
    let start: UnsafeMutableRawPointer
    let size: Int
    private let guardNumber: Int32
    private let descriptor: Int32

    init?(descriptor: Int32, size: Int) {
        guard let start = SystemCalls.mmap(size, PROT_READ, MAP_PRIVATE, descriptor) else { return nil }
        let guardNumber = almanac_guard_mapping(start, size)
        guard guardNumber >= 0 else {
            SystemCalls.munmap(start, size)
            return nil
        }
        self.start = start
        self.size = size
        self.guardNumber = guardNumber
        self.descriptor = descriptor
        stamp = FileStamp(descriptor: descriptor)
    }

    /// When the file was mapped: a write in place (zeros over it, say) changes it.
    private let stamp: FileStamp?

    var bytes: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: size)
    }

    /// Whether a SIGBUS hit the mapping (the file shrank) and zeros stood in for some pages.
    var wasHit: Bool { almanac_guard_was_hit(guardNumber) != 0 }

    /// Whether the bytes are still the file's: no page went missing, and it has the size it
    /// was mapped with (a cut inside the last page leaves zeros there without a SIGBUS).
    var isIntact: Bool {
        !wasHit && stamp != nil && FileStamp(descriptor: descriptor) == stamp
    }

    /// Once nothing reads the bytes any more.
    func close() {
        almanac_unguard_mapping(guardNumber)
        SystemCalls.munmap(start, size)
    }
}

/// A file's size and last change: equal stamps, same contents (as far as a reader can tell).
struct FileStamp: Equatable {
    let size: Int
    let seconds: Int
    let nanoseconds: Int

    init?(descriptor: Int32) {
        var status = stat()
        guard SystemCalls.fstat(descriptor, &status) == 0 else { return nil }
        self.init(status)
    }

    init?(path: String) {
        var status = stat()
        guard SystemCalls.stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        self.init(status)
    }

    private init(_ status: stat) {
        size = Int(status.st_size)
        seconds = Int(status.st_mtim.tv_sec)
        nanoseconds = Int(status.st_mtim.tv_nsec)
    }
}

/// Work on a thread of its own that the caller stops and waits for, so that the memory the
/// work reads outlives it.
final class SecondThread: @unchecked Sendable {
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts `work`, which gets a closure telling it to stop.
    init(_ work: @escaping (_ stopped: @escaping () -> Bool) -> Void) {
        // The caller keeps what `work` uses alive until `stopAndWait`.
        nonisolated(unsafe) let work = work
        // The work may parse, which recurses once per nesting level.
        BackgroundThread.start(name: "second half", stackSize: Catalog.parsingStackSize, elsewhere: true) { [self] in
            work { self.stopped.load(ordering: .relaxed) }
            finished.signal()
        }
    }

    func stopAndWait() {
        stopped.store(true, ordering: .relaxed)
        finished.wait()
    }
}

/// Sizes in messages: `12 GiB`, `512 MiB`.
enum ByteSize {
    static func text(_ bytes: Int) -> String {
        switch bytes {
        case (1 << 30)...: bytes % (1 << 30) == 0 || bytes >= 10 << 30 ? "\(bytes >> 30) GiB" : "\(bytes >> 20) MiB"
        case (1 << 20)...: "\(bytes >> 20) MiB"
        case (1 << 10)...: "\(bytes >> 10) KiB"
        default: "\(bytes) bytes"
        }
    }
}
