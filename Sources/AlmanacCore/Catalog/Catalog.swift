import CGlibc
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The shared in-memory catalog: every dataset by name, its current contents, and the load
/// in progress, if any.
///
/// Only the catalog changes shared state. A load builds its dataset off to the side on a
/// background thread and the catalog swaps it in whole when, and only when, the whole load
/// succeeded; a failed or cancelled load leaves the previous contents in place.
public final class Catalog: Sendable {
    /// Stack for threads that parse: the parser recurses once per nesting level (512 at most).
    static let parsingStackSize = 16 << 20

    /// Called on the loading thread when a load ends, whatever the outcome.
    public typealias Observer = @Sendable (LoadEvent) -> Void
    /// Called on the loading thread with a dataset's name when, after its load, its name index
    /// and fields are built (what the prompt knows of its fields may change then).
    public typealias PreparationObserver = @Sendable (String) -> Void

    private let state = Mutex(State())
    /// Links the user declared (`link pets.owner_id to owners.id`).
    let declaredLinks = Mutex<[LinkDefinition]>([])
    private let loader: DatasetLoader
    /// In a struct, not as bare functions: a Mutex of a function type wraps the stored closure
    /// in two more reabstraction thunks on every read (see `Dataset.Neighbours`).
    private let observers = Mutex(Observers())

    private struct Observers {
        var load: Observer?
        var preparation: PreparationObserver?
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var order: [String] = []
        var nextLoadID = 0
    }

    private struct Entry {
        var dataset: Dataset?
        /// A table attached in place of loaded contents: commands ask its database.
        var table: (any AttachedTable)?
        var load: ActiveLoad?
        var lastFailure: LoadFailure?
        /// Where the current contents came from (or, before any success, where they were
        /// first asked for: the bundled file): what `datasets` shows and `load NAME` reloads.
        /// A failed or cancelled load from elsewhere does not change it.
        var request: LoadRequest
        /// Registered, not loaded yet: the load starts when something first asks for it.
        var deferred = false
        /// A load from elsewhere replaced the load of `request` before anything was loaded:
        /// if it fails, `request` is loaded again, so the dataset is not left empty.
        var ownLoadInterrupted = false
    }

    /// Whether a finished load goes on to build the name index and field columns on its
    /// thread, so that the first search or filter at a prompt does not wait for them. A
    /// script, which exits after its last command, builds only what its commands ask for.
    private let preparesIndexes: Bool
    /// Whether loads run at a lower priority, yielding to the person typing at a prompt. A
    /// script has nobody typing, and its next command waits for the load: on a machine busy
    /// with other work, nice 5 gave the load a third of the CPU share the script's peers got.
    let loadsYieldToTyping: Bool

    public init(loader: DatasetLoader = DatasetLoader(), preparesIndexes: Bool = true, loadsYieldToTyping: Bool = true) {
        self.loader = loader
        self.preparesIndexes = preparesIndexes
        self.loadsYieldToTyping = loadsYieldToTyping
    }

    public func observe(_ observer: @escaping Observer) { observers.withLock { $0.load = observer } }

    public func observePreparation(_ observer: @escaping PreparationObserver) { observers.withLock { $0.preparation = observer } }

    // MARK: - Reading

    /// Dataset names, in the order they were first registered.
    public var names: [String] { state.withLock { $0.order } }

    /// The current contents of `name`, whether or not a reload is running.
    public func dataset(_ name: String) -> Dataset? { state.withLock { $0.entries[name.lowercased()]?.dataset } }

    /// The load of `name` still running, if any. A cancelled load no longer counts, even in
    /// the moment before its thread notices.
    public func activeLoad(_ name: String) -> ActiveLoad? {
        state.withLock { $0.entries[name.lowercased()]?.load }.flatMap { $0.isCancelled ? nil : $0 }
    }

    /// Whether `name` is known (loaded, loading or failed).
    public func contains(_ name: String) -> Bool { state.withLock { $0.entries[name.lowercased()] != nil } }

    /// What `datasets` shows, one per dataset.
    public func statuses() -> [DatasetStatus] {
        state.withLock { state in
            state.order.compactMap { name in
                guard let entry = state.entries[name] else { return nil }
                let running = entry.load.flatMap { $0.isCancelled ? nil : $0 }
                return DatasetStatus(name: name, dataset: entry.dataset, table: entry.table, loading: running?.progress.snapshot,
                                     failure: entry.lastFailure, source: entry.request.source)
            }
        }
    }

