import Foundation
import Testing

/// `histogram FIELD [BINS]` through pipes: the bins in every format, checked against counts the
/// test makes itself from the data files.
@Suite("histogram")
struct HistogramCommandTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    func run(_ commands: [String], format: String? = nil) throws -> PipeResult {
        try home.run(commands, format: format)
    }

    static func records(_ dataset: String) throws -> [[String: Any]] {
        let data = try #require(FileManager.default.contents(atPath: DataFolder.realFile(dataset)))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    }

    /// How many of `values` each bin holds: its lower bound included, the last one's upper too.
    static func counts(_ values: [Double], in bins: [(lower: Double, upper: Double)]) -> [Int] {
        bins.enumerated().map { index, bin in
            values.filter { $0 >= bin.lower && ($0 < bin.upper || (index == bins.count - 1 && $0 == bin.upper)) }.count
        }
    }

    @Test("--format json prints one object per bin whose counts are the file's")
    func jsonBins() throws {
        let result = try run(["use countries", "histogram population 12"], format: "json")
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        let bins = try RecordFormats.jsonArray(result.stdout)
        #expect(bins.count == 12)
        #expect(bins.allSatisfy { Set($0.keys) == ["lower", "upper", "count"] })
        let bounds = bins.map { (lower: ($0["lower"] as! NSNumber).doubleValue, upper: ($0["upper"] as! NSNumber).doubleValue) }
        let populations = try Self.records("countries").compactMap { ($0["population"] as? NSNumber)?.doubleValue }
        #expect(bins.map { $0["count"] as! Int } == Self.counts(populations, in: bounds))
        #expect(bins.map { $0["count"] as! Int }.reduce(0, +) == populations.count)
        #expect(zip(bounds, bounds.dropFirst()).allSatisfy { $0.upper == $1.lower }, "contiguous bins")
    }

    @Test("the table shows each bin's range, count and bar, and who has no value")
    func table() throws {
        let result = try run(["use species", "histogram average_lifespan"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        let lines = result.stdout.lines
        #expect(lines.first?.hasPrefix("average_lifespan") == true, "\(result)")
        let texts = try Self.records("species").map { $0["average_lifespan"] as? String ?? "" }
        let numbers = texts.compactMap(Double.init)
        // Rows read `LOWER – UPPER  COUNT  BAR`; bars are eighth blocks, the longest for the largest count.
        var bounds: [(lower: Double, upper: Double)] = []
        var counts: [Int] = []
        var bars: [String] = []
        // Below the bins: who has no value, then (here: 10 of 16 lifespans under 100) that most fall in one bin.
        let summary = try #require(lines.lastIndex { $0.contains(" have a value") }, "\(result)")
        for line in lines[2..<summary] {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            bounds.append((Double(parts[0].replacingOccurrences(of: ",", with: ""))!, Double(parts[2].replacingOccurrences(of: ",", with: ""))!))
            counts.append(Int(parts[3])!)
            bars.append(parts.count > 4 ? String(parts[4]) : "")
        }
        #expect(counts == Self.counts(numbers, in: bounds), "\(result)")
        #expect(bars.allSatisfy { $0.allSatisfy { "▏▎▍▌▋▊▉█".contains($0) } })
        let longest = counts.indices.max { counts[$0] < counts[$1] }!
        #expect(bars[longest] == String(repeating: "█", count: 40), "the largest bin fills the width")
        let unknown = texts.filter { $0 == "unknown" }.count
        let indefinite = texts.filter { $0 == "indefinite" }.count
        #expect(lines[summary + 1] == "\(counts[longest]) of \(numbers.count) values fall in one bin (\(lines[2 + longest].split(separator: " ").prefix(3).joined(separator: " "))): "
            + "'histogram average_lifespan log' spreads skewed values", "\(result)")
        #expect(lines[summary] == "\(numbers.count) of \(texts.count) species have a value; \(texts.count - numbers.count) have none "
            + "(unknown \(unknown), indefinite \(indefinite))", "\(result)")
    }

    @Test("dates are binned by day, as CSV too")
    func dates() throws {
        let result = try run(["use species", "histogram created"], format: "csv")
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        let rows = try RecordFormats.csv(result.stdout)
        #expect(rows.first == ["lower", "upper", "count"])
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let created = try Self.records("species").compactMap { ($0["created"] as? String).flatMap(formatter.date) }
        let plain = ISO8601DateFormatter()
        let bounds = rows.dropFirst().map { (lower: plain.date(from: $0[0])!.timeIntervalSince1970, upper: plain.date(from: $0[1])!.timeIntervalSince1970) }
        #expect(bounds.allSatisfy { $0.upper - $0.lower == 86_400 }, "one day a bin")
        #expect(rows.dropFirst().map { Int($0[2])! } == Self.counts(created.map(\.timeIntervalSince1970), in: bounds))
    }

    @Test("a text field, an unknown field and a bad count are refused clearly")
    func errors() throws {
        let text = try run(["use countries", "histogram region"])
        #expect(text.status == 1)
        #expect(text.stderr.contains("region has no numbers or dates in these 250 countries"), "\(text)")
        #expect(text.stderr.contains("'group region' counts those"), "\(text)")
        let unknown = try run(["use countries", "histogram populaton"])
        #expect(unknown.stderr.contains("unknown field 'populaton' — did you mean 'population'?"), "\(unknown)")
        let bins = try run(["use countries", "histogram area lots"])
        #expect(bins.stderr.contains("BINS must be a whole number from 1 to 1000, not 'lots'"), "\(bins)")
    }

    @Test("a named expression is headed by its name (density, not population / area as density), in its hint and errors too")
    func namedExpression() throws {
        let named = ["use countries", "columns name, population / area as density, upper(region) as loud"]
        let result = try run(named + ["histogram density"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        let lines = result.stdout.lines
        #expect(lines.first?.split(separator: " ").first == "density", "\(result)")
        let densities = try Self.records("countries").compactMap { record -> Double? in
            guard let population = (record["population"] as? NSNumber)?.doubleValue, let area = (record["area"] as? NSNumber)?.doubleValue else { return nil }
            let density = population / area
            return density.isFinite ? density : nil
        }
        let sparse = densities.filter { $0 < 1000 }.count
        #expect(lines.contains("\(sparse) of \(densities.count) values fall in one bin (0 – 1,000): 'histogram density log' spreads skewed values"),
                "\(result)")
        // The hint's command runs, under the same name.
        let logarithmic = try run(named + ["histogram density log"])
        #expect(logarithmic.status == 0 && logarithmic.stdout.lines.first?.split(separator: " ").first == "density", "\(logarithmic)")
        let text = try run(named + ["histogram loud"])
        #expect(text.status == 1 && text.stderr.contains("loud has no numbers or dates in these 250 countries"), "\(text)")
        #expect(text.stderr.contains("'group loud' counts those"), "\(text)")
        // Unnamed, an expression is headed by its text.
        let unnamed = try run(["use countries", "histogram population / area 3"])
        #expect(unnamed.stdout.lines.first?.hasPrefix("population / area  ") == true, "\(unnamed)")
    }
}
