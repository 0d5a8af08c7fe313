import Foundation
import PostgresCluster
import Testing

/// A date moved by part of a day keeps its time of day wherever it is written — a table, JSON,
/// CSV, an export: `created + 0.5` was written as its day alone, so exporting it moved it to
/// midnight. A whole day still reads as the day (`2024-01-01 + 1` is `2024-01-02`).
@Suite("Date arithmetic keeps the time of day")
struct DateTimeArithmeticTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    /// Aleena's `created` in species.json moved by `days`, as ISO 8601 with milliseconds.
    static func aleenaCreated(plus days: Double) throws -> String {
        let species = try JSONSerialization.jsonObject(with: Data(try DataFolder.realContents("species"))) as! [[String: Any]]
        let created = species.first { $0["name"] as? String == "Aleena" }!["created"] as! String
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let moved = formatter.date(from: created)!.addingTimeInterval(days * 86_400)
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: moved)
    }

    @Test("JSON and CSV write a computed date with its time; a whole day stays a day")
    func machineFormats() throws {
        let (half, quarter, day) = (try Self.aleenaCreated(plus: 0.5), try Self.aleenaCreated(plus: -0.25), try Self.aleenaCreated(plus: 1))
        #expect(half == "2014-12-20T21:53:16.481Z")
        let commands = ["use species", "filter name = Aleena", "columns name, created + 0.5 as half, created - 0.25 as quarter, created + 1 as day, 2024-01-01 + 1 as whole"]
        let json = try home.succeed(commands, options: ["--no-rc"], format: "json")
        #expect(json.lines == ["[", #"  {"name":"Aleena","half":"\#(half)","quarter":"\#(quarter)","day":"\#(day)","whole":"2024-01-02"}"#, "]"], "\(json)")
        let csv = try home.succeed(commands, options: ["--no-rc"], format: "csv")
        #expect(csv.lines == ["name,half,quarter,day,whole", "Aleena,\(half),\(quarter),\(day),2024-01-02"], "\(csv)")
    }

    /// `fields`, `describe` and `sort` read a column of dates with a stray word as dates: so does
    /// arithmetic, the word being no value (it said "'due' is text; '+' needs numbers").
    @Test("a field of dates with a stray word computes as dates, in memory and on a table")
    func datesWithAStrayWord() throws {
        let file = home.root + "/due.csv"
        try "task,due\na,2024-01-31\nb,2024-02-28T12:00:00Z\nc,soon\nd,2024-12-31\ne,2025-03-01\n".write(toFile: file, atomically: true, encoding: .utf8)
        let url = try Database.url("due_dates")
        let exported = try PipeRun.run(["--no-rc", "-c", "load due from \(file)", "-c", "use due", "-c", "export \(url) --force"],
                                       environment: home.environment(), directory: home.root)
        #expect(exported.status == 0, "\(exported)")
        let expected = ["task,next", "a,2024-02-01", "b,2024-02-29T12:00:00Z", "c,", "d,2025-01-01", "e,2025-03-02"]
        for source in [file, url] {
            let run = try PipeRun.run(["--no-rc", "--format", "csv", "-c", "load due from \(source)", "-c", "use due", "-c", "columns task, due + 1 as next"],
                                      environment: home.environment(), directory: home.root)
            #expect(run.status == 0 && run.stderr.isEmpty && run.stdout.lines == expected, "\(source): \(run)")
        }
    }

    @Test("a table computes the same times")
    func onATable() throws {
        let output = try Database.sameAnswers("species", table: "date_time_arithmetic", in: home, [
            "filter name = Aleena", "columns name, created + 0.5 as half, created + 1 as day",
        ])
        #expect(output.lines == ["name,half,day", "Aleena,\(try Self.aleenaCreated(plus: 0.5)),\(try Self.aleenaCreated(plus: 1))"], "\(output)")
    }
}
