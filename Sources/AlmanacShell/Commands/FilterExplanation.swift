import AlmanacCore
import Foundation

/// What `filter` says beside its answer: why it is empty, or the near spelling it missed.
extension Session {
    /// How long an explanation may take (a database asked several questions); past it, or at
    /// Ctrl-C, the answer goes without one.
    static let explanationSeconds = 3.0

    /// Adds to `answer` (the listing of the results after `expression`) the lines that explain
    /// it, on standard error: `no records — …` when it is empty (then a terminal shows only
    /// that line, not `no records` too), `also 'mammals' (1)` when a rare other form of a value
    /// would add records.
    func explain(_ expression: FilterExpression, before: any ResultsSource, answer: inout CommandResult) {
        // Whether any record is left, not how many: a database stops at the first (a script's
        // listing that is never written never counts them).
        guard var after = source, let empty = try? after.isEmpty(cancellation: cancellation) else { return }
        let budget = explanationBudget()
        if empty {
            guard let lines = try? Explanation.empty(after: expression, on: before, cancellation: budget), !lines.isEmpty else { return }
            explainEmpty(lines, in: &answer)
        } else if let also = try? Explanation.also(after: expression, on: before, kept: { try after.count(fresh: false, cancellation: budget) },
                                                         cancellation: budget) {
            answer.messages.append(also)
        }
    }

    /// Cancelled at Ctrl-C or once an explanation has taken `explanationSeconds`.
    func explanationBudget() -> Cancellation {
        let outer = cancellation
        let deadline = Date().addingTimeInterval(Self.explanationSeconds)
        return Cancellation { outer.isCancelled || Date() > deadline }
    }

    /// `lines` said on standard error beside an empty answer; a terminal shows them instead of `no records`.
    func explainEmpty(_ lines: [String], in answer: inout CommandResult) {
        answer.messages += lines
        if output.terminal.isTerminal, !settings.format.isMachineReadable { answer.emptyNote = "" }
    }

    /// What left `source` without records, for an answer about them (`no records to group — …`):
    /// the filters in force when there were records before them, else the step that started
    /// afresh, else the dataset itself. Counts asked within the explanation's time.
    func leftNone(_ source: any ResultsSource) -> String {
        let budget = explanationBudget()
        let undo = " ('back' undoes the last step)"
        let conditions = source.conditions.flatMap(\.conjuncts)
        if !conditions.isEmpty, var before = try? source.applying(.clear, cancellation: budget),
           let count = try? before.count(fresh: false, cancellation: budget), count > 0 {
            let text = conditions.map(\.shown).joined(separator: " and ")
            let filters = conditions.count == 1 ? "the filter \(text) leaves" : text.count <= 80 ? "the filters \(text) leave"
                : "the \(conditions.count) filters in force leave"
            return "\(filters) none of \(count.grouped) \(count == 1 ? "record" : "records")" + undo
        }
        var all = try? freshResults()
        if source.hasSteps, let count = try? all?.count(fresh: false, cancellation: budget), count > 0 {
            return "the last search, near, within, outside, reach or limit left none of \(count.grouped) \(count == 1 ? "record" : "records")" + undo
        }
        return "\(source.datasetNames.joined(separator: ", ")) \(source.datasetNames.count == 1 ? "has" : "have") no records"
    }
}
