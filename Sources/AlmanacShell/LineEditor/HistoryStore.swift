#if canImport(Glibc)
import Glibc
#endif
import AlmanacCore

/// The command history: loaded at start, and each accepted line appended to the file as it
/// is entered, so a crash loses nothing and two shells running at once both keep their lines.
///
/// The file holds one entry per line (`\` and newlines escaped), mode 0600, at most
/// `capacity` entries (older ones are dropped when the file grows a tenth past it).
public final class HistoryStore {
    public static let capacity = 10_000

    public let path: String
    public private(set) var entries: [String] = []
    /// Problems with the file, worded for the user; the shell starts anyway and shows them once.
    public private(set) var warnings: [String] = []
    private var writable = true

    public init(path: String) {
        self.path = path
        load()
    }

    /// Records an accepted line, unless it is empty, starts with a space (kept private on
    /// purpose, as in bash) or repeats the previous entry. Returns whether it was stored.
    @discardableResult
    public func add(_ line: String) -> Bool {
        guard !line.isEmpty, !line.hasPrefix(" "), line.contains(where: { !$0.isWhitespace }),
              line != entries.last else { return false }
        entries.append(line)
        if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
        append(line)
        return true
    }

    // MARK: - The file

    static func encode(_ entry: String) -> String {
        var result = ""
        for character in entry {
            switch character {
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            default: result.append(character)
            }
        }
        return result
    }

