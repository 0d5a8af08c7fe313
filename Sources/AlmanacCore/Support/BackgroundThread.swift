import CGlibc
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
    /// `elsewhere`: the thread works beside its busy creator (a second half of a parse), so it
    /// starts on another CPU, then may move. Left to the scheduler, a new thread beside a busy
    /// creator waited 0.6–3 ms on the creator's CPU in 7 of 8 tries on a 2-core machine (for
    /// the next load balance); placed, it ran within 0.1 ms.
    public static func start(name: String, stackSize: Int? = nil, elsewhere: Bool = false, _ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        let started = shellSignals.withUnsafeBufferPointer { signals in
            almanac_thread_start({ context in
                Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
            }, context, name, stackSize ?? 0, elsewhere ? 1 : 0, signals.baseAddress, Int32(signals.count))
        }
        // Without a thread, the work still gets done (late) rather than never.
        if started != 0 { Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run() }
    }

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
