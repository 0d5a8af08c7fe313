import Dispatch
import Glibc
import Testing
@testable import AlmanacCore

@Suite struct BackgroundThreadTests {
    /// Signals for the shell must reach only its main thread (see `BackgroundThread`).
    @Test func backgroundThreadsBlockTheShellsSignalsAndTheCallerKeepsItsMask() {
        var before = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &before)
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var mask = sigset_t()
        BackgroundThread.start(name: "test") {
            pthread_sigmask(SIG_BLOCK, nil, &mask)
            done.signal()
        }
        done.wait()
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGWINCH] {
            #expect(sigismember(&mask, signal) == 1, "signal \(signal) is not blocked on the background thread")
        }
        var after = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &after)
        for signal in BackgroundThread.shellSignals {
            #expect(sigismember(&after, signal) == sigismember(&before, signal), "the caller's mask changed for \(signal)")
        }
    }
}
