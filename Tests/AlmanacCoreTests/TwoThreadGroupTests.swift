import Foundation
import Testing
@testable import AlmanacCore

/// `group` numbers and counts each half of the rows on its own thread (from a size measured
/// at 100×; here forced down to every input): the answers must be exactly one thread's — the
/// same groups in the same order (ties and first-seen orders included), the same aggregates
/// to the bit.
@Suite struct TwoThreadGroupTests {
    static let scratch = Scratch()

    /// Values of every kind a column holds, some met only in the second half of the records:
    /// strings equal by folding, words for none, null and missing, numbers written two ways,
    /// numeric text, integers past 2⁵³ that one Double cannot tell apart, true and false,
    /// strings too long to be interned, galactic years.
    static let kinds = [
        #""alpha""#, #""Beta""#, #""béta""#, #""beta""#, #""n/a""#, #""""#, "null", nil, "1", "1.0", #""1""#, "true",
        "false", "9007199254740993", "9007199254740995", #""\#(String(repeating: "long ", count: 15))""#, #""19BBY""#,
        #""late""#, "9007199254740993.0", "false", #""\#(String(repeating: "long ", count: 15))!""#,
    ]
    /// Kinds from this index on appear only in the second half.
    static let lateKinds = 13
    static let count = 3000
    static let bands = ["b0", "b1", "b2", "b3", "b4", "b5", "b6"]

    /// Record `index`'s fields, as JSON literals (nil: missing), made by a fixed recipe.
    static func record(_ index: Int) -> (kind: String?, band: String, size: String?, weight: Double) {
        var state = UInt64(index) &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % bound
        }
        let kind = kinds[next(index < count / 2 ? lateKinds : kinds.count)]
        // Bands b0…b6 in shares of 1…7 (each its own count), b6 only in the second half.
        let band = bands[min(next(28).squareRootBand, index < count / 2 ? 5 : 6)]
        let sizes: [String?] = ["12.5", "0.1", "0.7", #""120""#, "null", nil, "3e2", #""19BBY""#, "-4.25", "9007199254740993"]
        let weight = Double(next(1_000_000)) / 7.0 + 0.1
        return (kind, band, sizes[next(sizes.count)], weight)
    }

