#if canImport(Glibc)
import Glibc
#endif
import CShims
import Synchronization

/// Wakes the main thread: signals and background work write a byte to one pipe, which the
/// line editor's read loop and every wait loop poll beside standard input.
///
/// Messages from background work (a load finishing) queue here and are printed by the main
/// thread only, above the prompt: libedit is not thread-safe.
public final class Notifier: Sendable {
    /// Byte written for a queued message; signal numbers are the other bytes.
    static let messageByte: UInt8 = 0xFF
    /// Byte written to wake a wait loop (see `wake`).
    static let wakeByte: UInt8 = 0xFE

    public let readDescriptor: Int32
    private let writeDescriptor: Int32
    private let queue = Mutex<[String]>([])

    public init() {
        var descriptors: [Int32] = [-1, -1]
        if pipe(&descriptors) == 0 {
            for descriptor in descriptors {
                _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
                _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            }
        }
        readDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
    }

    /// Routes SIGINT, SIGTERM, SIGHUP and SIGWINCH to this pipe (once per process).
    public func installSignalHandlers() {
        almanac_signals_install(writeDescriptor)
    }

    /// Queues a message for the person at the prompt; safe from any thread.
    public func post(_ message: String) {
        queue.withLock { $0.append(message) }
        var byte = Self.messageByte
        _ = write(writeDescriptor, &byte, 1)
    }

    /// Wakes a wait without a message (a load finished).
    public func wake() {
        var byte = Self.wakeByte
        _ = write(writeDescriptor, &byte, 1)
    }

    /// Takes every queued message.
    public func takeMessages() -> [String] {
        queue.withLock { messages in
            defer { messages.removeAll() }
            return messages
        }
    }

    public var hasMessages: Bool { queue.withLock { !$0.isEmpty } }

    /// Empties the pipe; the counters and the queue say what happened.
    public func drain() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while buffer.withUnsafeMutableBytes({ read(readDescriptor, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Sleeps until the pipe is written to or `milliseconds` pass.
    public func wait(milliseconds: Int32) {
        var descriptor = pollfd(fd: readDescriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, milliseconds)
        drain()
    }
}
