import AlmanacCore
import Foundation

/// `trip from STATION to STATION [on DATE]`: the station picker's schedule screen — both
/// stations with their full addresses, the date with its weekday, and the distance between them.
public enum TripCommand: Command {
    static let from = Parameter("STATION", .text(.stations(.from)), .words, after: "from")
    static let to = Parameter("STATION", .text(.stations(.to)), .words, after: "to")
    static let date = Parameter("DATE", .text(.words(["today", "tomorrow"] + Weekday.completions)), .optionalWords, after: "on")
    static let map = Parameter.flag("--map")
    static let countries = Parameter.flag("--countries")

    public static let spec = CommandSpec(
        name: "trip",
        summary: "Plan a trip between two stations",
        parameters: [from, to, date, map, countries],
        examples: ["trip from 9484 to Казань on tomorrow", "trip from \"Автостанция Красногвардейская\" to 9362 on 1 Dec",
                   "trip from 9864 to 9362 on 2026-12-01", "trip from 9864 to 9362 on next friday", "trip from 9864 to 9362 --map",
                   "trip from 9864 to 9362 --countries"],
        discussion: """
        STATION is anything show accepts: an id, a name, or a row (#3). The departure must serve \
        departures (from) and the arrival arrivals (to); they must differ. DATE is today, tomorrow, \
        a weekday, 2026-12-01, 01.12.2026 (day.month.year), 1 Dec or 1 Dec 2026. A weekday (friday, fri, \
        пятница) is the first such day after today: on a Friday, friday is a week ahead; next friday is \
        the one after that. A day and month without a year mean the next such day that exists (29 Feb: \
        the next leap year's; likewise 01.12). A field outside its range is an error naming it \
        (2026-13-01: there is no month 13; likewise day 0 or 32 and year 0), and so is a day the month \
        does not have (30 February 2026). A date in the past is answered with a note. \
        --map draws both stations and the great-circle route between them over the country outlines \
        around it (a short trip's map reaches out to the nearest border; as map does; under \
        --format json, a GeoJSON FeatureCollection of the two stations and the route). \
        --countries lists the countries the great circle crosses, in order, with the km from the \
        departure where it enters and leaves each (outlines of world.geojson, tested every km); \
        its rows are what machine formats write.

          stations> trip from 9864 to 9362 on 2099-12-01 --map
          Trip on Tuesday 1 December 2099
            From     Stadion Center, Engerthstr. 242 [9864]
                     город Вена, Австрия
            To       Чистополь [9362]
                     город Чистополь, Чистопольский район, Республика Татарстан, Россия
            Distance 2,459.4 km in a straight line (great circle)
            ⡰⠒⠩⡃⠘⡄   ⢀⠇    ⢠⠋ ⠓⠃ ⠈⠉⢱
            ⡇ ⡠⢪⠔⢺⡀⢠⠒⠚     ⢸⠊⠉⠉⠉⠓⠤⡠⠔⠳⣤⢤⡀                      ⣀⣀
            ⢱⠦⢾⠈⠒⣎⠉⠁ ⢀⣀⠤⢤⣀⣔⠊⠑⢢  ⢀⡴⠃    ⣇         ⢀⣀⣀⣤⣤⣤⡶⠶⠶⠾⠟⠛⠛⠿⠿
          ⣀⠤⡬⠂ ⠙⠉ ⠑⣔⠊⠁    ⠈⠉⠉⠉⢱⠒⠋      ⠈⠦⡄⢀⣀⣤⣴⡶⠾⠟⠛⠋⠉⠉                     ⢠
          ⢠⠇       ⢪⡀         ⡸      ⣀⣤⣴⡿⠟⣛⠉⠉                             ⢠
          ⠚         ⣇         ⢹⠔⢒⣲⣶⠾⢟⣏⣹⠚⠉⠉⠈⡆                  ⡠⠤⠤⢄⡀      ⠐⢅
          ⡇      ⣀⡠⠊⠊⢢⣀⣀    ⢀⣠⣼⡿⠛⠉         ⠉⠱⢄⣀           ⢀ ⡔⠉    ⠈⠑⠢⠊⠉⠉⠒⠔⠒
          ⢇⡀     ⠳⡀   ⠉⠈⣹⣦⣴⣾⢟⣟                 ⠑⠒⠦⡄       ⡞⠉⠃
           ⢨⠃     ⡝⠶⠋⢳⣦⣾⠿⢛⣡⠤⣠⣏   ⢀⣀⢤⡀            ⢸⠁      ⢠⠃
          ⢠⠜⠶⠢⡤⡤⢴⡒⠇  ⢘⡟⠓⠋⠉  ⡰⠋⠉⠉⠊⠁⠘⢄⠈⢆         ⢠⣖⡋        ⠑⠲⡀
          ⣏ ⣀⡠⣌⠟⠁⠓⢦⠤⠔⣺⠧⡀ ⢀⣀⡴⠃      ⢈⢦⠬⢦⠒⠦⢄⡀ ⡠⠒⠒⢗⠉⠁          ⡧⠔⠊⠉⠒⢣
          the route: 2,459.4 km along the great circle from 48.20°N 16.37°E to 55.37°N 50.64°E
          equirectangular projection (standard parallel 52°N), one column ≈ 0.847° of longitude
        """
    )

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        let parsed = try arguments.parse()
        let (fromWords, toWords, dateWords) = (parsed[Self.from].map(\.word), parsed[Self.to].map(\.word), parsed[Self.date].map(\.word))
        let drawsMap = parsed.has(map)
        let stations = try session.dataset("stations")
        let (departure, departureRow) = try MapCommand.pointed(at: fromWords) {
            try station(parsed.text(from), serving: .from, in: stations, session: session)
        }
        let (arrival, arrivalRow) = try MapCommand.pointed(at: toWords) { try station(parsed.text(to), serving: .to, in: stations, session: session) }
        if departure.id == arrival.id {
            throw ShellError.invalid("\(SafeText.escape(departure.title)) [\(departure.id)] is both the departure and the arrival: "
                + "a trip needs two different stations")
        }
        let date = try MapCommand.pointed(at: dateWords) { try TripDate.parse(dateWords.isEmpty ? "today" : parsed.text(Self.date)) }
        let kilometres = distance(departure, arrival).map { ResultValue.decimal(($0 * 10).rounded() / 10) } ?? .absent
        let table = ResultTable(
            columns: [ResultColumn("from"), ResultColumn("fromId", .integer), ResultColumn("fromAddress"),
                      ResultColumn("to"), ResultColumn("toId", .integer), ResultColumn("toAddress"),
                      ResultColumn("date", .date), ResultColumn("km", .decimal)],
            rows: [[.text(departure.title), .integer(departure.id), .text(departure.address),
                    .text(arrival.title), .integer(arrival.id), .text(arrival.address), .date(date), kilometres]])
        if parsed.has(countries) {
            var answer = try TripCountries.result(from: departure, to: arrival, lines: lines(departure, arrival, date), session: session)
            // With --map too, people get the map below the list.
            if drawsMap, !session.settings.format.isMachineReadable, case let .lines(list)? = answer.prose,
               let map = try TripMap.result(from: (departure, departureRow), to: (arrival, arrivalRow), in: stations, table: table,
                                            lines: [], session: session), case let .lines(picture)? = map.prose {
                answer.prose = .lines(list + picture)
            }
            return answer
        }
        guard drawsMap else { return CommandResult(table, shape: .object, prose: .lines(lines(departure, arrival, date))) }
        return try TripMap.result(from: (departure, departureRow), to: (arrival, arrivalRow), in: stations, table: table,
                                  lines: lines(departure, arrival, date), session: session)
    }

    /// The trip as a person reads it: the date, both stations with their addresses, the distance.
    static func lines(_ departure: Station, _ arrival: Station, _ date: Date) -> [String] {
        var lines = ["Trip on \(TripDate.text(date))"]
        let label = ["From", "To"]
        for (index, station) in [departure, arrival].enumerated() {
            lines.append("  \(label[index].padding(toLength: 9, withPad: " ", startingAt: 0))\(SafeText.escape(station.title)) [\(station.id)]")
            lines.append("           \(SafeText.escape(station.address))")
        }
        if let kilometres = distance(departure, arrival) {
            lines.append("  Distance \(NumberFormat.grouped(kilometres, decimals: 1)) km in a straight line (great circle)")
        }
        if TripDate.isPast(date) { lines.append("  Note     \(TripDate.text(date, weekday: false)) is in the past") }
        return lines
    }

    static func distance(_ departure: Station, _ arrival: Station) -> Double? {
        guard let lat1 = departure.latitude, let lon1 = departure.longitude, let lat2 = arrival.latitude,
              let lon2 = arrival.longitude else { return nil }
        return Coordinates.distance(fromLatitude: lat1, longitude: lon1, toLatitude: lat2, longitude: lon2)
    }

    static func station(_ text: String, serving wanted: Directions, in stations: Dataset, session: Session) throws -> (Station, row: Int) {
        let target: RecordTarget
        do {
            target = try RecordTarget.resolve(text, in: session, datasets: [stations]) { dataset, row in
                StationModel.directions(dataset, row).contains(wanted)
            }
        } catch {
            // Say so when the station exists but only serves the other direction.
            if let any = try? RecordTarget.resolve(text, in: session, datasets: [stations]) {
                let station = StationModel.station(stations, row: any.row)
                let serves = station.directions.contains(.from) ? "departures (from)" : "arrivals (to)"
                throw ShellError.invalid("\(SafeText.escape(station.title)) [\(station.id)] serves only \(serves); "
                    + "a trip needs \(wanted == .from ? "a departure station (from)" : "an arrival station (to)") here"
                    + alternatives(to: station, typed: text, serving: wanted, in: stations))
            }
            throw error
        }
        return (StationModel.station(stations, row: target.row), target.row)
    }

    /// `; город Москва has 53 that do: Москва (Варшавская) [8226], …`: the same city's
    /// stations that serve `wanted`, by id, for a name (`typed`) that found one serving the other way.
    static func alternatives(to station: Station, typed: String, serving wanted: Directions, in stations: Dataset, shown: Int = 4) -> String {
        guard let city = station.cityId else { return "" }
        let rows = StationModel.rows(ofCity: city, in: stations).filter { StationModel.directions(stations, $0).contains(wanted) }
        guard !rows.isEmpty else { return "" }
        // Those spelled like the name typed first (Москва (Варшавская) for Москва), else in the dataset's order.
        let others = rows.map { StationModel.station(stations, row: $0) }
        let alike = others.filter { $0.title.localizedCaseInsensitiveContains(typed) }
        let named = (alike + others.filter { !$0.title.localizedCaseInsensitiveContains(typed) })
            .prefix(shown).map { "\(SafeText.escape($0.title)) [\($0.id)]" }
        return "; \(SafeText.escape(station.cityTitle)) has \(rows.count) that \(rows.count == 1 ? "does" : "do"): "
            + named.joined(separator: ", ") + (rows.count > shown ? ", …" : "")
    }
}
