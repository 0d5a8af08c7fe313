import AlmanacCore

/// `trip … --countries`: the countries the great circle between the two stations crosses, in
/// order, each with where the route enters and leaves it (km from the departure).
enum TripCountries {
    static func result(from departure: Station, to arrival: Station, lines: [String], session: Session) throws -> CommandResult {
        guard let fromLatitude = departure.latitude, let fromLongitude = departure.longitude,
              let toLatitude = arrival.latitude, let toLongitude = arrival.longitude else {
            let missing = departure.latitude == nil || departure.longitude == nil ? departure : arrival
            throw ShellError.invalid("\(SafeText.escape(missing.title)) [\(missing.id)] has no coordinates to follow")
        }
        let start = GeoPoint(latitude: fromLatitude, longitude: fromLongitude)
        let end = GeoPoint(latitude: toLatitude, longitude: toLongitude)
        guard start.isValid, end.isValid else { throw ShellError.invalid("a station's coordinates are out of range") }
        let areas = try GeoAnswer.areas(in: session)
        let countries = try? session.dataset("countries")
        let crossings = areas.crossings(from: start, to: end)
        let rows: [[ResultValue]] = crossings.map { crossing in
            let outline = areas.outlines.outlines[crossing.outline]
            let name = countries.flatMap { $0.row(forIdentity: outline.code).map($0.name(of:)) } ?? outline.name
            return [.text(name), outline.code.allSatisfy(\.isLetter) ? .text(outline.code) : .absent,
                    .decimal(Haversine.rounded(crossing.enters)), .decimal(Haversine.rounded(crossing.leaves)),
                    .decimal(Haversine.rounded(crossing.kilometres))]
        }
        let table = ResultTable(columns: [ResultColumn("country"), ResultColumn("alpha3Code"), ResultColumn("fromKm", .decimal),
                                          ResultColumn("toKm", .decimal), ResultColumn("km", .decimal)], rows: rows)
        var text = lines + ["  Crossing (along the great circle, km from the departure)"]
        let nameWidth = rows.map { ResultText.plain($0[0]).count }.max() ?? 0
        for row in rows {
            let name = SafeText.escape(ResultText.plain(row[0]))
            func km(_ value: ResultValue) -> String { ValueText.number(NumberFormat.fixed(value.number ?? 0, decimals: 1), field: "km") }
            let span = "\(km(row[2])) – \(km(row[3])) km"
            text.append("           " + name.padding(toLength: max(nameWidth, name.count), withPad: " ", startingAt: 0) + "  " + span)
        }
        if rows.isEmpty { text.append("           no country outline (the route is over sea, or over places without one)") }
        return CommandResult(table, prose: .lines(text))
    }
}
