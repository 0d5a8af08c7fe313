import AlmanacCore

/// near, within, outside (over the scaled stations) and path, reach (over the borders graph),
/// as the in-memory engine runs them; each count checked against a plain scan first.
enum GeographySteps {
    /// Moscow's Kazansky station area and Vienna: the densest and a sparse neighbourhood.
    static let nearQueries: [(id: String, centre: GeoPoint, kilometres: Double)] = [
        ("near:moscow50", GeoPoint(latitude: 55.7558, longitude: 37.6173), 50),
        ("near:vienna300", GeoPoint(latitude: 48.2, longitude: 16.37), 300),
    ]
    static let withinCodes = ["AUT", "RUS"]

    static func run(_ dataset: Dataset, directory: String, isLarge: Bool,
                    record: (String, String, Stats, Int?) -> Void) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        let everything = ResultSet.all([dataset])
        func freshCopy() -> Dataset {
            Dataset(name: dataset.name, model: dataset.model, document: dataset.document,
                    extraction: Extraction(records: dataset.records, warnings: dataset.warnings, extras: dataset.extras),
                    origin: dataset.origin)
        }
        let (gridStats, indexed) = try measure(warmups: 1, runs: 5) { try PointGrid.of(freshCopy()).count }
        record("geo.grid", "point grid: build (the first near/within/outside pays it)", gridStats, indexed)
        let grid = try PointGrid.of(dataset)

        for query in nearQueries {
            // A plain scan of every point first.
            var expected = 0
            for slot in 0..<grid.count where Haversine.kilometres(query.centre.latitude, query.centre.longitude, grid.latitudes[slot],
                                                                    grid.longitudes[slot]) <= query.kilometres {
                expected += 1
            }
            let step = QueryStep.near(NearSpec(centre: query.centre, kilometres: query.kilometres))
            let (stats, found) = try measure(warmups: 2, runs: 11) {
                try QueryStack.evaluate(step, on: everything, everything: everything, cancellation: .never).count
            } check: { try expect($0, expected, "\(query.id) vs a scan of every point") }
            record(query.id, "near \(query.centre.latitude), \(query.centre.longitude) within \(Int(query.kilometres)) km", stats, found)
            counts[query.id] = found
        }

        let outlines = try WorldOutlines.load(path: directory + "/world.geojson")
        let areas = WorldAreas(outlines)
        for code in withinCodes {
            guard let index = outlines.outline(code: code, name: "") else { continue }
            let area = areas.areas[index]
            var expected = 0
            for slot in 0..<grid.count where area.contains(latitude: grid.latitudes[slot], longitude: grid.longitudes[slot]) { expected += 1 }
            let step = QueryStep.within(WithinSpec(name: code, area: area))
            let (stats, found) = try measure(warmups: 2, runs: 7) {
                try QueryStack.evaluate(step, on: everything, everything: everything, cancellation: .never).count
            } check: { try expect($0, expected, "within \(code) vs a scan of every point") }
            record("within:\(code)", "within \(code)", stats, found)
            counts["within:\(code)"] = found
        }

        let countries = try DatasetLoader().load(LoadRequest(name: "countries", source: .file(path: directory + "/countries.json"),
                                                             model: CountryModel.self), progress: LoadProgress(), cancellation: .never)
        let outside = QueryStep.outside(OutsideSpec(field: "countryTitle", countries: countries, areas: areas))
        let (outsideStats, outsideCount) = try measure(warmups: 1, runs: isLarge ? 3 : 5) {
            try QueryStack.evaluate(outside, on: everything, everything: everything, cancellation: .never).count
        }
        record("outside", "outside (every station against its country's outline)", outsideStats, outsideCount)
        counts["outside"] = outsideCount

        let graph = BorderGraph.of(countries)
        guard let portugal = countries.row(forIdentity: "PRT"), let china = countries.row(forIdentity: "CHN"),
              let spain = countries.row(forIdentity: "ESP") else { return counts }
        let (pathStats, steps) = try measure(warmups: 3, runs: 21) { graph.path(from: portugal, to: china)?.count ?? 0 }
        record("path", "path Portugal China (borders graph)", pathStats, steps)
        let reach = QueryStep.reach(ReachSpec(dataset: "countries", row: spain, borders: 3))
        let all = ResultSet.all([countries])
        let (reachStats, reached) = try measure(warmups: 3, runs: 21) {
            try QueryStack.evaluate(reach, on: all, everything: all, cancellation: .never).count
        }
        record("reach", "reach Spain 3 (borders graph, with its distance column)", reachStats, reached)
        counts["path"] = steps
        counts["reach"] = reached
        return counts
    }
}
