import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Threads for background work (loads, reading, indexes) that never receive the signals the
/// shell handles. The kernel delivers a signal sent to the process to any thread that does
/// not block it; the line editor's handlers must run on the thread that owns the terminal
/// (libedit's handler reads its editor through a global that is cleared as the prompt
/// returns, so a hang-up landing on another thread at that moment crashed the shell).
public enum BackgroundThread {
    /// Signals that stay with the main thread.
    static let shellSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGQUIT, SIGTSTP, SIGCONT]

    /// Starts `body` on a new thread; `stackSize` for work that recurses (parsing nests).
    public static func start(name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        if let stackSize { thread.stackSize = stackSize }
        thread.name = name
        // A new thread inherits the mask of the one that creates it: block, create, restore,
        // so that not even its first instruction can take one of these signals.
        var blocked = sigset_t()
        var previous = sigset_t()
        sigemptyset(&blocked)
        for signal in shellSignals { sigaddset(&blocked, signal) }
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        thread.start()
        pthread_sigmask(SIG_SETMASK, &previous, nil)
    }
}
