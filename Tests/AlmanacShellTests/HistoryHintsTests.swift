import Testing
@testable import AlmanacShell

/// Which dataset each history line was typed under, as replayed from the `use` commands.
@Suite struct HistoryHintsTests {
    @Test("a line's dataset is the last `use` before it, in any case and after `;`")
    func contextFromUseCommands() {
        let hints = HistoryHints([
            "USE Countries", "sort population desc",
            "count; use species", "sort average_height",
            "search reuse", "sort name",  // "reuse" is not a use command: still species
        ])
        #expect(hints.hint(for: "sort ", context: "countries") == "population desc")
        #expect(hints.hint(for: "sort ", context: "species") == "name")
        #expect(hints.hint(for: "sort a", context: "species") == "verage_height")
        // Under another dataset, the newest line that starts so.
        #expect(hints.hint(for: "sort ", context: "planets") == "name")
        #expect(hints.hint(for: "", context: nil) == nil)
    }

    @Test("the dataset after a line: its last two-word use, else the one before")
    func contextAfterLine() {
        #expect(HistoryHints.context(after: "use stations", startingFrom: nil) == "stations")
        #expect(HistoryHints.context(after: "Use Planets; count", startingFrom: "stations") == "planets")
        #expect(HistoryHints.context(after: "filter reused = 1", startingFrom: "stations") == "stations")
        #expect(HistoryHints.context(after: "use", startingFrom: "stations") == "stations")
        // The plain form read without the tokenizer, and the others with it, alike.
        #expect(HistoryHints.context(after: "  use   my-data.v2  ", startingFrom: nil) == "my-data.v2")
        #expect(HistoryHints.context(after: "use stations extra", startingFrom: "planets") == "planets")
        #expect(HistoryHints.context(after: "use 'my data'", startingFrom: nil) == "my data")
        #expect(HistoryHints.context(after: "use Станции", startingFrom: nil) == "станции")
        #expect(HistoryHints.context(after: "use all", startingFrom: "stations") == nil)
        #expect(HistoryHints.context(after: "usestations", startingFrom: "planets") == "planets")
    }
}
