import Foundation
import Testing

/// A group's share is never shown as 0 when the group has records: below 1 percent it keeps two
/// significant digits (1 of 4,037 stations is 0.025), in memory and on a PostgreSQL table.
/// Expected counts come from Data/stations.json.
@Suite("group shares")
struct GroupShareTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    /// Stations per cityTitle, each station once (its first listing), and how many stations.
    static let cities: (counts: [String: Int], total: Int) = {
        guard let data = FileManager.default.contents(atPath: DataFolder.realFile("stations")),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return ([:], 0) }
        var seen: Set<Int> = []
        var counts: [String: Int] = [:]
        for key in ["citiesFrom", "citiesTo"] {
            for city in object[key] as? [[String: Any]] ?? [] {
                for station in city["stations"] as? [[String: Any]] ?? [] {
                    guard let id = station["stationId"] as? Int, seen.insert(id).inserted else { continue }
                    counts[station["cityTitle"] as? String ?? "", default: 0] += 1
                }
            }
        }
        return (counts, seen.count)
    }()

    /// A share as a person reads it: a tenth of a percent from 1 up, two significant digits below.
    static func share(_ count: Int, of total: Int) -> String {
        let exact = Double(count) * 100 / Double(total)
        if exact < 1 { return String(format: "%.2g", exact) }
        let tenth = (exact * 10).rounded() / 10
        return tenth == tenth.rounded() ? String(Int(tenth)) : String(tenth)
    }

    func csv(_ source: String?, _ command: String) throws -> [[String: String]] {
        let setup = source.map { ["-c", "load d from \($0)", "-c", "use d"] } ?? ["-c", "use stations"]
        let result = try PipeRun.run(["--no-rc", "--format", "csv"] + setup + ["-c", command], environment: home.environment(), directory: home.root)
        #expect(result.status == 0, "\(result)")
        return try RecordFormats.table(try RecordFormats.csv(result.stdout)).records
    }

    @Test("group cityTitle: 1 of 4,037 stations is 0.025 percent, never 0")
    func smallSharesAreNotZero() throws {
        let (counts, total) = Self.cities
        #expect(counts.values.contains(1) && total > 1000)
        let rows = try csv(nil, "group cityTitle")
        #expect(rows.count == counts.count)
        for row in rows {
            let city = row["cityTitle"] ?? ""
            let count = try #require(counts[city.isEmpty ? "" : city], "\(row)")
            #expect(row["count"] == String(count) && row["percent"] == Self.share(count, of: total), "\(row)")
            #expect(row["percent"] != "0", "\(row)")
        }
        #expect(Self.share(1, of: total) == "0.025")
        // People read it too.
        let table = try PipeRun.run(["--no-rc", "-c", "use stations", "-c", "group cityTitle"], environment: home.environment(), directory: home.root)
        #expect(table.stdout.lines.contains { $0.contains("     1    0.025  ▋") }, "\(table.stdout.suffix(400))")
    }

    @Test("a PostgreSQL table's groups show the same shares")
    func tableSharesMatch() throws {
        let (file, url) = try Database.exported("stations", as: "shares_stations", in: home)
        let memory = try csv(file, "group cityTitle")
        let database = try csv(url, "group cityTitle")
        #expect(memory.count == Self.cities.counts.count && database == memory)
        #expect(database.contains { $0["percent"] == "0.025" })
    }
}
