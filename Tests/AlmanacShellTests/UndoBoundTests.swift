import Foundation
import Testing
@testable import AlmanacShell

/// `back` keeps a bounded history: thousands of filters cost each its own work and memory.
@Suite struct UndoBoundTests {
    /// 250 countries; `population > N` keeps those above N, one fewer filter after another.
    @Test("back undoes the last 100 changes, says once that older ones are forgotten, then that there is nothing")
    func backIsBounded() {
        let shell = ShellHarness(load: ["countries"])
        #expect(shell.run("use countries; set pagesize 1"))
        var noted = 0
        for threshold in 1...150 {
            let result = shell.output("filter population > \(threshold * 1000)")
            #expect(result.ok)
            if result.err.contains("note: back undoes the last 100 changes; older ones are forgotten") { noted += 1 }
        }
        #expect(noted == 1)
        #expect(shell.session.undoable.count == 100)
        // After 100 backs the results are those of the 50th filter: population > 50,000.
        for _ in 1...100 { #expect(shell.run("back")) }
        let expected = Self.populations.filter { $0 > 50_000 }.count
        #expect(shell.output("count").out == "\(expected)\n")
        let more = shell.output("back")
        #expect(!more.ok && more.err.contains("nothing to undo"))
    }

    /// Each country's population, from the file (0 where it has none).
    static let populations: [Double] = {
        let data = FileManager.default.contents(atPath: ShellHarness.dataDirectory + "/countries.json") ?? Data()
        let countries = (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] ?? []
        return countries.map { ($0["population"] as? NSNumber)?.doubleValue ?? 0 }
    }()

    @Test("the fields a listing shows after thousands of filters are worked out once per step")
    func fieldsInUseAfterManyFilters() {
        let shell = ShellHarness(load: ["countries"])
        #expect(shell.run("use countries; set pagesize 1"))
        for threshold in 1...2000 { shell.run("filter population > \(threshold) and area > 0") }
        #expect(shell.run("sort name"))
        let source = try? shell.session.results()
        #expect(source?.fieldsInUse == ["name", "population", "area"])
    }
}
