import AlmanacCore

extension PostgresResults {
    /// How many rows are read to find the coordinate columns, as memory samples its records.
    static let coordinateSample = 200

    /// `near` as the table's question: its coordinates found as memory finds them (`GeoLocator`
    /// on some of its rows: lat/lon fields, a `[lat, lon]` list), the point and radius, and the
    /// key of the row measured from.
    func nearQuery(_ spec: NearSpec, cancellation: Cancellation) throws -> NearQuery {
        let sample = try table.page(TableQuery(), offset: 0, limit: Self.coordinateSample, cancellation: cancellation).rows
        let coordinates: NearQuery.Coordinates
        switch GeoLocator(dataset: sample).source {
        case let .latitudeLongitude(latitude, longitude)?:
            coordinates = .fields(latitude: latitude.description, longitude: longitude.description)
        case let .pair(field)?:
            coordinates = .pair(field.description)
        case .geometry?, nil:
            throw QueryError.invalid("\(table.name) has no coordinates near can read in the database — it reads columns named "
                + "lat/latitude and lon/lng/longitude (or keys of a JSON column) and a [lat, lon] list named latlng")
        }
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
