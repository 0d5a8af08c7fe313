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

    static func withBytes<Result>(
        of path: String, name: String, progress: LoadProgress, cancellation: Cancellation, lines: LineTracker,
        _ body: (UnsafeBufferPointer<UInt8>, _ release: @escaping (Int) -> Void) throws(LoadFailure) -> Result
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
            if size == 0 { return try body(UnsafeBufferPointer(start: nil, count: 0)) { _ in } }
            guard let memory = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), memory != MAP_FAILED else {
                throw .unreadable(path: name, reason: "not enough memory for \(size) bytes")
            }
            defer { munmap(memory, size) }
            let base = memory.assumingMemoryBound(to: UInt8.self)
            // Read it all; a file that shrinks meanwhile simply ends early.
            var filled = 0
            while filled < size {
                if cancellation.isCancelled { throw .cancelled }
                let count = read(descriptor, base + filled, min(16 << 20, size - filled))
                if count < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    throw .unreadable(path: name, reason: describe(errno))
                }
                if count == 0 { break }
                filled += count
            }
            let bytes = UnsafeBufferPointer(start: UnsafePointer(base), count: filled)
            let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
            var released = 0
            return try body(bytes) { consumed in
                // Give back parsed pages, keeping a margin behind the parser; count their lines first.
                let upTo = (max(0, consumed - (4 << 20)) / pageSize) * pageSize
                if upTo > released {
                    lines.advance(to: upTo, in: bytes)
                    _ = madvise(memory + released, upTo - released, MADV_DONTNEED)
                    released = upTo
                }
            }
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
        return try data.withUnsafeBufferPointer { bytes throws(LoadFailure) in try body(bytes) { _ in } }
    }

    static func describe(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file"
        case EACCES: "permission denied"
        default: String(cString: strerror(code)).lowercased()
        }
    }
}

/// Sizes in messages: `12 GiB`, `512 MiB`.
enum ByteSize {
    static func text(_ bytes: Int) -> String {
        bytes >= 1 << 30 ? "\(bytes >> 30) GiB" : "\(bytes >> 20) MiB"
    }
}
