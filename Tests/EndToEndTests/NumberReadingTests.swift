import Foundation
import PostgresCluster
import Testing

/// Numbers in people's tables, through the built binary with -c, in memory and on a
/// PostgreSQL table (they share the renderer): −0.25 keeps its sign, 1e-320 never reads 0,
/// year(closed) reads 2024, and a histogram of a named expression is headed by its name.
/// Expected cells are worked out by hand from the rows written here.
@Suite("Numbers read right in tables, in memory and on a table")
struct NumberReadingTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    /// The rows `commands` print after `setup`, as table cells (split on runs of two spaces),
    /// header and rule left out.
    func cells(_ setup: [String], _ commands: [String]) throws -> [[String]] {
        let output = try home.succeed(setup + commands, options: ["--no-rc"])
        return output.lines.dropFirst(2).filter { !$0.contains(" have a value") && !$0.contains(" fall in one bin") }.map { line in
            line.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
    }

    /// The same numbers in a file and in a table: (name, v, closed).
    static let rows = [("a", "-0.25", "2024-03-05"), ("b", "-0.75", "2023-12-31"), ("c", "2", "2024-07-01"), ("d", "1e-320", "2024-01-01")]

    func sources() throws -> [[String]] {
        let file = try home.write("name,v,closed\n" + Self.rows.map { "\($0.0),\($0.1),\($0.2)" }.joined(separator: "\n") + "\n",
                                  to: home.root + "/numbers.csv")
        let cluster = try Database.cluster()
        try cluster.once("numbers read right") {
            try cluster.execute("CREATE TABLE numbers_read (name text PRIMARY KEY, v float8, closed date); INSERT INTO numbers_read VALUES "
                                + Self.rows.map { "('\($0.0)', \($0.1), '\($0.2)')" }.joined(separator: ", "))
        }
        return [["load n from \(file)", "use n"], ["load n from \(try Database.url("numbers_read"))", "use n"]]
    }

    @Test("−0.25 and −0.75 keep their sign and 1e-320 reads 1e-320 in describe, columns and group")
    func signsAndTinyNumbers() throws {
        for setup in try sources() {
            // Sorted: −0.75, −0.25, 1e-320, 2; mean 1/4 (0.25); q1 −0.375 and median −0.125, to two decimals as printf
            // rounds an exact half (to even): −0.38 and −0.12; q3 halfway from 1e-320 to 2: 0.5.
            #expect(try cells(setup, ["describe v"]).map { Array($0.prefix(11)) }
                == [["v", "number", "4", "0", "4", "-0.75", "2", "0.25", "-0.38", "-0.12", "0.5"]], "\(setup)")
            #expect(try cells(setup, ["sort name", "columns name, v, v * 1 as w"])
                == [["1", "a", "-0.25", "-0.25"], ["2", "b", "-0.75", "-0.75"], ["3", "c", "2", "2"], ["4", "d", "1e-320", "1e-320"]], "\(setup)")
            #expect(try cells(setup, ["sort name", "columns name, round(v, 1) as r", "limit 3"])
                == [["1", "a", "-0.3"], ["2", "b", "-0.8"], ["3", "c", "2"]], "\(setup)")
            #expect(try cells(setup, ["filter v < 1", "group v sum v"]).map { Array($0.prefix(5)) }
                == [["1", "-0.75", "1", "33.3", "-0.75"], ["2", "-0.25", "1", "33.3", "-0.25"], ["3", "1e-320", "1", "33.3", "1e-320"]], "\(setup)")
        }
    }

    @Test("year(closed) reads 2024 in columns, group and histogram, as the field year would")
    func yearsReadAsDigits() throws {
        for setup in try sources() {
            #expect(try cells(setup, ["sort name", "columns name, year(closed) as y, month(closed), year(closed) * 1 as z", "limit 2"])
                == [["1", "a", "2024", "3", "2,024"], ["2", "b", "2023", "12", "2,023"]], "\(setup)")
            #expect(try cells(setup, ["group year(closed) as y"]).map { Array($0.prefix(3)) } == [["1", "2024", "3"], ["2", "2023", "1"]], "\(setup)")
            #expect(try cells(setup, ["histogram year(closed)"]).map { $0.prefix(2) } == [["2023 – 2024", "4"]], "\(setup)")
        }
    }

    @Test("histogram of a named expression is headed by its name: density, on the bundled countries")
    func namedHistogram() throws {
        let output = try home.succeed(["use countries", "columns name, population / area as density", "histogram density"], options: ["--no-rc"])
        #expect(output.lines.first?.hasPrefix("density  ") == true, "\(output)")
        #expect(output.contains("'histogram density log' spreads skewed values"), "\(output)")
    }
}