    /// The request `name` was last loaded with; nil for an attached table (it is attached again, not loaded).
    public func request(for name: String) -> LoadRequest? {
        state.withLock { state in state.entries[name.lowercased()].flatMap { $0.table == nil ? $0.request : nil } }
    }

    /// The table attached as `name`, if it is one.
    public func table(_ name: String) -> (any AttachedTable)? { state.withLock { $0.entries[name.lowercased()]?.table } }

    /// Attaches `table` as `name`, in place of whatever had that name (its load, if one is
    /// running, is cancelled). `request` is what a later `load` of another source starts from.
    public func attach(_ table: any AttachedTable, as name: String) {
        let name = name.lowercased()
        table.link(to: self)
        let running = state.withLock { state -> ActiveLoad? in
            if state.entries[name] == nil { state.order.append(name) }
            let previous = state.entries[name]
            // The request is kept for its name only: `load NAME` attaches the table again.
            let request = previous?.request ?? LoadRequest(name: name, source: .file(path: ""), model: GenericModel.self)
            state.entries[name] = Entry(dataset: nil, table: table, load: nil, lastFailure: nil, request: request)
            return previous?.load
        }
        running?.cancel()
    }

    // MARK: - Loading

    /// Makes `request` known by its name without loading it: `start(_:)` or `startDeferred()`
    /// begins the load when something needs it (a script loads only the datasets it uses).
    /// A name already known is left as it is.
    public func register(_ request: LoadRequest) {
        var request = request
        request.name = request.name.lowercased()
        state.withLock { state in
            guard state.entries[request.name] == nil else { return }
            state.order.append(request.name)
            state.entries[request.name] = Entry(dataset: nil, table: nil, load: nil, lastFailure: nil, request: request, deferred: true)
        }
    }

    /// Starts the load of `name` if it was registered and never started. Returns at once.
    public func start(_ name: String) {
        let request = state.withLock { state -> LoadRequest? in
            guard var entry = state.entries[name.lowercased()], entry.deferred else { return nil }
            entry.deferred = false  // taken: a second caller does not start it again
            state.entries[name.lowercased()] = entry
            return entry.request
        }
        if let request { load(request) }
    }

    /// Starts every registered load not started yet.
    public func startDeferred() {
        for name in state.withLock({ state in state.order.filter { state.entries[$0]?.deferred == true } }) { start(name) }
    }

    /// Whether `name` was registered and its load has not started.
    public func isDeferred(_ name: String) -> Bool { state.withLock { $0.entries[name.lowercased()]?.deferred == true } }

    /// Starts loading in the background, replacing (cancelling) any load of the same name
    /// already running. Returns at once. `watched`: the caller waits for this load and reports
    /// its outcome itself. It is marked before its thread starts: a load that ends before the
    /// caller gets to wait would otherwise be announced too, and reported twice.
    @discardableResult
    public func load(_ request: LoadRequest, watched: Bool = false) -> ActiveLoad {
        var request = request
        request.name = request.name.lowercased()
        let (load, previous) = state.withLock { state -> (ActiveLoad, ActiveLoad?) in
            state.nextLoadID += 1
            let load = ActiveLoad(id: state.nextLoadID, request: request, watched: watched)
            var entry = state.entries[request.name] ?? Entry(dataset: nil, table: nil, load: nil, lastFailure: nil, request: request)
            if state.entries[request.name] == nil { state.order.append(request.name) }
            let previous = entry.load
            // The dataset's own source (its bundled file) was loading, or was to load, and a
            // load from elsewhere takes its place before anything was loaded.
            let ownPending = entry.deferred || previous.map { $0.request.source == entry.request.source } == true
            if ownPending, entry.dataset == nil, request.source != entry.request.source {
                entry.ownLoadInterrupted = true
            }
            entry.load = load
            entry.deferred = false
            state.entries[request.name] = entry
            return (load, previous)
        }
        previous?.cancel()
        // Parsing recurses once per nesting level; give it room beyond the default.
        BackgroundThread.start(name: "load \(request.name)", stackSize: Self.parsingStackSize) { [self] in self.run(load) }
        return load
    }

