import Foundation
import PostgresCluster

/// Five GitHub-like issues, few enough that every answer is worked out by hand: `user` an
/// object named by its `login` (issue 5's login is "2", issue 2's id is 2), `milestone` an
/// object named by its `title`, null (4) or missing (5), issue 3's alone with a `due_on`;
/// `labels` a list of objects named by `name`; `reactions` an object no member names;
/// `weight` numbers written as text, issue 2's `unknown`. In a file, and in a table with
/// jsonb columns that almanac exported from it.
enum SmallIssues {
    static let json = """
        [
         {"number": 1, "title": "crash on start", "weight": "12", "user": {"login": "octocat", "id": 1},
          "milestone": {"title": "v2.0", "due_on": null}, "labels": [{"name": "bug", "color": "d73a4a"}], "reactions": {"up": 3, "heart": 1}},
         {"number": 2, "title": "typo", "weight": "unknown", "user": {"login": "hubot", "id": 2},
          "milestone": {"title": "v2.0", "due_on": null}, "labels": [], "reactions": {"up": 0, "heart": 0}},
         {"number": 3, "title": "slow search", "weight": "3", "user": {"login": "mona", "id": 3},
          "milestone": {"title": "v3.0", "due_on": "2024-06-30"},
          "labels": [{"name": "docs", "color": "0075ca"}, {"name": "bug", "color": "d73a4a"}], "reactions": {"up": 1, "heart": 3}},
         {"number": 4, "title": "wrong count", "weight": "7", "user": {"login": "octocat", "id": 1},
          "milestone": null, "labels": [{"name": "wontfix", "color": "ffffff"}], "reactions": {"up": 2, "heart": 0}},
         {"number": 5, "title": "no milestone", "weight": "5", "user": {"login": "2", "id": 5}, "labels": [], "reactions": {"up": 0, "heart": 2}}
        ]
        """

    static let table = "small_issues"

    /// The lines that load the issues as `gh` and use them: from a file in `home`, and from the
    /// table (exported once per run).
    static func sources(in home: TemporaryHome) throws -> [(label: String, setup: [String])] {
        let file = try home.write(json, to: home.root + "/issues.json")
        let url = try Database.url(table)
        try Database.cluster().once(table) {
            let exported = try PipeRun.run(["--no-rc", "-c", "load gh from \(file)", "-c", "use gh", "-c", "export \(url) --force"],
                                           environment: home.environment(), directory: home.root)
            guard exported.status == 0 else { throw HarnessError("exporting the issues failed: \(exported)") }
        }
        return [("memory", ["load gh from \(file)", "use gh"]), ("table", ["load gh from \(url)", "use gh"])]
    }
}
