import CPTY
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The last resort after a termination signal (CGlibc's `Ending.c`): when the main thread
/// has not ended the process `grace` after SIGTERM, SIGHUP or, in a script, SIGINT, a timer's
/// SIGALRM does — 128 + the signal. Probed in a child whose main thread never ends it.
@Suite("The watchdog ends what the main thread does not")
struct WatchdogTests {
    static let grace: Int32 = 150

    @Test("a termination signal: the process ends with 128 + it, after the grace and not long after",
          arguments: [(SIGTERM, Int32(0)), (SIGHUP, Int32(0)), (SIGINT, Int32(1))] as [(Int32, Int32)])
    func terminationEndsTheProcessAfterTheGrace(signal: Int32, interruptEnds: Int32) {
        var elapsed = 0.0
        let status = cpty_watchdog_probe(Self.grace, interruptEnds, signal, 5000, &elapsed)
        #expect(status == 128 + signal)
        #expect(elapsed >= Double(Self.grace), "ended after \(elapsed) ms, before the grace")
        #expect(elapsed < 1000, "ended after \(elapsed) ms")
    }

    @Test("Ctrl-C at the prompt (interrupt_ends off) does not end the process")
    func interruptAtThePromptIsNotTermination() {
        var elapsed = 0.0
        let status = cpty_watchdog_probe(Self.grace, 0, SIGINT, 600, &elapsed)
        #expect(status == -2, "status \(status) after \(elapsed) ms")
    }
}
