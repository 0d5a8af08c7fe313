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

    static func withBytes<Result>(
        of path: String, name: String, progress: LoadProgress, cancellation: Cancellation, lines: LineTracker,
        concurrently: Bool = true,
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
            // The reading (and its page faults) runs on a second thread ahead of the parser:
            // large files are read while they are parsed, on two cores.
            let reader = FileReader(descriptor: descriptor, base: base, size: size, cancellation: cancellation)
            if concurrently && size > readAhead {
                reader.start()
            } else {
                reader.run()
            }
            defer {
                reader.stop()
                reader.waitUntilDone()
            }
            if !concurrently || size <= readAhead, let failure = reader.failure {
                throw failure == ECANCELED ? .cancelled : .unreadable(path: name, reason: describe(failure))
            }
            let total = concurrently ? size : reader.filled.load(ordering: .acquiring)
            let bytes = UnsafeBufferPointer(start: UnsafePointer(base), count: total)
            let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
            var released = 0
            let access = Access(release: { consumed in
                // Give back parsed pages, keeping a margin behind the parser; count their lines first.
                let upTo = (max(0, consumed - (4 << 20)) / pageSize) * pageSize
                if upTo > released {
                    lines.advance(to: upTo, in: bytes)
                    _ = madvise(memory + released, upTo - released, MADV_DONTNEED)
                    released = upTo
                }
            }, ensure: { position throws(CancelledError) in
                try reader.wait(until: min(size, position + readAhead))
            }, complete: {
                reader.isDone && reader.failure == nil && reader.filled.load(ordering: .acquiring) == size
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

/// Reads a file into memory on a thread of its own, publishing how far it has come.
final class FileReader: @unchecked Sendable {
    let filled = Atomic<Int>(0)
    private let done = Atomic<Bool>(false)
    private let stopped = Atomic<Bool>(false)

    /// Nobody needs the rest: stop at the next chunk.
    func stop() { stopped.store(true, ordering: .relaxed) }
    /// errno of a failed read (ECANCELED when cancelled), set before `done`.
    private(set) var failure: Int32?
    private let descriptor: Int32
    private let base: UnsafeMutablePointer<UInt8>
    private let size: Int
    private let cancellation: Cancellation
    private let finished = DispatchSemaphore(value: 0)
    private var started = false

    init(descriptor: Int32, base: UnsafeMutablePointer<UInt8>, size: Int, cancellation: Cancellation) {
        self.descriptor = descriptor
        self.base = base
        self.size = size
        self.cancellation = cancellation
    }

    var isDone: Bool { done.load(ordering: .acquiring) }

    func start() {
        started = true
        let thread = Thread { [self] in run() }
        thread.name = "read"
        thread.start()
    }

    /// Reads it all (a file that shrinks meanwhile simply ends early).
    func run() {
        var position = 0
        while position < size {
            if cancellation.isCancelled { failure = ECANCELED; break }
            if stopped.load(ordering: .relaxed) { break }
            let count = read(descriptor, base + position, min(4 << 20, size - position))
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                failure = errno
                break
            }
            if count == 0 { break }
            position += count
            filled.store(position, ordering: .releasing)
        }
        done.store(true, ordering: .releasing)
        finished.signal()
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