    static func decode(_ line: Substring) -> String {
        // Bytes, not Foundation's string search: ten thousand lines are read before the first prompt.
        let hasBackslash = line.utf8.withContiguousStorageIfAvailable { buffer in
            buffer.baseAddress.map { memchr($0, 0x5C, buffer.count) != nil } ?? false
        }
            ?? line.utf8.contains(UInt8(ascii: "\\"))
        guard hasBackslash else { return String(line) }
        var result = ""
        var escaped = false
        for character in line {
            if escaped {
                switch character {
                case "n": result.append("\n")
                case "r": result.append("\r")
                default: result.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }

    private func load() {
        var status = stat()
        // A link is someone else's file as far as history goes: never read, appended to or
        // made 0600 through it. This session's lines stay in memory.
        if SystemCalls.lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK {
            warnAboutLink()
            return
        }
        if SystemCalls.stat(path, &status) != 0 {
            if errno != ENOENT {
                // ENOTDIR, EACCES…: it cannot be written either; say so once.
                warn("cannot use history file \(path): \(systemError()); this session's history will not be saved")
                writable = false
            }
            return
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            warn("history file \(path) is not a regular file; this session's history will not be saved")
            writable = false
            return
        }
        guard let bytes = readBytes(path) else {
            warn("cannot read history file \(path): \(systemError()); this session's history will not be saved")
            writable = false
            return
        }
        // Damaged lines (invalid UTF-8, NUL bytes) are left out, with one warning. A whole file
        // of good text, the usual case, is checked in one pass and cut at its newline bytes
        // (line by line it was a third of the instructions before the first prompt, with
        // 10,000 lines).
        var damaged = 0
        var lines: [Substring] = []
        if let good = Self.lines(ofGoodText: bytes) {
            lines = good
        } else {
            for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: true) {
                guard !line.contains(0), let text = String(validating: line, as: UTF8.self) else {
                    damaged += 1
                    continue
                }
                lines.append(Substring(text))
            }
        }
        if damaged > 0 {
            warn("history file \(path) has \(damaged) damaged line\(damaged == 1 ? "" : "s") (not UTF-8 text); \(damaged == 1 ? "it was" : "they were") skipped")
        }
        entries = lines.suffix(Self.capacity).map(Self.decode)
        if lines.count > Self.capacity + Self.capacity / 10 { compact() }
    }

    /// The non-empty lines of `bytes` when all of it is UTF-8 without NUL (nil otherwise), cut
    /// at the byte 0x0A (a Character split would keep "\r\n" together).
    static func lines(ofGoodText bytes: [UInt8]) -> [Substring]? {
        guard !bytes.isEmpty else { return [] }
        var whole = String(decoding: bytes, as: UTF8.self)
        // Decoding repairs bad sequences: the text is good when the bytes came through unchanged.
        let unchanged = whole.withUTF8 { decoded in
            decoded.count == bytes.count && decoded.baseAddress.map { memcmp($0, bytes, bytes.count) == 0 } == true
        }
        guard unchanged, memchr(bytes, 0, bytes.count) == nil else { return nil }
        let utf8 = whole.utf8
        var lines: [Substring] = []
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var start = 0
            while start < buffer.count {
                let found = memchr(base + start, 0x0A, buffer.count - start)
                let end = found.map { UnsafeRawPointer(base).distance(to: UnsafeRawPointer($0)) } ?? buffer.count
                if end > start {
                    lines.append(whole[utf8.index(utf8.startIndex, offsetBy: start)..<utf8.index(utf8.startIndex, offsetBy: end)])
                }
                start = end + 1
            }
        }
        return lines
    }

    /// Rewrites the file with only the newest entries, under the lock, whole or not at all
    /// (`AtomicFile`). Should that fail (a full disk), the longer file stays: nothing is lost.
    private func compact() {
        guard let (descriptor, _) = openLocked() else { return }
        defer { _ = SystemCalls.close(descriptor) }
        guard let contents = readWhole(path) else { return }
        let kept = contents.split(separator: "\n").suffix(Self.capacity)
        let text = kept.joined(separator: "\n") + "\n"
        try? AtomicFile.write(Array(text.utf8), to: path, overwrite: true, permissions: 0o600)
    }

    private func append(_ entry: String) {
        guard writable else { return }
        guard let (descriptor, size) = openLocked() else {
            if errno == ELOOP { warnAboutLink() } else {
                warn("cannot write history file \(path): \(systemError()); this session's history will not be saved")
            }
            writable = false
            return
        }
        defer { _ = SystemCalls.close(descriptor) }
        if case let .failed(code) = SystemCalls.writeAll(descriptor, Self.encode(entry) + "\n") {
            // Part of the line may have gone in before the disk filled: the lock is still
            // held, so cutting the file back to its size leaves whole lines only.
            _ = SystemCalls.ftruncate(descriptor, size)
            let reason = code == 0 ? "nothing was written" : systemError(code)
            warn("cannot write history file \(path): \(reason); this session's history will not be saved")
            writable = false
        }
    }

    /// Opens the file for appending with an exclusive lock, making its folder if needed,
    /// and retries when another shell replaced the file while we waited for the lock.
    /// Returns the descriptor and the file's size once locked.
    private func openLocked() -> (Int32, off_t)? {
        makeParentDirectory()
        for _ in 0..<5 {
            // O_NOFOLLOW: a link put in the file's place meanwhile is refused (ELOOP), not followed.
            let descriptor = SystemCalls.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard descriptor >= 0 else { return nil }
            _ = SystemCalls.retryingInterrupts { SystemCalls.flock(descriptor, LOCK_EX) }
            var opened = stat()
            var current = stat()
            if SystemCalls.fstat(descriptor, &opened) == 0, SystemCalls.lstat(path, &current) == 0,
               opened.st_ino == current.st_ino, opened.st_dev == current.st_dev {
                if opened.st_mode & 0o777 != 0o600 { _ = SystemCalls.fchmod(descriptor, 0o600) }
                return (descriptor, opened.st_size)
            }
            _ = SystemCalls.close(descriptor)
        }
        return nil
    }

    private func makeParentDirectory() {
        var prefix = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/").dropLast() {
            prefix += "/" + part
            _ = SystemCalls.mkdir(prefix, 0o700)
        }
    }

    private func warn(_ message: String) { warnings.append(message) }

    private func warnAboutLink() {
        warn("history file \(path) is a symbolic link; almanac never writes history through one, "
            + "so this session's history is kept in memory only")
        writable = false
    }
}

func systemError(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }

/// The whole file as text (invalid UTF-8 repaired), or nil when it cannot be read.
func readWhole(_ path: String) -> String? {
    readBytes(path).map { String(decoding: $0, as: UTF8.self) }
}

/// The whole file's bytes, or nil (errno set) when it cannot be read.
func readBytes(_ path: String) -> [UInt8]? { SystemCalls.readFile(path) }

/// Writes all of `text`; false (errno set) on any error.
func writeAll(_ descriptor: Int32, _ text: String) -> Bool { SystemCalls.writeAll(descriptor, text) == .written }
