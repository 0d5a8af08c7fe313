import Synchronization

/// Failures for a test to inject into `SystemCalls`: which call fails how, the nth time.
///
/// A plan covers the files under one folder the test owns — calls that name a path there,
/// and calls on descriptors opened for such paths while it is in force — so that tests running in parallel (Swift
/// Testing's default) never meet each other's faults, whatever thread does the work (a load's
/// second half, the catalog's loading thread). Plain values, never closures.
package struct FaultPlan: Sendable, Equatable {
    package var folder: String
    package var faults: [Fault]

    package init(folder: String, _ faults: [Fault]) {
        self.folder = folder
        self.faults = faults
    }
}

package struct Fault: Sendable, Equatable {
    package enum Call: Sendable, Hashable {
        case open, mkstemp, read, pread, write, fsync, fdatasync, ftruncate, close
        case fstat, stat, lstat, fchmod, flock, mmap, rename, link, unlink, mkdir
    }

    package enum Effect: Sendable, Equatable {
        /// The call does nothing and fails with this errno. (`close` still closes: Linux frees
        /// the descriptor whatever close returns.)
        case fails(Int32)
        /// `read`, `pread`, `write`: at most this many bytes move (a short read or write).
        case short(Int)
    }

    package var call: Call
    package var effect: Effect
    /// Counted among this plan's calls of the same kind, from 1.
    package var nth: Int
    /// How many calls from the nth on (`Fault.always`: every one).
    package var times: Int

    package static let always = Int.max

    package init(_ call: Call, _ effect: Effect, nth: Int = 1, times: Int = 1) {
        self.call = call
        self.effect = effect
        self.nth = nth
        self.times = times
    }

    /// The call with `errno`, from the nth time on: what a full disk does.
    package static func failing(_ call: Call, _ code: Int32, from nth: Int = 1) -> Fault {
        Fault(call, .fails(code), nth: nth, times: always)
    }
}

/// A plan in force until `remove()`; says how often its faults were met.
package struct InstalledFaults: Sendable {
    let id: Int

    /// How many calls of this kind under the plan's folder failed or came up short.
    package func injected(_ call: Fault.Call) -> Int {
        FaultInjection.state.withLock { $0.plans[id]?.injected[call] ?? 0 }
    }

    /// How many calls of this kind were made under the plan's folder.
    package func calls(_ call: Fault.Call) -> Int {
        FaultInjection.state.withLock { $0.plans[id]?.seen[call] ?? 0 }
    }

    package func remove() {
        FaultInjection.state.withLock { state in
            guard state.plans.removeValue(forKey: id) != nil else { return }
            state.descriptors = state.descriptors.filter { $0.value != id }
            FaultInjection.installed.subtract(1, ordering: .relaxed)
        }
    }
}

enum FaultInjection {
    /// How many plans are installed: the one load every system call pays without one.
    static let installed = Atomic<Int>(0)
    static let state = Mutex(State())

    struct State: Sendable {
        var plans: [Int: Active] = [:]
        /// Descriptors opened for a path under a plan's folder, and that plan.
        var descriptors: [Int32: Int] = [:]
        var nextID = 1
    }

    struct Active: Sendable {
        var prefix: String
        var faults: [Fault]
        var seen: [Fault.Call: Int] = [:]
        var injected: [Fault.Call: Int] = [:]

        func covers(_ path: String) -> Bool {
            path.utf8.starts(with: prefix.utf8) || path.utf8.elementsEqual(prefix.utf8.dropLast())
        }

        /// Counts the call and returns what the plan does to it.
        mutating func effect(_ call: Fault.Call) -> Fault.Effect? {
            let number = seen[call, default: 0] + 1
            seen[call] = number
            guard let fault = faults.first(where: { $0.call == call && number >= $0.nth && number - $0.nth < $0.times }) else { return nil }
            injected[call, default: 0] += 1
            return fault.effect
        }
    }

    @inline(__always) static var isActive: Bool { installed.load(ordering: .relaxed) != 0 }

    static func install(_ plan: FaultPlan) -> InstalledFaults {
        var folder = plan.folder
        while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
        let id = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.plans[id] = Active(prefix: folder + "/", faults: plan.faults)
            return id
        }
        installed.add(1, ordering: .relaxed)
        return InstalledFaults(id: id)
    }

    /// A call naming `paths` (rename and link name two).
    static func effect(_ call: Fault.Call, paths: String...) -> Fault.Effect? {
        state.withLock { state in
            guard let id = state.plans.first(where: { plan in paths.contains { plan.value.covers($0) } })?.key else { return nil }
            return state.plans[id]?.effect(call)
        }
    }

    static func effect(_ call: Fault.Call, descriptor: Int32) -> Fault.Effect? {
        state.withLock { state in
            guard let id = state.descriptors[descriptor] else { return nil }
            return state.plans[id]?.effect(call)
        }
    }

    /// Tracks (or stops tracking, when the number was reused for another path) a new descriptor.
    static func opened(_ descriptor: Int32, path: String) {
        guard descriptor >= 0 else { return }
        state.withLock { state in
            state.descriptors[descriptor] = state.plans.first { $0.value.covers(path) }?.key
        }
    }

    static func closed(_ descriptor: Int32) {
        _ = state.withLock { $0.descriptors.removeValue(forKey: descriptor) }
    }
}

extension FaultPlan {
    /// Puts the plan in force until the returned value's `remove()`.
    package func install() -> InstalledFaults { FaultInjection.install(self) }
}
