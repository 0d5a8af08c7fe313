import AlmanacCore

/// `near … within N km` on a table: the rows whose coordinates lie within N km of a point, as a
/// condition and an order the database evaluates (haversine, as almanac computes it in memory).
public struct NearQuery: Sendable, Equatable {
    /// Where a row's coordinates are: two fields (`lat`, `point.latitude`), or a
    /// `[latitude, longitude]` list (`latlng`).
    public enum Coordinates: Sendable, Equatable {
        case fields(latitude: String, longitude: String)
        case pair(String)
    }

    public var coordinates: Coordinates
    public var latitude: Double
    public var longitude: Double
    public var kilometres: Double
    /// The primary key of the row measured from (left out), when it was a row of the table.
    public var excludedKey: [String?]?
    /// The row measured from as JSON, for a table without a primary key.
    public var excludedRecord: String?

    public init(coordinates: Coordinates, latitude: Double, longitude: Double, kilometres: Double, excludedKey: [String?]? = nil,
                excludedRecord: String? = nil) {
        self.coordinates = coordinates
        self.latitude = latitude
        self.longitude = longitude
        self.kilometres = kilometres
        self.excludedKey = excludedKey
        self.excludedRecord = excludedRecord
    }

    /// The name of the column the distance is written in, as in memory.
    public static let column = "distance"
}
