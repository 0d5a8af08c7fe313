import Foundation
import Testing

/// `columns FIELD as NAME` is the field under another name, in memory and on a table: listed,
/// sorted, described, counted and grouped as the field is (its words for none, an object by
/// its name), headed NAME. Expected cells are worked out by hand from `SmallIssues`.
@Suite("A renamed field is that field under its new name, in memory and on a table")
struct RenamedFieldTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    static let renamed = "columns number, weight as w, milestone as m, user as u"

    /// The rows `commands` print after `setup` and the renaming, as table cells (split on runs
    /// of two spaces: an empty cell leaves no cell), header and rule left out.
    func cells(_ setup: [String], _ commands: [String]) throws -> [[String]] {
        let output = try home.succeed(setup + [Self.renamed] + commands, options: ["--no-rc"])
        return output.lines.dropFirst(2).filter { !$0.hasPrefix("rows ") }.map { line in
            line.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
    }

    @Test("listed and sorted: w reads weight (unknown shows empty, sorts last), m and u each object by its name")
    func listedAndSorted() throws {
        for (label, setup) in try SmallIssues.sources(in: home) {
            #expect(try cells(setup, ["page"]) == [["1", "1", "12", "v2.0", "octocat"], ["2", "2", "v2.0", "hubot"],
                                                   ["3", "3", "3", "v3.0", "mona"], ["4", "4", "7", "octocat"], ["5", "5", "5", "2"]], "\(label)")
            // 12, 7, 5, 3, then the weight that is unknown.
            #expect(try cells(setup, ["sort w desc"]).map { $0.prefix(3) } == [["1", "1", "12"], ["2", "4", "7"], ["3", "5", "5"], ["4", "3", "3"],
                                                                                ["5", "2", "v2.0"]], "\(label)")
        }
    }

    @Test("describe and histogram read w as weight: numbers as text, unknown is none; m's values are milestones")
    func describedAndMeasured() throws {
        for (label, setup) in try SmallIssues.sources(in: home) {
            // 3, 5, 7, 12: mean 27 / 4; q1 3 + 0.75 × 2, median 6, q3 7 + 0.25 × 5.
            #expect(try cells(setup, ["describe w"]).map { Array($0.prefix(11)) }
                == [["w", "number (as text)", "4", "1", "4", "3", "12", "6.75", "4.5", "6", "8.25"]], "\(label)")
            // Present on 1, 2 and 3; null on 4, missing on 5; v2.0 twice.
            let milestone = try cells(setup, ["describe m"])
            #expect(milestone.map { [$0[0]] + $0.dropFirst(2).prefix(3) + [$0.last ?? ""] } == [["m", "3", "2", "2", "v2.0 2, v3.0 1"]],
                    "\(label): \(milestone)")
            let histogram = try home.succeed(setup + [Self.renamed, "histogram w"], options: ["--no-rc"]).lines
            #expect(histogram.first?.hasPrefix("w ") == true, "\(label): \(histogram)")
            // 3 in the first bin, 5 and 7 in the second, 12 in the third.
            #expect(try cells(setup, ["histogram w"]).prefix(3).map { Array($0.prefix(2)) }
                == [["0 – 5", "1"], ["5 – 10", "2"], ["10 – 15", "1"]], "\(label): \(histogram)")
            #expect(histogram.contains("4 of 5 records have a value; 1 has none (unknown 1)"), "\(label): \(histogram)")
        }
    }

    @Test("group and filter by the new name: m groups milestones by title, u users by login")
    func groupedAndFiltered() throws {
        for (label, setup) in try SmallIssues.sources(in: home) {
            #expect(try cells(setup, ["group m"]).map { Array($0.prefix(4)) }
                == [["1", "v2.0", "2", "40"], ["2", "<none>", "2", "40"], ["3", "v3.0", "1", "20"]], "\(label)")
            #expect(try cells(setup, ["group u"]).map { Array($0.prefix(3)) }
                == [["1", "octocat", "2"], ["2", "2", "1"], ["3", "hubot", "1"], ["4", "mona", "1"]], "\(label)")
            let kept = try home.succeed(setup + [Self.renamed, "filter m = v2.0", "count"], options: ["--no-rc"])
            #expect(kept.lines.last == "2", "\(label): \(kept)")
        }
    }
}
