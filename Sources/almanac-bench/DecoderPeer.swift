import Foundation

/// The peer a Swift programmer would write first: Foundation's JSONDecoder into Codable
/// structs, then the stations collected by id (as almanac does), so both end with the same
/// records.
enum DecoderPeer {
    struct File: Decodable {
        var citiesFrom: [City]
        var citiesTo: [City]
    }

    struct Point: Decodable {
        var longitude: Double
        var latitude: Double
    }

    struct City: Decodable {
        var countryTitle: String
        var point: Point
        var districtTitle: String
        var cityId: Int
        var cityTitle: String
        var regionTitle: String
        var stations: [Station]
    }

    struct Station: Decodable {
        var countryTitle: String
        var point: Point
        var districtTitle: String
        var cityId: Int
        var cityTitle: String
        var regionTitle: String
        var stationId: Int
        var stationTitle: String
    }

    struct Loaded {
        var stations: [Station]
        var entries: Int
    }

    /// Reads and decodes the file; the records are the distinct stations in source order.
    static func load(_ path: String) throws -> Loaded {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let file = try JSONDecoder().decode(File.self, from: data)
        var seen = Set<Int>()
        var stations: [Station] = []
        var entries = 0
        for city in file.citiesFrom + file.citiesTo {
            for station in city.stations {
                entries += 1
                if seen.insert(station.stationId).inserted { stations.append(station) }
            }
        }
        return Loaded(stations: stations, entries: entries)
    }
}
