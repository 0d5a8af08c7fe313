#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CGlibc

/// Writes a file whole or not at all: into a temporary file in the same folder, flushed to
/// disk, then moved into place. Without `overwrite` an existing path — a symlink included — is
/// never replaced (`link` fails atomically when the name exists); with it, a symlink is
/// replaced by the file, never followed.
public enum AtomicFile {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case exists(String)
        case system(path: String, reason: String)
        /// Stopped (Ctrl-C, a termination signal) before the file was put in place: the old
        /// file, if any, is as it was, and no temporary file is left.
        case cancelled(String)

        public var description: String {
            switch self {
            case let .exists(path): "\(path) already exists — add --force to replace it"
            case let .system(path, reason): "cannot write \(path): \(reason)"
            case let .cancelled(path): "cancelled: \(path) was not written"
            }
        }
    }

    /// `cancellation` is checked between 1 MiB pieces and last of all before the file takes
    /// its name: an interrupted write is abandoned whole.
    public static func write(_ bytes: [UInt8], to path: String, overwrite: Bool, permissions: mode_t = 0o644,
                             cancellation: Cancellation = .never) throws(Failure) {
        do {
            try write(to: path, overwrite: overwrite, permissions: permissions, cancellation: cancellation) { append in
                var offset = 0
                while offset < bytes.count {
                    let end = min(bytes.count, offset + (1 << 20))
                    try append(Array(bytes[offset..<end]))
                    offset = end
                }
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .system(path: path, reason: "\(error)")  // the body above throws only Failure
        }
    }

    /// Writes what `produce` appends, chunk by chunk (a table read through a cursor): the
    /// file appears whole once `produce` returns, and never if it throws (its error is
    /// rethrown as it is). `permissions` are narrowed by the umask, as `open` would.
    public static func write(to path: String, overwrite: Bool, permissions: mode_t = 0o644, cancellation: Cancellation = .never,
                             _ produce: (_ append: ([UInt8]) throws -> Void) throws -> Void) throws {
        var status = stat()
        if !overwrite, SystemCalls.lstat(path, &status) == 0 { throw Failure.exists(path) }
        if SystemCalls.lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw Failure.system(path: path, reason: "it is a directory")
        }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = ((directory.isEmpty ? "/" : directory + "/") + ".\(name).almanac-XXXXXX").utf8CString
        let descriptor = template.withUnsafeMutableBufferPointer { SystemCalls.mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw Failure.system(path: path, reason: reason()) }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        // Should the process be ended before this returns, the watchdog removes it too.
        almanac_set_temporary_file(temporary)
        var finished = false
        var open = true
        defer {
            if open { _ = SystemCalls.close(descriptor) }
            if !finished { _ = SystemCalls.unlink(temporary) }
            almanac_set_temporary_file(nil)
        }
        _ = SystemCalls.fchmod(descriptor, permissions & ~currentUmask())
        try produce { bytes throws(Failure) in
            if cancellation.isCancelled { throw .cancelled(path) }
            if case let .failed(code) = SystemCalls.writeAll(descriptor, bytes) {
                throw .system(path: path, reason: code == 0 ? "nothing was written" : reason(code))
            }
        }
        if SystemCalls.retryingInterrupts({ SystemCalls.fsync(descriptor) }) != 0 { throw Failure.system(path: path, reason: reason()) }
        open = false
        if SystemCalls.close(descriptor) != 0 { throw Failure.system(path: path, reason: reason()) }
        // The last moment to stop: after this the new file has its name.
        if cancellation.isCancelled { throw Failure.cancelled(path) }
        if overwrite {
            guard SystemCalls.rename(temporary, path) == 0 else { throw Failure.system(path: path, reason: reason()) }
        } else {
            guard SystemCalls.link(temporary, path) == 0 else {
                if errno == EEXIST { throw Failure.exists(path) }
                throw Failure.system(path: path, reason: reason())
            }
            _ = SystemCalls.unlink(temporary)
        }
        finished = true
    }

    private static func reason(_ code: Int32 = errno) -> String { String(cString: strerror(code)).lowercased() }

    private static func currentUmask() -> mode_t {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }
}
