import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file's bytes for parsing, read into memory of our own. Not mapped: another program
/// that shortens the file while it loads would make reading a mapped page past the new end a
/// SIGBUS. Pages the parser has finished with are given back as it moves on (their lines
/// counted first, for error messages), so memory stays near what is kept.
enum FileContents {
    /// Sources larger than this are refused: half the machine's memory (what is read is held
    /// while it parses), and never more than 64 GiB.
    static let maximumBytes: Int = {
        let physical = Int(sysconf(Int32(_SC_PHYS_PAGES))) * Int(sysconf(Int32(_SC_PAGESIZE)))
        return physical > 0 ? min(64 << 30, physical / 2) : 64 << 30
    }()

    static var limitText: String { ByteSize.text(maximumBytes) }

    /// What the body learns besides the bytes: give back parsed pages (`release`), wait for
    /// bytes not read yet (`ensure`), and whether the bytes it saw were all there (`complete`,
    /// for deciding, after an error, whether to read again before believing it).
    struct Access {
        let release: (Int) -> Void
        let ensure: (Int) throws(CancelledError) -> Void
        let complete: () -> Bool
    }

    /// Bytes beyond the reader's position are zero until read, and NUL is never valid JSON:
    /// a parser that runs ahead can only fail, never misread.
    static let readAhead = 16 << 20

    /// Work for the second thread once it has read the second half of a large file (which
    /// starts at the given offset); it runs while the caller parses the first half, and
    /// should return soon after the closure it gets says to stop.
    typealias SecondHalfWork = (_ bytes: UnsafeBufferPointer<UInt8>, _ middle: Int, _ shouldStop: @escaping () -> Bool) -> Void

    static func withBytes<Result>(
        of path: String, name: String, progress: LoadProgress, cancellation: Cancellation, lines: LineTracker,
        concurrently: Bool = true, secondHalf: SecondHalfWork? = nil,
        _ body: (UnsafeBufferPointer<UInt8>, Access) throws(LoadFailure) -> Result
    ) throws(LoadFailure) -> Result {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw .unreadable(path: name, reason: describe(errno)) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unreadable(path: name, reason: describe(errno)) }
        let type = status.st_mode & S_IFMT
        if type == S_IFDIR { throw .unreadable(path: name, reason: "is a directory, not a file") }
        if type == S_IFREG {
            let size = Int(status.st_size)
            guard size <= maximumBytes else { throw .unreadable(path: name, reason: "larger than the \(limitText) limit (half the memory)") }
            progress.setBytes(done: 0, total: size)
            if size == 0 {
                return try body(UnsafeBufferPointer(start: nil, count: 0), Access(release: { _ in }, ensure: { _ in }, complete: { true }))
            }
            guard let memory = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), memory != MAP_FAILED else {
                throw .unreadable(path: name, reason: "not enough memory for \(size) bytes")
            }
            defer { munmap(memory, size) }
            let base = memory.assumingMemoryBound(to: UInt8.self)
            let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
            var released = 0
            func release(_ bytes: UnsafeBufferPointer<UInt8>) -> (Int) -> Void {
                { consumed in
                    // Give back parsed pages, keeping a margin behind the parser; count their lines first.
                    let upTo = (max(0, consumed - (4 << 20)) / pageSize) * pageSize
                    if upTo > released {
                        lines.advance(to: upTo, in: bytes)
                        _ = madvise(memory + released, upTo - released, MADV_DONTNEED)
                        released = upTo
                    }
                }
            }
            guard concurrently, size > readAhead else {
                let reader = FileReader(descriptor: descriptor, base: base, range: 0..<size, cancellation: cancellation)
                reader.read(upTo: size)
                if let failure = reader.failure {
                    throw failure == ECANCELED ? .cancelled : .unreadable(path: name, reason: describe(failure))
                }
                let bytes = UnsafeBufferPointer(start: UnsafePointer(base), count: reader.filled.load(ordering: .acquiring))
                return try body(bytes, Access(release: release(bytes), ensure: { _ in }, complete: { true }))
            }
            // Large files are read on two cores: the second half by another thread (which
            // may then go on to parse it), the first half here, as the parser needs it.
            let bytes = UnsafeBufferPointer(start: UnsafePointer(base), count: size)
            let middle = (size / 2 / pageSize) * pageSize
            let first = FileReader(descriptor: descriptor, base: base, range: 0..<middle, cancellation: cancellation)
            let second = FileReader(descriptor: descriptor, base: base, range: middle..<size, cancellation: cancellation)
            second.start { [second] in
                guard let secondHalf, second.isComplete else { return }
                secondHalf(bytes, middle, { second.isStopped || cancellation.isCancelled })
            }
            defer {
                second.stop()
                second.waitUntilDone()
            }
            let access = Access(release: release(bytes), ensure: { position throws(CancelledError) in
                let target = min(size, position + readAhead)
                first.read(upTo: min(target, middle))
                if target > middle { try second.wait(until: target) }
            }, complete: {
                first.isComplete && second.isComplete
            })
            do { try access.ensure(0) } catch { throw .cancelled }
            return try body(bytes, access)
        }
        // A pipe or device: read it all, checking for cancellation while waiting.
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&waiting, 1, 100)
            if cancellation.isCancelled { throw .cancelled }
            if ready <= 0 { continue }
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .unreadable(path: name, reason: describe(errno))
            }
            if count == 0 { break }
            data.append(contentsOf: chunk[0..<count])
            guard data.count <= maximumBytes else { throw .unreadable(path: name, reason: "larger than the \(limitText) limit (half the memory)") }
            progress.setBytes(done: data.count)
        }
        progress.setBytes(done: 0, total: data.count)
        return try data.withUnsafeBufferPointer { bytes throws(LoadFailure) in
            try body(bytes, Access(release: { _ in }, ensure: { _ in }, complete: { true }))
        }
    }

    static func describe(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file"
        case EACCES: "permission denied"
        default: String(cString: strerror(code)).lowercased()
        }
    }
}

