import AlmanacCore

/// Tells the user at the prompt about loads nobody is waiting for (those started at launch):
/// failures always and successes that took long enough to notice (every one with --verbose).
/// A script's are said when a command uses them (`Session.announceUse`), in a fixed order,
/// not as they end. Runs on the loading thread, so it only queues messages for the main thread.
struct LoadAnnouncer: Sendable {
    let notifier: Notifier
    let interactive: Bool
    let quiet: Bool
    let verbose: Bool
    /// The data folder is missing, which was said at start: the bundled datasets' failures say nothing new.
    var failuresExplained = false

    /// Loads quicker than this finish before anyone could have typed; they stay silent.
    static let noticeable = 0.5

    func announce(_ event: LoadEvent) {
        guard interactive, !event.load.isWatched else { return }
        switch event.result {
        case let .success(dataset):
            let slow = event.load.progress.snapshot.elapsed >= Self.noticeable
            if verbose || (!quiet && slow) {
                notifier.post(LoadSummary.line(for: dataset))
            }
            if verbose, let warnings = LoadSummary.warnings(for: dataset) { notifier.post(warnings) }
        case .failure(.cancelled):
            break
        case let .failure(failure):
            if !failuresExplained || verbose { notifier.post("\(event.name): load failed: \(SafeText.escape(failure.description))") }
        }
    }
}
