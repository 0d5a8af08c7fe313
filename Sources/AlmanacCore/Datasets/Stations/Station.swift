/// Which way a station serves: departures (`citiesFrom`), arrivals (`citiesTo`), or both.
public struct Directions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let from = Directions(rawValue: 1)
    public static let to = Directions(rawValue: 2)

    /// `["from"]`, `["to"]` or `["from", "to"]`.
    public var names: [String] {
        var names: [String] = []
        if contains(.from) { names.append("from") }
        if contains(.to) { names.append("to") }
        return names
    }
}

/// One station of the ticketing service, however many times the source lists it.
public struct Station: Sendable, Equatable {
    public var id: Int
    public var title: String
    public var cityId: Int?
    /// The stations' own spelling of the city (`город Чистополь`).
    public var cityTitle: String
    public var districtTitle: String
    public var regionTitle: String
    public var countryTitle: String
    public var latitude: Double?
    public var longitude: Double?
    public var directions: Directions

    public init(_ record: JSONValue, directions: Directions) {
        id = record["stationId"]?.number.flatMap { Int(exactly: $0) } ?? 0
        title = record["stationTitle"]?.string ?? ""
        cityId = record["cityId"]?.number.flatMap { Int(exactly: $0) }
        cityTitle = record["cityTitle"]?.string ?? ""
        districtTitle = record["districtTitle"]?.string ?? ""
        regionTitle = record["regionTitle"]?.string ?? ""
        countryTitle = record["countryTitle"]?.string ?? ""
        latitude = record["point"]?["latitude"]?.number
        longitude = record["point"]?["longitude"]?.number
        self.directions = directions
    }

    /// City, district, region, country — empty parts skipped.
    public var address: String {
        [cityTitle, districtTitle, regionTitle, countryTitle]
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty }
            .joined(separator: ", ")
    }
}

/// A city entry of the source, with its own title (`Чистополь`, where its stations say
/// `город Чистополь`), id, coordinates and stations.
public struct City: Sendable, Equatable {
    public var id: Int?
    public var title: String
    public var districtTitle: String
    public var regionTitle: String
    public var countryTitle: String
    public var latitude: Double?
    public var longitude: Double?
    public var stationIds: [Int]
    /// The list the entry came from.
    public var direction: Directions

    public init(_ record: JSONValue, direction: Directions) {
        id = record["cityId"]?.number.flatMap { Int(exactly: $0) }
        title = record["cityTitle"]?.string ?? ""
        districtTitle = record["districtTitle"]?.string ?? ""
        regionTitle = record["regionTitle"]?.string ?? ""
        countryTitle = record["countryTitle"]?.string ?? ""
        latitude = record["point"]?["latitude"]?.number
        longitude = record["point"]?["longitude"]?.number
        stationIds = (record["stations"]?.array ?? []).compactMap { $0["stationId"]?.number.flatMap { Int(exactly: $0) } }
        self.direction = direction
    }
}

import Foundation
