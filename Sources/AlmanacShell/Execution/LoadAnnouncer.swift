import AlmanacCore

/// Tells the user about loads nobody is waiting for (those started at launch): at the prompt,
/// failures always and successes that took long enough to notice; in scripts only with
/// --verbose. Runs on the loading thread, so it only queues messages for the main thread.
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
        guard !event.load.isWatched else { return }
        switch event.result {
        case let .success(dataset):
            let slow = event.load.progress.snapshot.elapsed >= Self.noticeable
            if verbose || (interactive && !quiet && slow) {
                notifier.post(LoadSummary.line(for: dataset))
            }
            if verbose, let warnings = LoadSummary.warnings(for: dataset) { notifier.post(warnings) }
        case .failure(.cancelled):
            break
        case let .failure(failure):
            if (interactive && !failuresExplained) || verbose { notifier.post("\(event.name): load failed: \(SafeText.escape(failure.description))") }
        }
    }
}