    static let mixed: Dataset = {
        let records = (0..<count).map { index -> String in
            let record = record(index)
            var members = [#""n": \#(index)"#, #""band": "\#(record.band)""#, #""weight": \#(record.weight)"#]
            if let kind = record.kind { members.append(#""kind": \#(kind)"#) }
            if let size = record.size { members.append(#""size": \#(size)"#) }
            return "{" + members.joined(separator: ", ") + "}"
        }
        let file = scratch.file("mixed.json", "[" + records.joined(separator: ",\n") + "]")
        return try! DatasetLoader().load(LoadRequest(name: "mixed", source: .file(path: file), model: GenericModel.self),
                                         progress: LoadProgress(), cancellation: .never)
    }()

    /// A group's values, count and aggregates with every number's bits: equal means identical.
    static func exact(_ groups: Groups) -> [String] {
        groups.map { row in
            let aggregates = row.aggregates.map { value -> String in
                switch value {
                case let .number(number): return "n\(number.bitPattern)"
                case let .text(text): return "t" + text
                case .none: return "-"
                }
            }
            return "\(row.values) \(row.numbers) \(row.count) \(aggregates)"
        }
    }

    static let aggregates = [Aggregate(.count, "size"), Aggregate(.sum, "size"), Aggregate(.avg, "size"), Aggregate(.min, "size"),
                             Aggregate(.max, "size"), Aggregate(.distinct, "kind"), Aggregate(.avg, "weight")]

    @Test("group on two threads: the groups, their order and every aggregate's bits are one thread's",
          arguments: [["kind"], ["band"], ["kind", "band"], ["size"], ["band", "kind"]])
    func groupOnTwoThreadsIsOneThreads(fields: [String]) throws {
        let dataset = Self.mixed
        #expect(fields.allSatisfy { dataset.fields.column($0) != nil }, "the common case: fields with columns")
        let all = ResultSet.all([dataset])
        // Every record, and a filtered subset in another order (positions are not rows).
        let subset = all.with(all.items.filter { $0.row % 3 != 1 }.reversed())
        for results in [all, subset] {
            let spec = GroupSpec(fields: fields, aggregates: Self.aggregates)
            let one = try Group.run(results, by: spec, twoThreadsFrom: .max)
            let two = try Group.run(results, by: spec, twoThreadsFrom: 0)
            #expect(Self.exact(two) == Self.exact(one))
            #expect(one.count > 5)
        }
    }

    @Test("group band avg weight on two threads: counts and means as a plain loop over the records makes them")
    func groupOnTwoThreadsAgainstAPlainLoop() throws {
        var counts: [String: Int] = [:]
        var sums: [String: Double] = [:]
        for index in 0..<Self.count {
            let record = Self.record(index)
            counts[record.band, default: 0] += 1
            sums[record.band, default: 0] += record.weight
        }
        // Largest first; equal counts by name.
        let expected = counts.keys.sorted { counts[$0]! != counts[$1]! ? counts[$0]! > counts[$1]! : $0 < $1 }
            .map { "\($0) \(counts[$0]!) \((sums[$0]! / Double(counts[$0]!)).bitPattern)" }
        let groups = try Group.run(.all([Self.mixed]), by: GroupSpec(fields: ["band"], aggregates: [Aggregate(.avg, "weight")]),
                                   twoThreadsFrom: 0)
        let found = groups.map { row -> String in
            guard case let .number(mean) = row.aggregates[0] else { return "\(row.values[0]) \(row.count) none" }
            return "\(row.values[0]) \(row.count) \(mean.bitPattern)"
        }
        #expect(found == expected)
        #expect(expected.count == 7)
    }

    @Test("group countryTitle of the bundled stations on two threads: counts, mean latitude, min longitude as a loop makes them")
    func stationsByCountryOnTwoThreads() throws {
        let stations = RealData.stations
        var counts: [String: Int] = [:]
        var latitudes: [String: (count: Int, sum: Double)] = [:]
        var minimums: [String: Double] = [:]
        for row in 0..<stations.count {
            let station = StationModel.station(stations, row: row)
            let country = station.countryTitle
            counts[country, default: 0] += 1
            if let latitude = station.latitude { latitudes[country, default: (0, 0)].count += 1; latitudes[country]!.sum += latitude }
            if let longitude = station.longitude { minimums[country] = min(minimums[country] ?? .infinity, longitude) }
        }
        #expect(counts["", default: 0] == 0 && latitudes.count == counts.count && minimums.count == counts.count)
        let expected = counts.keys.sorted { counts[$0]! != counts[$1]! ? counts[$0]! > counts[$1]! : Folding.fold($0) < Folding.fold($1) }
            .map { "\($0) \(counts[$0]!) \((latitudes[$0]!.sum / Double(latitudes[$0]!.count)).bitPattern) \(minimums[$0]!.bitPattern)" }
        let spec = GroupSpec(fields: ["countryTitle"], aggregates: [Aggregate(.avg, "point.latitude"), Aggregate(.min, "point.longitude")])
        for threadsFrom in [0, Int.max] {
            let found = try Group.run(.all([stations]), by: spec, twoThreadsFrom: threadsFrom).map { row -> String in
                guard case let .number(mean) = row.aggregates[0], case let .number(west) = row.aggregates[1] else { return "?" }
                return "\(row.values[0]) \(row.count) \(mean.bitPattern) \(west.bitPattern)"
            }
            #expect(found == expected)
        }
        #expect(expected.first?.hasPrefix("Россия 3136 ") == true)
    }

    @Test("group by two fields of the bundled stations on two threads: the same groups in the same order")
    func stationsByTwoFieldsOnTwoThreads() throws {
        let spec = GroupSpec(fields: ["countryTitle", "regionTitle"], aggregates: [Aggregate(.distinct, "cityTitle"), Aggregate(.max, "point.latitude")])
        let one = try Group.run(.all([RealData.stations]), by: spec, twoThreadsFrom: .max)
        let two = try Group.run(.all([RealData.stations]), by: spec, twoThreadsFrom: 0)
        #expect(Self.exact(two) == Self.exact(one))
        #expect(one.count > 100)
    }

    @Test("Ctrl-C stops group on two threads with CancelledError")
    func cancellingStopsBothThreads() throws {
        #expect(throws: CancelledError.self) {
            try Group.run(.all([RealData.stations]), by: GroupSpec(fields: ["countryTitle"], aggregates: [Aggregate(.avg, "point.latitude")]),
                          cancellation: Cancellation { true }, twoThreadsFrom: 0)
        }
    }
}

private extension Int {
    /// 0…27 onto 0…6 in shares 1, 2, …, 7 (triangular numbers): each band its own expected count.
    var squareRootBand: Int {
        var band = 0
        var edge = 1
        while self >= edge, band < 6 {
            band += 1
            edge += band + 1
        }
        return band
    }
}