/// Reads a range of a file into memory, on the calling thread or one of its own, publishing
/// how far it has come.
final class FileReader: @unchecked Sendable {
    /// The offset up to which the range is read.
    let filled: Atomic<Int>
    private let done = Atomic<Bool>(false)
    private let stopped = Atomic<Bool>(false)
    /// errno of a failed read (ECANCELED when cancelled), set before `done`.
    private(set) var failure: Int32?
    private let descriptor: Int32
    private let base: UnsafeMutablePointer<UInt8>
    private let range: Range<Int>
    private let cancellation: Cancellation
    private let finished = DispatchSemaphore(value: 0)
    private var started = false

    init(descriptor: Int32, base: UnsafeMutablePointer<UInt8>, range: Range<Int>, cancellation: Cancellation) {
        self.descriptor = descriptor
        self.base = base
        self.range = range
        self.cancellation = cancellation
        filled = Atomic(range.lowerBound)
    }

    /// Reading ended: all of the range, or early (a shorter file, a failure, a stop).
    var isDone: Bool { done.load(ordering: .acquiring) }
    var isComplete: Bool { isDone && failure == nil && filled.load(ordering: .acquiring) == range.upperBound }
    var isStopped: Bool { stopped.load(ordering: .relaxed) }

    /// Nobody needs the rest: stop at the next chunk.
    func stop() { stopped.store(true, ordering: .relaxed) }

    /// Reads the whole range on a thread of its own, then runs `then` there.
    func start(then: @escaping () -> Void) {
        started = true
        // The caller keeps what `then` uses alive until `waitUntilDone`.
        nonisolated(unsafe) let then = then
        let thread = Thread { [self] in
            read(upTo: range.upperBound)
            then()
            finished.signal()
        }
        thread.name = "read"
        thread.start()
    }

    /// Reads on the calling thread until `position` (a file that shrinks meanwhile simply ends early).
    func read(upTo position: Int) {
        var next = filled.load(ordering: .relaxed)
        let end = min(position, range.upperBound)
        while next < end, !isDone {
            if cancellation.isCancelled { return finish(failure: ECANCELED) }
            if isStopped { return finish() }
            let count = pread(descriptor, base + next, min(4 << 20, range.upperBound - next), off_t(next))
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return finish(failure: errno)
            }
            if count == 0 { return finish() }
            next += count
            filled.store(next, ordering: .releasing)
        }
        if next >= range.upperBound { finish() }
    }

    private func finish(failure: Int32? = nil) {
        if let failure { self.failure = failure }
        done.store(true, ordering: .releasing)
    }

    /// Waits until `position` bytes are read, or reading ended.
    func wait(until position: Int) throws(CancelledError) {
        while filled.load(ordering: .acquiring) < position, !isDone {
            try cancellation.checkpoint()
            usleep(50)
        }
    }

    /// The descriptor is closed and the memory unmapped after this returns.
    func waitUntilDone() {
        if started { finished.wait() }
    }
}

/// Sizes in messages: `12 GiB`, `512 MiB`.
enum ByteSize {
    static func text(_ bytes: Int) -> String {
        bytes >= 1 << 30 ? "\(bytes >> 30) GiB" : "\(bytes >> 20) MiB"
    }
}
