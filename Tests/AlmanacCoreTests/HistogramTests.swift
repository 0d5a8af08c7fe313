import Foundation
import Testing
@testable import AlmanacCore

/// The bundled files read with Foundation, independently of almanac's own reader.
enum IndependentData {
    static func array(_ file: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: RealData.directory + "/" + file))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    }

    /// Every distinct station of stations.json (by stationId, first entry kept).
    static func stations() throws -> [[String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: RealData.directory + "/stations.json"))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var seen = Set<Int>()
        var stations: [[String: Any]] = []
        for list in ["citiesFrom", "citiesTo"] {
            for city in root[list] as? [[String: Any]] ?? [] {
                for station in city["stations"] as? [[String: Any]] ?? [] {
                    if let id = station["stationId"] as? Int, seen.insert(id).inserted { stations.append(station) }
                }
            }
        }
        return stations
    }
}

@Suite struct HistogramTests {
    /// Counts `values` into the histogram's bins as its contract says: each bin holds its
    /// lower bound, the last both.
    func expectedCounts(_ values: [Double], _ histogram: Histogram) -> [Int] {
        histogram.bins.enumerated().map { index, bin in
            let last = index == histogram.bins.count - 1
            return values.filter { $0 >= bin.lower && ($0 < bin.upper || (last && $0 == bin.upper)) }.count
        }
    }

    @Test func populationBinsMatchTheCountriesFile() throws {
        let populations = try IndependentData.array("countries.json").compactMap { ($0["population"] as? NSNumber)?.doubleValue }
        let measured = try FieldMeasurements.read("population", from: ResultSet.all([RealData.countries]))
        #expect(measured.kind == .number)
        #expect(measured.recordsWithValue == populations.count)
        #expect(measured.recordsWithoutValue == 250 - populations.count)
        let histogram = measured.histogram()
        #expect(histogram.bins.map(\.count) == expectedCounts(populations, histogram))
        #expect(histogram.total == populations.count, "the bins add up to the records with a value")
        // Contiguous bins of one round width, covering every value.
        let width = histogram.bins[0].upper - histogram.bins[0].lower
        #expect(zip(histogram.bins, histogram.bins.dropFirst()).allSatisfy { $0.upper == $1.lower })
        #expect(histogram.bins.allSatisfy { abs(($0.upper - $0.lower) - width) < 1e-6 })
        #expect([1.0, 2, 5].contains(width / pow(10, log10(width).rounded(.down))), "a round width: \(width)")
        #expect(histogram.bins[0].lower <= populations.min()! && histogram.bins.last!.upper >= populations.max()!)
        #expect(histogram.bins.count <= Histogram.maximumDefaultBins)
    }

    @Test func askingForBinsGivesExactlyThatMany() throws {
        let areas = try IndependentData.array("countries.json").compactMap { ($0["area"] as? NSNumber)?.doubleValue }
        let measured = try FieldMeasurements.read("area", from: ResultSet.all([RealData.countries]))
        for count in [1, 3, 7, 10, 13, 50] {
            let histogram = measured.histogram(bins: count)
            #expect(histogram.bins.count == count)
            #expect(histogram.bins.map(\.count) == expectedCounts(areas, histogram), "\(count) bins")
            #expect(histogram.total == areas.count)
            // Edges read as they are: `0 – 1,800,000`, never `0.44 – 1,712,444.596`.
            for bin in histogram.bins {
                let text = histogram.text(bin.lower).replacingOccurrences(of: ",", with: "")
                #expect(Double(text) == bin.lower && !text.contains("."), "\(count) bins: \(text)")
            }
        }
    }

    @Test func speciesLifespansAreNumbersWrittenAsTextAndTheRestIsNamed() throws {
        let texts = try IndependentData.array("species.json").map { $0["average_lifespan"] as? String ?? "" }
        let numbers = texts.compactMap { Double($0) }
        let measured = try FieldMeasurements.read("average_lifespan", from: ResultSet.all([RealData.species]))
        #expect(measured.values.sorted() == numbers.sorted())
        #expect(measured.recordsWithoutValue == texts.count - numbers.count)
        let others = Dictionary(grouping: texts.filter { Double($0) == nil }, by: { $0 }).mapValues(\.count)
        #expect(Dictionary(uniqueKeysWithValues: measured.otherValues.map { ($0.text, $0.count) }) == others)
        let histogram = measured.histogram(bins: 4)
        #expect(histogram.bins.map(\.count) == expectedCounts(numbers, histogram))
    }

    @Test func speciesCreationDatesAreBinnedByDay() throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let dates = try IndependentData.array("species.json").compactMap { ($0["created"] as? String).flatMap(formatter.date) }
            .map(\.timeIntervalSince1970)
        #expect(dates.count == 37)
        let measured = try FieldMeasurements.read("created", from: ResultSet.all([RealData.species]))
        #expect(measured.kind == .date)
        for (ours, theirs) in zip(measured.values, dates) { #expect(abs(ours - theirs) < 0.001) }
        let histogram = measured.histogram()
        #expect(histogram.scale == .date(.day))
        // One bin per calendar day (UTC) from the first date's day to the last one's.
        let firstDay = (dates.min()! / 86_400).rounded(.down)
        let lastDay = (dates.max()! / 86_400).rounded(.down)
        #expect(histogram.bins.count == Int(lastDay - firstDay) + 1)
        #expect(histogram.bins.allSatisfy { $0.upper - $0.lower == 86_400 })
        #expect(histogram.bins.map(\.count) == expectedCounts(dates, histogram))
        #expect(histogram.text(histogram.bins[0].lower) == "2014-12-10")
    }

