import AlmanacCore
import Foundation

/// `trip from STATION to STATION [on DATE]`: the station picker's schedule screen — both
/// stations with their full addresses, the date with its weekday, and the distance between them.
public enum TripCommand: Command {
    public static let spec = CommandSpec(
        name: "trip",
        summary: "Plan a trip between two stations",
        usage: "trip from STATION to STATION [on DATE]",
        examples: ["trip from 9484 to Казань on tomorrow", "trip from \"Автостанция Красногвардейская\" to 9362 on 1 Dec",
                   "trip from 9864 to 9362 on 2026-12-01"],
        discussion: """
        STATION is anything show accepts: an id, a name, or a row (#3). The departure must serve \
        departures (from) and the arrival arrivals (to). DATE is today, tomorrow, 2026-12-01 or 1 Dec.
        """
    )

    public static func complete(_ request: CompletionRequest, in session: Session) -> [CompletionCandidate] {
        let words = request.arguments.map { $0.text.lowercased() }
        guard let stations = session.catalog.dataset("stations") else { return [] }
        let keyword = words.last(where: { ["from", "to", "on"].contains($0) })
        switch keyword {
        case nil: return request.matching(["from"])
        case "on": return words.last == "on" ? request.matching(["today", "tomorrow"]) : []
        default:
            let wanted: Directions = keyword == "from" ? .from : .to
            var candidates: [CompletionCandidate] = []
            if words.last != keyword { candidates += request.matching(keyword == "from" ? ["to"] : ["on"]) }
            guard let index = NameIndex.ifReady(stations) else { return candidates }
            for row in index.rows(withNamePrefix: request.fragment) where StationModel.directions(stations, row).contains(wanted) {
                candidates.append(CompletionCandidate(stations.name(of: row)))
                if candidates.count >= 500 { break }
            }
            return candidates
        }
    }

    public static func run(_ arguments: Arguments, in session: Session) throws {
        var parts: [String: [String]] = [:]
        var current: String?
        for word in arguments.words {
            let lowered = word.text.lowercased()
            if !word.isQuoted, ["from", "to", "on"].contains(lowered), parts[lowered] == nil {
                current = lowered
                parts[lowered] = []
            } else if let current {
                parts[current, default: []].append(word.text)
            } else {
                throw arguments.usageError("start with from")
            }
        }
        guard let fromWords = parts["from"], !fromWords.isEmpty else { throw arguments.usageError("missing the departure: from STATION") }
        guard let toWords = parts["to"], !toWords.isEmpty else { throw arguments.usageError("missing the arrival: to STATION") }
        let stations = try session.dataset("stations")
        let departure = try station(fromWords.joined(separator: " "), serving: .from, in: stations, session: session)
        let arrival = try station(toWords.joined(separator: " "), serving: .to, in: stations, session: session)
        let date = try TripDate.parse((parts["on"] ?? ["today"]).joined(separator: " "))
        let output = session.output
        var lines = ["Trip on \(TripDate.text(date))"]
        let label = ["From", "To"]
        for (index, station) in [departure, arrival].enumerated() {
            lines.append("  \(label[index].padding(toLength: 9, withPad: " ", startingAt: 0))\(SafeText.escape(station.title)) [\(station.id)]")
            lines.append("           \(SafeText.escape(station.address))")
        }
        if let lat1 = departure.latitude, let lon1 = departure.longitude, let lat2 = arrival.latitude, let lon2 = arrival.longitude {
            let kilometres = Coordinates.distance(fromLatitude: lat1, longitude: lon1, toLatitude: lat2, longitude: lon2)
            lines.append("  Distance \(NumberFormat.grouped(kilometres, decimals: 1)) km in a straight line (great circle)")
        }
        for line in lines { output.print(line) }
    }

    static func station(_ text: String, serving wanted: Directions, in stations: Dataset, session: Session) throws -> Station {
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
                    + "a trip needs \(wanted == .from ? "a departure station (from)" : "an arrival station (to)") here")
            }
            throw error
        }
        return StationModel.station(stations, row: target.row)
    }
}

/// Dates as people type them: `today`, `tomorrow`, `2026-12-01`, `1 Dec`, `Dec 1`.
enum TripDate {
    static func parse(_ text: String, now: Date = Date()) throws -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.current
        let today = calendar.startOfDay(for: now)
        let lowered = text.lowercased().trimmingCharacters(in: .whitespaces)
        switch lowered {
        case "today": return today
        case "tomorrow": return calendar.date(byAdding: .day, value: 1, to: today)!
        default: break
        }
        let numbers = lowered.split(separator: "-").map { Int($0) }
        if numbers.count == 3, let year = numbers[0], let month = numbers[1], let day = numbers[2],
           let date = calendar.date(from: DateComponents(year: year, month: month, day: day)),
           calendar.component(.day, from: date) == day {
            return date
        }
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        let words = lowered.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "." })
        if words.count == 2 {
            let (dayText, monthText) = Int(words[0]) != nil ? (words[0], words[1]) : (words[1], words[0])
            if let day = Int(dayText), let month = months.firstIndex(where: { monthText.hasPrefix($0) }) {
                var components = DateComponents(year: calendar.component(.year, from: today), month: month + 1, day: day)
                if var date = calendar.date(from: components), calendar.component(.day, from: date) == day {
                    if date < today {
                        components.year! += 1
                        date = calendar.date(from: components) ?? date
                    }
                    return date
                }
            }
        }
        throw ShellError.invalid("'\(SafeText.escape(text))' is not a date: use today, tomorrow, 2026-12-01 or 1 Dec")
    }

    /// `Tuesday 1 December 2026`.
    static func text(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.dateFormat = "EEEE d MMMM yyyy"
        return formatter.string(from: date)
    }
}
