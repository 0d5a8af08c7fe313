import Foundation
import Testing
@testable import AlmanacShell

/// Numbers as tables show them to people, through every command that shows numbers: the sign
/// of −0.25, a nonzero number never reading 0. Inputs are small files written here; expected
/// cells are worked out by hand from them.
@Suite struct NumberDisplayTests {
    /// A session with `csv` loaded as `n` and in use, its output a table.
    static func shell(_ csv: String) throws -> ShellHarness {
        let folder = NSTemporaryDirectory() + "almanac-numbers-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try csv.write(toFile: folder + "/n.csv", atomically: true, encoding: .utf8)
        let shell = ShellHarness(load: ["countries"])
        #expect(shell.run("load n from \(folder)/n.csv; use n; set format table"))
        return shell
    }

    /// The lines `line` prints, trailing spaces dropped.
    static func lines(_ shell: ShellHarness, _ line: String) -> [String] {
        let result = shell.output(line)
        #expect(result.ok, "\(result.err)")
        return result.out.split(separator: "\n").map { String($0).replacingOccurrences(of: " +$", with: "", options: .regularExpression) }
    }

    /// The cells of a table's data rows (after the header and its rule), split on runs of spaces.
    static func cells(_ shell: ShellHarness, _ line: String) -> [[String]] {
        lines(shell, line).dropFirst(2).map { $0.split(separator: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
    }

    static let negatives = "v\n-0.25\n-0.75\n2\n"

    @Test("describe shows min −0.75, q1 −0.5 and median −0.25 of −0.25, −0.75 and 2")
    func describeKeepsTheSign() throws {
        let shell = try Self.shell(Self.negatives)
        // Sorted: −0.75, −0.25, 2. Mean 1/3 → 0.33; q1 halfway from −0.75 to −0.25; q3 halfway from −0.25 to 2 (0.875 → 0.88).
        #expect(Self.cells(shell, "describe v").map { Array($0.prefix(11)) }
            == [["v", "number", "3", "0", "3", "-0.75", "2", "0.33", "-0.5", "-0.25", "0.88"]])
    }

    @Test("columns, group and histogram show −0.25 and −0.75 with their sign")
    func everyCommandKeepsTheSign() throws {
        let shell = try Self.shell(Self.negatives)
        #expect(Self.cells(shell, "columns v, v * 1 as w, round(v, 1) as r")
            == [["1", "-0.25", "-0.25", "-0.3"], ["2", "-0.75", "-0.75", "-0.8"], ["3", "2", "2", "2"]])
        #expect(Self.cells(shell, "group v sum v, avg v").map { Array($0.prefix(6)) }
            == [["1", "-0.75", "1", "33.3", "-0.75", "-0.75"], ["2", "-0.25", "1", "33.3", "-0.25", "-0.25"], ["3", "2", "1", "33.3", "2", "2"]])
        // −0.075, −0.025 and 0.2 in four bins of 0.076 from −0.076.
        #expect(Self.lines(shell, "histogram v * 0.1 4").dropFirst(2).prefix(4).map { $0.prefix(15).trimmingCharacters(in: .whitespaces) }
            == ["-0.076 – 0", "0 – 0.076", "0.076 – 0.152", "0.152 – 0.228"])
        #expect(shell.run("set expanded on; columns v, v * 1 as w"))
        #expect(Self.lines(shell, "limit 1").filter { !$0.isEmpty }.suffix(2) == ["v  -0.25", "w  -0.25"])
    }

    @Test("a constant −0.5 and −0 read −0.5 and 0 on every country")
    func constants() throws {
        let shell = ShellHarness(load: ["countries"])
        #expect(shell.run("use countries; set format table"))
        #expect(shell.run("columns name, -0.5 as q, -0 as z"))
        #expect(Self.cells(shell, "limit 2") == [["1", "Afghanistan", "-0.5", "0"], ["2", "Åland Islands", "-0.5", "0"]])
    }

    @Test("a minimum of 1e-320 reads 1e-320 in describe and columns, never 0, and in CSV too")
    func tinyNumbersNeverReadZero() throws {
        let shell = try Self.shell("v\n1e-320\n5\n")
        // Mean 2.5, q1 a quarter of the way (1.25), median 2.5, q3 3.75.
        #expect(Self.cells(shell, "describe v").map { Array($0.prefix(11)) }
            == [["v", "number", "2", "0", "2", "1e-320", "5", "2.5", "1.25", "2.5", "3.75"]])
        #expect(Self.cells(shell, "columns v, v * 2 as w") == [["1", "1e-320", "2e-320"], ["2", "5", "10"]])
        #expect(shell.run("set format csv"))
        #expect(Self.lines(shell, "describe v").last?.hasPrefix("v,number,2,0,2,1e-320,5,2.5,1.25,2.5,3.75,") == true)
    }

    @Test("describe's statistics below a thousandth keep three significant digits")
    func describeKeepsSmallStatistics() throws {
        let shell = try Self.shell("v\n0.0004\n-0.00001234\n0.0001\n")
        // Sorted: −0.00001234, 0.0001, 0.0004; mean 0.00048766 / 3 = 0.000162553…; q1 halfway
        // from −0.00001234 to 0.0001 (0.00004383); q3 halfway from 0.0001 to 0.0004 (0.00025).
        #expect(shell.run("set format csv"))
        #expect(Self.lines(shell, "describe v").last?.hasPrefix("v,number,3,0,3,-1.23e-05,0.0004,0.000163,4.38e-05,0.0001,0.00025,") == true)
        #expect(shell.run("set format table"))
        #expect(Self.cells(shell, "describe v").map { Array($0.prefix(11)) }
            == [["v", "number", "3", "0", "3", "-1.2e-05", "0.0004", "0.00016", "4.4e-05", "0.0001", "0.00025"]])
    }

    static let dates = "name,closed,year\na,2024-03-05,2024\nb,2023-12-31,2023\n"

    @Test("year(closed) reads 2024 in columns, group and describe, as the field year does; arithmetic on it is a quantity")
    func calendarPartsReadAsDigits() throws {
        let shell = try Self.shell(Self.dates)
        // 2024-03-05 was a Tuesday (2), 2023-12-31 a Sunday (7).
        #expect(Self.cells(shell, "columns name, year, year(closed), year(closed) as y, month(closed), day(closed) as d, weekday(closed), year(closed) * 1 as z")
            == [["1", "a", "2024", "2024", "2024", "3", "5", "2", "2,024"], ["2", "b", "2023", "2023", "2023", "12", "31", "7", "2,023"]])
        #expect(Self.cells(shell, "group year(closed) as y").map { Array($0.prefix(3)) } == [["1", "2023", "1"], ["2", "2024", "1"]])
        #expect(Self.cells(shell, "group name max(year(closed)), avg(year(closed)), sum(year(closed) * 1), count(year(closed))").map { Array($0.prefix(8)) }
            == [["1", "a", "1", "50", "2024", "2024", "2,024", "1"], ["2", "b", "1", "50", "2023", "2023", "2,023", "1"]])
        // Mean 2023.5; q1 and q3 a quarter of the way in from each end.
        #expect(Self.cells(shell, "describe year, year(closed) as y").map { Array($0.prefix(11)) }
            == [["year", "number", "2", "0", "2", "2023", "2024", "2023.5", "2023.25", "2023.5", "2023.75"],
                ["y", "number", "2", "0", "2", "2023", "2024", "2023.5", "2023.25", "2023.5", "2023.75"]])
    }

    @Test("histogram bounds of years read 2023 – 2024, for the field year and for year(closed) by any name")
    func histogramsOfYears() throws {
        let shell = try Self.shell(Self.dates)
        // Each bin's label: its row up to the two spaces before the count.
        func labels(_ line: String) -> [String] {
            Self.lines(shell, line).dropFirst(2).prefix { !$0.contains(" have a value") }.map { $0.components(separatedBy: "  ")[0] }
        }
        #expect(labels("histogram year") == ["2023 – 2024"])
        #expect(labels("histogram year(closed)") == ["2023 – 2024"])
        #expect(shell.run("columns name, year(closed) as y"))
        #expect(labels("histogram y") == ["2023 – 2024"])
        // A quantity keeps its separators.
        #expect(labels("histogram year(closed) * 1") == ["2,023 – 2,024"])
    }
}