    @Test func longDateRangesAreBinnedByYearAndMonth() throws {
        let day = 86_400.0
        let years = (0..<40).map { Double(CalendarDate.days(year: 1980 + $0, month: 6, day: 15)) * day }
        let byYear = Histogram.dates(years)
        #expect(byYear.scale == .date(.year))
        #expect(byYear.total == 40)
        #expect(byYear.bins.allSatisfy { $0.count > 0 })
        #expect(byYear.text(byYear.bins[0].lower) == "1980")
        let months = (0..<10).map { Double(CalendarDate.days(year: 2020, month: 1 + $0, day: 3)) * day }
        let byMonth = Histogram.dates(months)
        #expect(byMonth.scale == .date(.month))
        #expect(byMonth.bins.map(\.count) == [Int](repeating: 1, count: 10))
        #expect(byMonth.text(byMonth.bins[1].lower) == "2020-02")
    }

    @Test func roundEdgesAreTheDoublesOfTheirDecimalText() {
        let histogram = Histogram.numbers([0.1, 0.25, 0.3, 0.7, 0.95], bins: nil)
        for bin in histogram.bins {
            #expect(Double(histogram.text(bin.lower)) == bin.lower, "\(bin.lower)")
        }
        #expect(histogram.total == 5)
    }

    @Test func boundsOfYearsReadWithoutThousandsSeparators() {
        var histogram = Histogram(bins: [Histogram.Bin(lower: 2000, upper: 2012.5, count: 1), Histogram.Bin(lower: 2012.5, upper: 2025, count: 2)],
                                  scale: .number(decimals: 1))
        #expect(histogram.bins.map { "\(histogram.text($0.lower)) – \(histogram.text($0.upper))" } == ["2,000 – 2,012.5", "2,012.5 – 2,025"])
        histogram.groupsThousands = false
        #expect(histogram.bins.map { "\(histogram.text($0.lower)) – \(histogram.text($0.upper))" } == ["2000 – 2012.5", "2012.5 – 2025"])
    }

    @Test func oneDistinctValueIsOneBin() {
        let histogram = Histogram.numbers([7, 7, 7])
        #expect(histogram.bins.count == 1)
        #expect(histogram.total == 3)
    }

    @Test func selectionFindsTheSortedRank() {
        var generator = SystemRandomNumberGenerator()
        for size in [1, 2, 3, 10, 101, 1000] {
            let values = (0..<size).map { _ in Double(Int.random(in: 0..<50, using: &generator)) }
            let sorted = values.sorted()
            for rank in Set([0, size / 4, size / 2, size - 1]) {
                var copy = values
                #expect(Histogram.select(&copy, rank: rank) == sorted[rank])
            }
        }
    }

    @Test func calendarArithmeticAgreesWithFoundation() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for (year, month, day) in [(1970, 1, 1), (2000, 2, 29), (1969, 12, 31), (1600, 3, 1), (2014, 12, 10), (2400, 12, 31)] {
            let date = calendar.date(from: DateComponents(year: year, month: month, day: day))!
            let days = CalendarDate.days(year: year, month: month, day: day)
            #expect(Double(days) * 86_400 == date.timeIntervalSince1970)
            #expect(CalendarDate.date(days: days) == (year, month, day))
        }
        #expect(CalendarDate.seconds("2014-12-10T13:52:11.567Z") == 1_418_219_531.567)
        #expect(CalendarDate.seconds("2014-12-10T16:52:11+03:00") == 1_418_219_531)
        #expect(CalendarDate.seconds("2014-02-30") == nil)
        #expect(CalendarDate.seconds("180") == nil)
        #expect(CalendarDate.iso8601(1_418_219_531.567) == "2014-12-10T13:52:11.567Z")
        // people.created's median, halfway between 17:55:43.348 and 17:57:41.191: an ulp either way is the same instant.
        let median = 1_419_011_802.2695
        for seconds in [median.nextDown, median, median.nextUp] {
            #expect(CalendarDate.iso8601(seconds) == "2014-12-19T17:56:42.270Z", "\(seconds)")
        }
    }

    @Test func aSparklineIsTheHistogramInEightHeights() throws {
        let measured = try FieldMeasurements.read("area", from: ResultSet.all([RealData.countries]))
        let line = measured.sparkline(width: 10)
        #expect(line.count == 10)
        let counts = measured.histogram(bins: 10).bins.map(\.count)
        let largest = counts.max()!
        // Independently: the tallest bin is a full block, an empty one the lowest, others in between.
        for (character, count) in zip(line, counts) {
            if count == largest { #expect(character == "█") } else if count == 0 { #expect(character == "▁") } else {
                #expect("▂▃▄▅▆▇".contains(character), "\(count) of \(largest): \(character)")
            }
        }
        let dates = try FieldMeasurements.read("created", from: ResultSet.all([RealData.species]))
        #expect(dates.sparkline(width: 6).count == 6)
    }

    @Test func barsAreDrawnInEighths() {
        #expect(Bars.bar(10, maximum: 10, width: 4) == "████")
        #expect(Bars.bar(5, maximum: 10, width: 4) == "██")
        #expect(Bars.bar(1, maximum: 8, width: 1) == "▏")
        #expect(Bars.bar(3, maximum: 8, width: 1) == "▍")
        #expect(Bars.bar(9, maximum: 16, width: 2) == "█▏")
        #expect(Bars.bar(0.001, maximum: 1000, width: 10) == "▏", "something is never drawn as nothing")
        #expect(Bars.bar(0, maximum: 10, width: 10) == "")
        #expect(Bars.sparkline([0, 1, 7, 14]) == "▁▂▅█")
        #expect(Bars.sparkline([Int]()) == "")
    }
}