    private func run(_ load: ActiveLoad) {
        // Loading yields to the person typing: a lower priority for this thread only.
        #if os(Linux)
        if loadsYieldToTyping { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(almanac_gettid()), 5) }
        #endif
        let result: Result<Dataset, LoadFailure>
        do {
            result = .success(try loader.load(load.request, progress: load.progress, cancellation: load.cancellation))
        } catch {
            result = .failure(load.isCancelled ? .cancelled : error)
        }
        let (current, again) = state.withLock { state -> (Bool, ActiveLoad?) in
            guard var entry = state.entries[load.request.name], entry.load === load else { return (false, nil) }
            entry.load = nil
            var again: ActiveLoad?
            switch result {
            case let .success(dataset):
                entry.dataset = dataset
                dataset.link(to: self)
                entry.table = nil
                entry.request = load.request
                entry.lastFailure = nil
                entry.ownLoadInterrupted = false
            case let .failure(failure):
                entry.lastFailure = failure
                if entry.dataset == nil, entry.ownLoadInterrupted {
                    // This load cancelled the dataset's own (the bundled file's) and failed:
                    // load that again, in place before anyone sees the dataset empty.
                    entry.ownLoadInterrupted = false
                    state.nextLoadID += 1
                    again = ActiveLoad(id: state.nextLoadID, request: entry.request)
                    entry.load = again
                }
            }
            state.entries[load.request.name] = entry
            return (true, again)
        }
        if let again {
            BackgroundThread.start(name: "load \(again.request.name)", stackSize: Self.parsingStackSize) { [self] in self.run(again) }
        }
        load.finish(result)
        if current, let observer = observers.withLock({ $0.load }) {
            observer(LoadEvent(name: load.request.name, load: load, result: result))
        }
        // Indexes build here, after the load, so the first search or TAB does not pay for them.
        if current, preparesIndexes, case let .success(dataset) = result {
            _ = NameIndex.of(dataset)
            _ = dataset.fields
            observers.withLock { $0.preparation }?(load.request.name)
        }
    }

    /// Adds a dataset built elsewhere (tests, generated data), replacing any of the same name.
    public func insert(_ dataset: Dataset, request: LoadRequest) {
        dataset.link(to: self)
        state.withLock { state in
            let name = dataset.name.lowercased()
            if state.entries[name] == nil { state.order.append(name) }
            state.entries[name] = Entry(dataset: dataset, table: nil, load: nil, lastFailure: nil, request: request)
        }
    }

    /// Loads `request` and waits for it (tests and scripts that need a result now).
    public func loadAndWait(_ request: LoadRequest) throws(LoadFailure) -> Dataset {
        let load = load(request)
        load.wait()
        return try load.result!.get()
    }
}

/// A load running in the background: its progress, its cancellation, its result.
public final class ActiveLoad: Sendable {
    public let id: Int
    public let request: LoadRequest
    public let progress = LoadProgress()
    private let cancelled = Atomic<Bool>(false)
    private let outcome = Mutex<Result<Dataset, LoadFailure>?>(nil)
    private let done = DispatchGroup()

    init(id: Int, request: LoadRequest, watched: Bool = false) {
        self.id = id
        self.request = request
        self.watched = Atomic(watched)
        done.enter()
    }

    private let watched: Atomic<Bool>

    public func cancel() { cancelled.store(true, ordering: .relaxed) }

    /// Someone is waiting on this load in the foreground and reports its outcome itself. For a
    /// load started elsewhere (at launch); one started to be waited for is `load(_:watched:)`.
    public func markWatched() { watched.store(true, ordering: .relaxed) }
    public var isWatched: Bool { watched.load(ordering: .relaxed) }
    public var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    var cancellation: Cancellation {
        Cancellation { [self] in self.isCancelled }
    }

    public var result: Result<Dataset, LoadFailure>? { outcome.withLock { $0 } }
    public var isFinished: Bool { result != nil }

    /// Waits up to `seconds`; returns whether the load has finished.
    @discardableResult
    public func wait(seconds: Double) -> Bool { done.wait(timeout: .now() + seconds) == .success }

    public func wait() { done.wait() }

    func finish(_ result: Result<Dataset, LoadFailure>) {
        outcome.withLock { $0 = result }
        done.leave()
    }
}

/// A load that ended: successfully, with an error, or cancelled.
public struct LoadEvent: Sendable {
    public var name: String
    public var load: ActiveLoad
    public var result: Result<Dataset, LoadFailure>
}

/// One line of `datasets`.
public struct DatasetStatus: Sendable {
    public var name: String
    /// The contents now answering queries (nil before the first successful load).
    public var dataset: Dataset?
    /// The table answering instead, when the dataset is attached from a database.
    public var table: (any AttachedTable)?
    /// Progress of a load still running.
    public var loading: LoadProgress.Snapshot?
    /// Why the last load failed, when it did.
    public var failure: LoadFailure?
    public var source: LoadSource
}
