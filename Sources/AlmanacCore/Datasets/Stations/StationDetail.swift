extension StationModel {
    /// The station picker's detail: title, full address, coordinates, directions, country, and
    /// the city's other stations.
    public static func detail(of dataset: Dataset, row: Int, links: Links) -> RecordDetail {
        let station = station(dataset, row: row)
        typealias Row = RecordDetail.Row
        typealias Section = RecordDetail.Section
        let coordinates = station.latitude.flatMap { latitude in
            station.longitude.map { Coordinates.text(latitude: latitude, longitude: $0) }
        }
        let directions: String = switch (station.directions.contains(.from), station.directions.contains(.to)) {
        case (true, true): "departures and arrivals (from, to)"
        case (true, false): "departures only (from)"
        case (false, true): "arrivals only (to)"
        default: ""
        }
        let others = station.cityId.map { rows(ofCity: $0, in: dataset) }?.filter { $0 != row } ?? []
        let country = links.country(named: station.countryTitle).map { $0.dataset.name(of: $0.row) }
        return RecordDetail(title: station.title, sections: [
            Section("Station", rows: [Row("Title", station.title), Row("Station id", String(station.id))]),
            Section("Address", rows: [Row("Address", station.address)]),
            Section("Coordinates", rows: [Row("Coordinates", coordinates)]),
            Section("Directions", rows: [Row("Serves", directions)]),
            Section("Country", rows: [Row("Country", country.map { "\($0) (\(station.countryTitle))" })]),
            Section("Other stations in \(station.cityTitle)", rows: others.prefix(50).map { Row("Station", dataset.name(of: $0)) }
                + (others.count > 50 ? [Row("", "… and \(others.count - 50) more")] : [])),
        ])
    }
}
