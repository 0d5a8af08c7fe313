import AlmanacCore
import Foundation
import Synchronization

/// How soon work stops after Ctrl-C: the operation runs on its own thread with a
/// `Cancellation` that the shell would answer from Ctrl-C; the probe flips it after a delay and
/// times how long the operation takes to return after that.
enum CancelProbe {
    struct Trial: Codable {
        /// When the flag was set, after the start.
        var cancelAfter: Double
        /// From the flag to the operation's return, in ms (0 when it had already finished).
        var latency: Double
        var finishedBeforeCancel: Bool
        /// Whether it returned by throwing (cancelled) rather than finishing its work.
        var stoppedByCancellation: Bool
    }

    struct Result: Codable {
        var id: String
        var title: String
        /// The operation's own median, uncancelled.
        var duration: Double
        var trials: [Trial]
        /// Whether the operation takes a `Cancellation` at all.
        var acceptsCancellation: Bool
        var note: String?

        var worstLatency: Double { trials.map(\.latency).max() ?? 0 }
    }

    private final class Shared: Sendable {
        let cancelled = Atomic<Bool>(false)
        let finishedAt = Atomic<UInt64>(0)
        let threw = Atomic<Bool>(false)
    }

    /// Cancels `operation` at 20 %, 50 % and 80 % of its usual `duration`.
    static func probe(id: String, title: String, duration: Double, acceptsCancellation: Bool = true, note: String? = nil,
                      prepare: () -> Void = {}, _ operation: @escaping @Sendable (Cancellation) throws -> Void) -> Result {
        var trials: [Trial] = []
        for fraction in [0.2, 0.5, 0.8] {
            prepare()
            let shared = Shared()
            let done = DispatchSemaphore(value: 0)
            let cancellation = Cancellation { shared.cancelled.load(ordering: .relaxed) }
            let thread = Thread {
                do { try operation(cancellation) } catch { shared.threw.store(true, ordering: .relaxed) }
                shared.finishedAt.store(Clock.now(), ordering: .sequentiallyConsistent)
                done.signal()
            }
            thread.stackSize = 16 << 20
            let delay = duration * fraction
            let started = Clock.now()
            thread.start()
            let target = started + UInt64(delay * 1e6)
            while true {
                let now = Clock.now()
                guard now < target else { break }
                let left = target - now
                if left > 200_000 { usleep(UInt32(min(left - 100_000, 50_000_000) / 1000)) }
            }
            let cancelAt = Clock.now()
            shared.cancelled.store(true, ordering: .sequentiallyConsistent)
            done.wait()
            let finished = shared.finishedAt.load(ordering: .sequentiallyConsistent)
            let early = finished <= cancelAt
            trials.append(Trial(
                cancelAfter: Double(cancelAt - started) / 1e6,
                latency: early ? 0 : Double(finished - cancelAt) / 1e6,
                finishedBeforeCancel: early,
                stoppedByCancellation: shared.threw.load(ordering: .relaxed)
            ))
        }
        return Result(id: id, title: title, duration: duration, trials: trials, acceptsCancellation: acceptsCancellation, note: note)
    }
}
