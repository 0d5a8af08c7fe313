#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file-system calls almanac makes — loading, export, history, output — one thin wrapper
/// each, with the call's own arguments, result and errno, so that tests can make them fail
/// (`FaultPlan`: ENOSPC, EIO, EINTR, short reads and writes) without a real full disk, as
/// swift-system's Mocking.swift does. Without a plan a call costs one relaxed atomic load more.
/// No Foundation here: loading goes through it.
package enum SystemCalls {
    // MARK: - Paths

    package static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        guard FaultInjection.isActive else { return Glibc.open(path, flags, mode) }
        if case let .fails(code)? = FaultInjection.effect(.open, paths: path) { return failed(code) }
        let descriptor = Glibc.open(path, flags, mode)
        FaultInjection.opened(descriptor, path: path)
        return descriptor
    }

    /// `mkstemp` on a template such as `folder/.name-XXXXXX`.
    package static func mkstemp(_ template: UnsafeMutablePointer<CChar>) -> Int32 {
        guard FaultInjection.isActive else { return Glibc.mkstemp(template) }
        if case let .fails(code)? = FaultInjection.effect(.mkstemp, paths: String(cString: template)) { return failed(code) }
        let descriptor = Glibc.mkstemp(template)
        FaultInjection.opened(descriptor, path: String(cString: template))
        return descriptor
    }

    package static func stat(_ path: String, _ status: inout Glibc.stat) -> Int32 {
        if FaultInjection.isActive, case let .fails(code)? = FaultInjection.effect(.stat, paths: path) { return failed(code) }
        return libcStat(path, &status)
    }

    package static func lstat(_ path: String, _ status: inout Glibc.stat) -> Int32 {
        if FaultInjection.isActive, case let .fails(code)? = FaultInjection.effect(.lstat, paths: path) { return failed(code) }
        return Glibc.lstat(path, &status)
    }

    package static func rename(_ from: String, _ to: String) -> Int32 {
        if FaultInjection.isActive, case let .fails(code)? = FaultInjection.effect(.rename, paths: from, to) { return failed(code) }
        return Glibc.rename(from, to)
    }

    package static func link(_ from: String, _ to: String) -> Int32 {
        if FaultInjection.isActive, case let .fails(code)? = FaultInjection.effect(.link, paths: from, to) { return failed(code) }
        return Glibc.link(from, to)
    }

    package static func unlink(_ path: String) -> Int32 {
        if FaultInjection.isActive, case let .fails(code)? = FaultInjection.effect(.unlink, paths: path) { return failed(code) }
        return Glibc.unlink(path)
    }

    package static func mkdir(_ path: String, _ mode: mode_t) -> Int32 {
        if FaultInjection.isActive, case let .fails(code)? = FaultInjection.effect(.mkdir, paths: path) { return failed(code) }
        return Glibc.mkdir(path, mode)
    }

    // MARK: - Descriptors

    package static func close(_ descriptor: Int32) -> Int32 {
        guard FaultInjection.isActive else { return Glibc.close(descriptor) }
        let effect = FaultInjection.effect(.close, descriptor: descriptor)
        FaultInjection.closed(descriptor)
        let result = Glibc.close(descriptor)
        if case let .fails(code)? = effect { return failed(code) }
        return result
    }

    package static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        guard FaultInjection.isActive else { return Glibc.read(descriptor, buffer, count) }
        switch FaultInjection.effect(.read, descriptor: descriptor) {
        case let .fails(code)?: return failed(code)
        case let .short(most)?: return Glibc.read(descriptor, buffer, min(count, most))
        case nil: return Glibc.read(descriptor, buffer, count)
        }
    }

    package static func pread(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ offset: off_t) -> Int {
        guard FaultInjection.isActive else { return Glibc.pread(descriptor, buffer, count, offset) }
        switch FaultInjection.effect(.pread, descriptor: descriptor) {
        case let .fails(code)?: return failed(code)
        case let .short(most)?: return Glibc.pread(descriptor, buffer, min(count, most), offset)
        case nil: return Glibc.pread(descriptor, buffer, count, offset)
        }
    }

    /// One `write(2)`; `writeAll` is what callers want.
    package static func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        guard FaultInjection.isActive else { return Glibc.write(descriptor, buffer, count) }
        switch FaultInjection.effect(.write, descriptor: descriptor) {
        case let .fails(code)?: return failed(code)
        case let .short(most)?: return Glibc.write(descriptor, buffer, min(count, most))
        case nil: return Glibc.write(descriptor, buffer, count)
        }
    }

    package static func fsync(_ descriptor: Int32) -> Int32 {
        if FaultInjection.isActive, case let .fails(code)? = FaultInjection.effect(.fsync, descriptor: descriptor) { return failed(code) }
        return Glibc.fsync(descriptor)
    }

    package static func fdatasync(_ descriptor: Int32) -> Int32 {
        if FaultInjection.isActive, case let .fails(code)? = FaultInjection.effect(.fdatasync, descriptor: descriptor) { return failed(code) }
        return Glibc.fdatasync(descriptor)
    }

    package static func ftruncate(_ descriptor: Int32, _ length: off_t) -> Int32 {
        if FaultInjection.isActive, case let .fails(code)? = FaultInjection.effect(.ftruncate, descriptor: descriptor) { return failed(code) }
        return Glibc.ftruncate(descriptor, length)
    }

    package static func fstat(_ descriptor: Int32, _ status: inout Glibc.stat) -> Int32 {
        if FaultInjection.isActive, case let .fails(code)? = FaultInjection.effect(.fstat, descriptor: descriptor) { return failed(code) }
        return Glibc.fstat(descriptor, &status)
    }

    package static func fchmod(_ descriptor: Int32, _ mode: mode_t) -> Int32 {
        if FaultInjection.isActive, case let .fails(code)? = FaultInjection.effect(.fchmod, descriptor: descriptor) { return failed(code) }
        return Glibc.fchmod(descriptor, mode)
    }

    package static func flock(_ descriptor: Int32, _ operation: Int32) -> Int32 {
        if FaultInjection.isActive, case let .fails(code)? = FaultInjection.effect(.flock, descriptor: descriptor) { return failed(code) }
        return libcFlock(descriptor, operation)
    }

    /// `mmap`, nil instead of MAP_FAILED. Anonymous memory (descriptor -1) is never faulted.
    package static func mmap(_ length: Int, _ protection: Int32, _ flags: Int32, _ descriptor: Int32,
                             _ offset: off_t = 0) -> UnsafeMutableRawPointer? {
        if FaultInjection.isActive, case let .fails(code)? = FaultInjection.effect(.mmap, descriptor: descriptor) {
            errno = code
            return nil
        }
        guard let start = Glibc.mmap(nil, length, protection, flags, descriptor, offset), start != MAP_FAILED else { return nil }
        return start
    }

    @discardableResult
    package static func munmap(_ start: UnsafeMutableRawPointer, _ length: Int) -> Int32 { Glibc.munmap(start, length) }

    // MARK: - Helpers every caller shares

    /// Repeats a call that a signal interrupted (EINTR) before it did anything.
    @inline(__always)
    package static func retryingInterrupts<Result: FixedWidthInteger>(_ call: () -> Result) -> Result {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }

    package enum WriteOutcome: Equatable, Sendable {
        case written
        /// `shouldStop` said to give up after an interruption or a partial write.
        case stopped
        /// errno of the write that failed; 0 when a write took nothing.
        case failed(Int32)
    }

    /// Writes all of `bytes`: the one loop that retries interrupted writes (EINTR; EAGAIN
    /// after waiting to be writable) and completes short ones. `shouldStop` is asked after
    /// each interruption and each partial write (a reader that stopped reading blocks the
    /// write until a signal interrupts it).
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer,
                                 shouldStop: () -> Bool = { false }) -> WriteOutcome {
        guard let base = bytes.baseAddress else { return .written }
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, base + offset, bytes.count - offset)
            if written > 0 {
                offset += written
                if offset < bytes.count, shouldStop() { return .stopped }
                continue
            }
            if written < 0, errno == EINTR || errno == EAGAIN {
                if errno == EAGAIN {
                    var waiting = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&waiting, 1, 100)
                }
                if shouldStop() { return .stopped }
                continue
            }
            return .failed(written < 0 ? errno : 0)
        }
        return .written
    }

    package static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], shouldStop: () -> Bool = { false }) -> WriteOutcome {
        bytes.withUnsafeBytes { writeAll(descriptor, $0, shouldStop: shouldStop) }
    }

    package static func writeAll(_ descriptor: Int32, _ text: String, shouldStop: () -> Bool = { false }) -> WriteOutcome {
        var text = text
        return text.withUTF8 { writeAll(descriptor, UnsafeRawBufferPointer($0), shouldStop: shouldStop) }
    }

    /// A whole small file (history, a file just edited), read to its end; nil with errno set
    /// when it cannot be opened or read.
    package static func readFile(_ path: String) -> [UInt8]? {
        let descriptor = retryingInterrupts { open(path, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { return nil }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = retryingInterrupts { chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) } }
            if count < 0 {
                let code = errno
                _ = close(descriptor)
                errno = code
                return nil
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        _ = close(descriptor)
        return bytes
    }

    private static func failed<Result: FixedWidthInteger>(_ code: Int32) -> Result {
        errno = code
        return -1
    }
}

// Named apart: inside `SystemCalls`, `Glibc.stat` and `Glibc.flock` name the structs.
private func libcStat(_ path: String, _ status: inout stat) -> Int32 { stat(path, &status) }
private func libcFlock(_ descriptor: Int32, _ operation: Int32) -> Int32 { flock(descriptor, operation) }
