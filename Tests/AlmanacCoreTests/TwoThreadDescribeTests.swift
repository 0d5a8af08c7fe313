import Foundation
import Synchronization
import Testing
@testable import AlmanacCore

/// `describe` profiles its fields on two threads (from a size measured at 100×; here forced
/// down to every input): the profiles, their order and the first error must be one thread's.
@Suite struct TwoThreadDescribeTests {
    static let mixed = TwoThreadGroupTests.mixed

    @Test("describe on two threads: every field's profile is one thread's, in the same order")
    func describeOnTwoThreadsIsOneThreads() throws {
        for dataset in [Self.mixed, RealData.stations, RealData.people, RealData.species, RealData.planets, RealData.countries] {
            let one = try Describe.run(.all([dataset]), twoThreadsFrom: .max)
            let two = try Describe.run(.all([dataset]), twoThreadsFrom: 0)
            #expect(two.map(\.dataset) == one.map(\.dataset))
            #expect(two.map(\.profile) == one.map(\.profile), "\(dataset.name)")
            #expect(two.map(\.profile.field) == dataset.fields.fields.map(\.path))
        }
        // Several datasets, chosen fields and a computed one.
        let both = ResultSet.all([RealData.people, RealData.species])
        let fields = ["name", "height", "height * 2", "homeworld"]
        let one = try Describe.run(both, fields: fields, twoThreadsFrom: .max)
        let two = try Describe.run(both, fields: fields, twoThreadsFrom: 0)
        #expect(two.map(\.dataset) == one.map(\.dataset) && two.map(\.profile) == one.map(\.profile))
        #expect(one.count >= 5)
    }

    @Test("describe on two threads: band's and weight's profiles as a plain loop over the records makes them")
    func describeOnTwoThreadsAgainstAPlainLoop() throws {
        let profiles = try Describe.run(.all([Self.mixed]), fields: ["band", "weight"], twoThreadsFrom: 0)
        let band = try #require(profiles.first?.profile)
        let weight = try #require(profiles.last?.profile)
        let records = (0..<TwoThreadGroupTests.count).map(TwoThreadGroupTests.record)
        var counts: [String: Int] = [:]
        var firstMet: [String] = []
        for record in records {
            if counts[record.band] == nil { firstMet.append(record.band) }
            counts[record.band, default: 0] += 1
        }
        // The most common first, equal counts in the order first met.
        let common = firstMet.enumerated().sorted { a, b in
            counts[a.element]! != counts[b.element]! ? counts[a.element]! > counts[b.element]! : a.offset < b.offset
        }.prefix(5).map { "\($0.element)=\(counts[$0.element]!)" }
        #expect(band.common.map { "\($0.value)=\($0.count)" } == common)
        #expect(band.present == TwoThreadGroupTests.count && band.distinct == 7)
        let weights = records.map(\.weight)
        #expect(weight.present == TwoThreadGroupTests.count && weight.absent == 0)
        #expect(weight.minimum == weights.min() && weight.maximum == weights.max())
        #expect(weight.distinct == Set(weights).count)
    }

    @Test("Ctrl-C stops describe on two threads with CancelledError")
    func cancellingStopsBothThreads() throws {
        // Cancelled from the second check on: the first field starts, then Ctrl-C.
        let checks = Checks()
        let cancelled = Cancellation { checks.count.add(1, ordering: .relaxed).newValue > 1 }
        let results = ResultSet.all([RealData.stations])
        #expect(throws: CancelledError.self) { try Describe.run(results, cancellation: cancelled, twoThreadsFrom: 0) }
        #expect(throws: CancelledError.self) { try Describe.run(results, cancellation: Cancellation { true }, twoThreadsFrom: 0) }
    }
}

private final class Checks: Sendable {
    let count = Atomic<Int>(0)
}
