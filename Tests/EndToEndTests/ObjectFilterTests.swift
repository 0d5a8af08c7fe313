import Foundation
import Testing

/// A filter on a path that ends at an object compares the object's name, as group, describe
/// and listings read it (issue 28: nested objects are values), in memory and on a jsonb
/// table alike; a path into it still reaches its members, and an object no member names
/// compares its members. Expected issue numbers are worked out by hand from `SmallIssues`.
@Suite("filter compares an object by its name, in memory and on a table")
struct ObjectFilterTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    /// The numbers of the issues `filter` keeps, and what it said on standard error.
    func kept(_ setup: [String], _ filter: String) throws -> (numbers: [String], said: String) {
        let result = try home.run(setup + [filter, "columns number", "page"], options: ["--no-rc"])
        #expect(result.status == 0, "\(result)")
        guard result.stdout != "no records\n" else { return ([], result.stderr) }
        let numbers = result.stdout.lines.dropFirst(2).filter { !$0.hasPrefix("rows ") }.map { line in
            line.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }[1]
        }
        return (numbers, result.stderr)
    }

    static let cases: [(filter: String, numbers: [String])] = [
        // Users by login: issue 5's user is "2"; hubot's id 2 and octocat's id 1 are no names.
        ("filter user = octocat", ["1", "4"]), ("filter user = 2", ["5"]), ("filter user = 1", []),
        // Milestones by title, not by a due date inside them; a path into one still reaches it.
        ("filter milestone = v2.0", ["1", "2"]), ("filter milestone = 2024-06-30", []),
        ("filter milestone.due_on = 2024-06-30", ["3"]), ("filter milestone ~ v", ["1", "2", "3"]),
        ("filter milestone != v2.0", ["3", "4", "5"]), ("filter user = octocat and milestone = v2.0", ["1"]),
        // Null only where the milestone itself is null (4) or missing (5).
        ("filter milestone = null", ["4", "5"]), ("filter milestone is null", ["4", "5"]),
        // Each label of a list by its name, not its colour.
        ("filter labels = bug", ["1", "3"]), ("filter labels = d73a4a", []),
        // No member names reactions: its members are compared (up 3 on 1, heart 3 on 3).
        ("filter reactions = 3", ["1", "3"]),
    ]

    @Test("each filter keeps the same issues from the file and from the table")
    func keptByName() throws {
        for (label, setup) in try SmallIssues.sources(in: home) {
            for (filter, numbers) in Self.cases {
                #expect(try kept(setup, filter).numbers == numbers, "\(label): \(filter)")
            }
        }
    }

    @Test("an empty answer names the objects' values: milestones and users by their names")
    func emptyAnswersSayTheNames() throws {
        for (label, setup) in try SmallIssues.sources(in: home) {
            #expect(try kept(setup, "filter milestone = octocat").said
                == "no records — milestone has no value 'octocat'; its values: v2.0 (2), v3.0 (1)\n", "\(label)")
            #expect(try kept(setup, "filter milestone = 2024-06-30").said
                == "no records — milestone has no value '2024-06-30'; its values: v2.0 (2), v3.0 (1)\n", "\(label)")
            #expect(try kept(setup, "filter user = 1").said
                == "no records — user = 1 removed all 5 records; their user: octocat (2), 2 (1), hubot (1), mona (1)\n", "\(label)")
        }
    }
}
