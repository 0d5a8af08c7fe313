import AlmanacCore

extension PostgresResults {
    /// How many rows are read to find the coordinate columns, as memory samples its records.
    static let coordinateSample = 200

    /// Where the table's coordinates are, found as memory finds them (`GeoLocator` on some of
    /// its rows: lat/lon fields, a `[lat, lon]` list).
    func coordinateFields(for command: String, cancellation: Cancellation) throws -> NearQuery.Coordinates {
        let sample = try table.page(TableQuery(), offset: 0, limit: Self.coordinateSample, cancellation: cancellation).rows
        switch GeoLocator(dataset: sample).source {
        case let .latitudeLongitude(latitude, longitude)?:
            return .fields(latitude: latitude.description, longitude: longitude.description)
        case let .pair(field)?:
            return .pair(field.description)
        case .geometry?, nil:
            throw QueryError.invalid("\(table.name) has no coordinates \(command) can read in the database — it reads columns named "
                + "lat/latitude and lon/lng/longitude (or keys of a JSON column) and a [lat, lon] list named latlng")
        }
    }

    /// `near` as the table's question: its coordinates found as memory finds them (`GeoLocator`
    /// on some of its rows: lat/lon fields, a `[lat, lon]` list), the point and radius, and the
    /// key of the row measured from.
    func nearQuery(_ spec: NearSpec, cancellation: Cancellation) throws -> NearQuery {
        let coordinates = try coordinateFields(for: "near", cancellation: cancellation)
        var excludedKey: [String?]?
        var excludedRecord: String?
        if let record = spec.excludedRecord {
            let dataset = record.dataset
            if table.schema.primaryKey.isEmpty {
                excludedRecord = JSONWriter.string(dataset.record(record.row))
            } else {
                excludedKey = table.schema.primaryKey.map { index in
                    let name = table.schema.columns[index].name
                    return dataset.values(of: dataset.compile(FieldPath(components: [name])), row: record.row).first.map { dataset.text(of: $0) }
                }
            }
        }
        return NearQuery(coordinates: coordinates, latitude: spec.centre.latitude, longitude: spec.centre.longitude,
                         kilometres: spec.kilometres, excludedKey: excludedKey, excludedRecord: excludedRecord)
    }
}
