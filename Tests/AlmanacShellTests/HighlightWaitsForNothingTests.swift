import AlmanacCore
import Testing
@testable import AlmanacShell

/// Colouring the line is done on every key: it reads what is loaded and never waits for a load.
/// An unknown word asked for the computed columns' names through the results, which wait for
/// the datasets the scope links into: on a slow machine the stations' progress bar was drawn
/// over the prompt as the user typed (`filter rego`), and the line was redrawn without it.
@Suite struct HighlightWaitsForNothingTests {
    /// The datasets neither loaded nor loading.
    static func idle(_ shell: ShellHarness) -> [String] {
        shell.session.catalog.statuses().filter { $0.dataset == nil && $0.loading == nil }.map(\.name).sorted()
    }

    @Test func colouringAnUnknownFieldStartsNoLoad() {
        // Countries loaded; the other bundled datasets known to the catalog, none started.
        let shell = ShellHarness(load: ["countries"])
        for request in DefaultDatasets.requests(in: ShellHarness.dataDirectory) where request.name != "countries" {
            shell.session.catalog.register(request)
        }
        #expect(shell.run("use countries"))
        #expect(shell.output("count").out == "250\n")
        let others = ["people", "planets", "species", "stations"]
        #expect(Self.idle(shell) == others)
        for (line, cursor) in [("filter rego", 11), ("filter regoin = Europe", 22), ("sort regoin", 0)] {
            let spans = Highlighter().spans(of: line, cursor: cursor, in: shell.session)
            #expect(!spans.isEmpty, "\(line)")
        }
        #expect(Self.idle(shell) == others, "colouring the line started a load")
    }
}
