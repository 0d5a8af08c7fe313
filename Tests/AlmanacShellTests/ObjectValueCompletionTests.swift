import Foundation
import Testing
@testable import AlmanacShell

/// TAB after `filter FIELD = ` on a field of objects lists them by their names, with how many
/// records have each, as `group FIELD` counts them and as the filter compares them: never a
/// member's value (a due date, a colour, an id). Counts worked out by hand from the file below.
@Suite struct ObjectValueCompletionTests {
    static let issues = """
        [
         {"number": 1, "user": {"login": "octocat", "id": 1}, "milestone": {"title": "v2.0", "due_on": null},
          "labels": [{"name": "bug", "color": "d73a4a"}]},
         {"number": 2, "user": {"login": "hubot", "id": 2}, "milestone": {"title": "v2.0", "due_on": null}, "labels": []},
         {"number": 3, "user": {"login": "mona", "id": 3}, "milestone": {"title": "v3.0", "due_on": "2024-06-30"},
          "labels": [{"name": "docs", "color": "0075ca"}, {"name": "bug", "color": "d73a4a"}]},
         {"number": 4, "user": {"login": "octocat", "id": 1}, "milestone": null, "labels": [{"name": "wontfix", "color": "ffffff"}]},
         {"number": 5, "user": {"login": "2", "id": 5}, "labels": []}
        ]
        """

    let shell: ShellHarness

    init() throws {
        let folder = NSTemporaryDirectory() + "almanac-objects-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.issues.write(toFile: folder + "/issues.json", atomically: true, encoding: .utf8)
        shell = ShellHarness(load: [])
        #expect(shell.run("load gh from \(folder)/issues.json; use gh; count"))
    }

    /// The candidates for `line`, each as `TEXT (COUNT)`.
    func listed(_ line: String) -> [String] {
        Completer().complete(line, in: shell.session).candidates.map { "\($0.text) (\($0.count.map(String.init) ?? "-"))" }
    }

    @Test func objectsAreListedByTheirNames() {
        #expect(listed("filter milestone = ") == ["v2.0 (2)", "v3.0 (1)"])
        #expect(listed("filter user = ") == ["octocat (2)", "2 (1)", "hubot (1)", "mona (1)"])
        #expect(listed("filter labels = ") == ["bug (2)", "docs (1)", "wontfix (1)"])
        #expect(listed("filter milestone = 2024").isEmpty)
        // A path into the object lists the member's values.
        #expect(listed("filter milestone.due_on = ") == ["2024-06-30 (1)"])
    }

    @Test func underAConditionTheKeptRecordsObjectsByName() {
        // Issues 1 and 4 are octocat's: milestone v2.0 on 1, none on 4.
        #expect(listed("filter user = octocat and milestone = ") == ["v2.0 (1)"])
        #expect(listed("filter number > 2 and labels = ") == ["bug (1)", "docs (1)", "wontfix (1)"])
    }
}
