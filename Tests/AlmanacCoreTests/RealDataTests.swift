import Foundation
import Testing
@testable import AlmanacCore

/// The bundled files, loaded for real.
enum RealData {
    static let directory: String = {
        var path = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        path.removeLast(3)
        return path.joined(separator: "/") + "/Data"
    }()

    static func load(_ name: String) throws -> Dataset {
        let entry = DefaultDatasets.all.first { $0.name == name }!
        let request = LoadRequest(name: name, source: .file(path: directory + "/" + entry.file), model: entry.model)
        return try DatasetLoader().load(request, progress: LoadProgress(), cancellation: .never)
    }

    static let countries = try! load("countries")
    static let species = try! load("species")
    static let planets = try! load("planets")
    static let people = try! load("people")
    static let stations = try! load("stations")
}

/// The bundled files read by Foundation, not by almanac: expected values for tests.
enum RawData {
    static func object(_ file: String) -> Any? {
        guard let data = FileManager.default.contents(atPath: RealData.directory + "/" + file) else { return nil }
        return try? JSONSerialization.jsonObject(with: data)
    }
}

@Suite struct RealDataTests {
    @Test func everyRecordLoadsWithTheExpectedCounts() throws {
        #expect(RealData.countries.count == 250)
        #expect(RealData.species.count == 37)
        #expect(RealData.planets.count == 60)
        #expect(RealData.people.count == 82)
        #expect(RealData.stations.count == 4037)
        #expect(StationModel.cities(of: RealData.stations).count == 3120)
        #expect(StationModel.summary(of: RealData.stations) == "4,037 stations in 3,120 cities")
    }

    @Test func antarcticaHasNoCapital() throws {
        let row = try #require(RealData.countries.row(forIdentity: "ATA"))
        let antarctica = Country(RealData.countries.record(row))
        #expect(antarctica.name == "Antarctica")
        #expect(antarctica.capital == nil)
        #expect(RealData.countries.row(forIdentity: "aq") == row)
    }

    @Test func wookieLivesFourHundredYearsAndDroidsIndefinitely() throws {
        let wookie = Species(RealData.species.record(try #require(RealData.species.row(forIdentity: "3"))))
        #expect(wookie.name == "Wookie")
        #expect(wookie.averageLifespan.years == 400)
        #expect(wookie.averageHeight == 210)
        let droid = Species(RealData.species.record(try #require(RealData.species.row(forIdentity: "2"))))
        #expect(droid.averageLifespan.years == nil)
        #expect(droid.averageLifespan.text == "indefinite")
        #expect(droid.skinColors.isEmpty)
        #expect(droid.homeworld == nil)
        #expect(droid.created != nil)
    }

    @Test func station9362IsChistopolInTatarstan() throws {
        let row = try #require(RealData.stations.row(forIdentity: "9362"))
        let station = StationModel.station(RealData.stations, row: row)
        #expect(station.title == "Чистополь")
        #expect(station.regionTitle == "Республика Татарстан")
        #expect(station.cityTitle == "город Чистополь")
        let city = try #require(StationModel.cities(of: RealData.stations).first { $0.id == station.cityId })
        #expect(city.title == "Чистополь")
    }

    @Test func speciesWarnAboutHeightsThatAreNotNumbers() {
        let messages = RealData.species.warnings.map(\.description)
        #expect(messages.contains("record 2 (Droid): average_height \"n/a\" is not a number"))
    }

    @Test func recordsWriteBackAsTheirSource() throws {
        let original = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: RealData.directory + "/countries.json"))) as! [NSDictionary]
        for row in 0..<RealData.countries.count {
            let text = JSONWriter.string(RealData.countries.record(row))
            let back = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! NSDictionary
            #expect(back == original[row])
        }
    }
}
