import Dispatch
import Foundation
import Glibc
import Synchronization
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

@Suite struct BackgroundThreadPlacementTests {
    /// What /proc says of the calling thread: the CPUs it may run on, its name, and the CPU it
    /// last ran on (field 39 of stat).
    private struct Seen {
        var allowed = ""
        var name = ""
        var cpu = -1

        static func now() -> Seen {
            func read(_ file: String) -> String { (try? String(contentsOfFile: "/proc/thread-self/" + file, encoding: .utf8)) ?? "" }
            var seen = Seen()
            seen.allowed = read("status").split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") }
                .map { $0.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces) } ?? ""
            seen.name = read("comm").trimmingCharacters(in: .whitespacesAndNewlines)
            let stat = read("stat")
            if let close = stat.lastIndex(of: ")") {
                // Fields after the name, from the third (state): the processor is field 39.
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                if fields.count > 36 { seen.cpu = Int(fields[36]) ?? -1 }
            }
            return seen
        }
    }

    /// A second half of a parse starts beside its busy creator, not queued behind it, and is
    /// then free to run wherever the process may.
    @Test func aThreadStartedElsewhereBeginsOnAnotherCPUAndMayThenRunAnywhere() {
        let process = Seen.now()
        guard process.allowed.contains(",") || process.allowed.contains("-") else { return }  // one CPU
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var creator = Seen()
        nonisolated(unsafe) var started = Seen()
        // The creator keeps its CPU busy, as the first half of a parse does.
        BackgroundThread.start(name: "creator") {
            let spinning = Atomic<Bool>(true)
            creator = Seen.now()
            BackgroundThread.start(name: "second half", elsewhere: true) {
                started = Seen.now()
                spinning.store(false, ordering: .releasing)
            }
            while spinning.load(ordering: .acquiring) {}
            done.signal()
        }
        done.wait()
        #expect(started.cpu >= 0 && creator.cpu >= 0)
        #expect(started.cpu != creator.cpu, "the new thread ran on its creator's CPU \(creator.cpu)")
        #expect(started.allowed == process.allowed)
        #expect(started.name == "second half")
        #expect(creator.name == "creator")
    }
}
