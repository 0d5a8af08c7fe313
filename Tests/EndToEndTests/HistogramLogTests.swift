import Foundation
import Testing

/// `histogram FIELD log [BINS]`: bins whose bounds grow by a constant factor, for skewed values;
/// and a linear histogram that puts most values in one bin says so. Counts come from
/// Data/countries.json.
@Suite("histogram log")
struct HistogramLogTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    static var populations: [Double] {
        ValueReadingTests.records("countries").compactMap { ($0["population"] as? NSNumber)?.doubleValue }
    }

    func bins(_ command: String) throws -> [(lower: Double, upper: Double, count: Int)] {
        let result = try home.run(["use countries", command], format: "json")
        #expect(result.status == 0, "\(result)")
        return try RecordFormats.jsonArray(result.stdout).map {
            (($0["lower"] as! NSNumber).doubleValue, ($0["upper"] as! NSNumber).doubleValue, $0["count"] as! Int)
        }
    }

    @Test("histogram population log: one bin per power of ten, 10 – 100 up to 1,000,000,000 – 10,000,000,000")
    func decades() throws {
        let bins = try bins("histogram population log")
        let positive = Self.populations.filter { $0 > 0 }
        let smallest = Int(log10(positive.min()!).rounded(.down))
        let largest = Int(log10(positive.max()!).rounded(.down))
        #expect(bins.map(\.lower) == (smallest...largest).map { pow(10, Double($0)) })
        #expect(bins.map(\.upper) == ((smallest + 1)...(largest + 1)).map { pow(10, Double($0)) })
        #expect(bins.map(\.count) == HistogramCommandTests.counts(positive, in: bins.map { ($0.lower, $0.upper) }))
        #expect(bins.map(\.count).reduce(0, +) == positive.count)
        let table = try home.run(["use countries", "histogram population log"])
        let zeros = Self.populations.count - positive.count
        #expect(table.stdout.contains("\n1,000,000 – 10,000,000 "), "\(table)")
        #expect(table.stdout.contains("log scale: each bound 10 times the one before\n\(zeros) values of 0 or below have no place on a log scale"), "\(table)")
    }

    @Test("histogram population log 12: twelve bins from the smallest value to the largest, a constant factor apart")
    func countedBins() throws {
        let bins = try bins("histogram population log 12")
        let positive = Self.populations.filter { $0 > 0 }
        #expect(bins.count == 12)
        #expect(bins.first?.lower == positive.min() && bins.last?.upper == positive.max())
        let factor = pow(positive.max()! / positive.min()!, 1.0 / 12)
        for bin in bins { #expect(abs(bin.upper / bin.lower / factor - 1) < 0.01, "\(bin) against ×\(factor)") }
        #expect(bins.map(\.count) == HistogramCommandTests.counts(positive, in: bins.map { ($0.lower, $0.upper) }))
    }

    @Test("histogram area log N: the first bin starts at the smallest area and the last ends at the largest, exactly")
    func boundsAreTheExtremes() throws {
        let areas = ValueReadingTests.records("countries").compactMap { ($0["area"] as? NSNumber)?.doubleValue }.filter { $0 > 0 }
        for count in [3, 5, 7, 12] {
            let bins = try bins("histogram area log \(count)")
            #expect(bins.count == count)
            #expect(bins.first?.lower == areas.min(), "log \(count)")
            #expect(bins.last?.upper == areas.max(), "log \(count): the last bin ends at \(bins.last.map { "\($0.upper)" } ?? "nothing")")
        }
    }

    @Test("a linear histogram with most values in one bin says so and suggests log")
    func mostValuesInOneBin() throws {
        let bins = try bins("histogram population")
        let fullest = try #require(bins.max { $0.count < $1.count })
        #expect(fullest.count * 2 > Self.populations.count)
        #expect(fullest.count == Self.populations.filter { $0 >= fullest.lower && $0 < fullest.upper }.count)
        let table = try home.run(["use countries", "histogram population"])
        func grouped(_ value: Double) -> String { ValueReadingTests.grouped(String(Int(value))) }
        let note = "\(fullest.count) of \(Self.populations.count) values fall in one bin (\(grouped(fullest.lower)) – \(grouped(fullest.upper))): "
            + "'histogram population log' spreads skewed values"
        #expect(table.stdout.lines.last == note, "\(table)")
        let even = try home.run(["use countries", "histogram gini"])
        #expect(!even.stdout.contains("fall in one bin"), "\(even)")
    }

    @Test("log bins are for numbers: a date field is an error saying so")
    func datesHaveNoLogScale() throws {
        let result = try home.run(["use species", "histogram created log"])
        #expect(result.status == 1 && result.stderr.contains("created holds dates: log bins are for numbers"), "\(result)")
    }
}
