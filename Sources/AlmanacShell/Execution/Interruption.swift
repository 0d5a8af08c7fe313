#if canImport(Glibc)
import Glibc
#endif
import AlmanacCore
import CShims

/// Ctrl-C and friends, as the shell sees them: counters the signal handler bumps.
///
/// A command is cancelled when SIGINT arrives after it started; SIGTERM and SIGHUP cancel
/// everything and end the shell once the current command has stopped.
public struct Interruption: Sendable {
    public init() {}

    public var interruptCount: UInt { almanac_signal_count(SIGINT) }

    public var terminationRequested: Bool { terminationSignal != nil }

    /// SIGTERM or SIGHUP, when one arrived: the shell ends, with status 128 + its number.
    public var terminationSignal: Int32? {
        if almanac_signal_count(SIGTERM) > 0 { return SIGTERM }
        if almanac_signal_count(SIGHUP) > 0 { return SIGHUP }
        return nil
    }

    /// Cancelled by any Ctrl-C from now on, or by a request to terminate.
    public func cancellationFromNow() -> Cancellation {
        let start = almanac_signal_count(SIGINT)
        return Cancellation {
            almanac_signal_count(SIGINT) != start
                || almanac_signal_count(SIGTERM) > 0 || almanac_signal_count(SIGHUP) > 0
        }
    }
}
