import AlmanacCore
import Foundation

/// What near, within, outside, reach and path share: finding a country by any name, the
/// outlines, the checks before a question, and results written as GeoJSON under json.
enum GeoAnswer {
    /// The country `text` names (a name, a code, any name search knows, a row `#3` of
    /// countries), and the countries dataset; an unknown one points at `words`.
    static func country(_ text: String, words: [Word], among known: Dataset? = nil, in session: Session) throws -> (countries: Dataset, row: Int) {
        let countries = try known ?? Self.countries(in: session)
        let target = try MapCommand.pointed(at: words) {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            // A row of the listing only when that listing is of countries.
            if trimmed.hasPrefix("#"), let results = try? session.currentResults(), !results.datasets.contains(where: { $0 === countries }) {
                throw ShellError.invalid("#\(trimmed.dropFirst()) is a row of the listing, and the listing is not of countries — name the country")
            }
            // A code names its country first, as the bundled countries know theirs (CHN, not the
            // neighbours whose borders list CHN).
            if let row = row(coded: trimmed, in: countries) { return RecordTarget(dataset: countries, row: row) }
            do {
                return try RecordTarget.resolve(text, in: session, datasets: [countries])
            } catch let error as ShellError {
                guard case let .invalid(message) = error, !message.contains("\n") else { throw error }
                throw ShellError.invalid(message.replacingOccurrences(of: "nothing called", with: "no country called"))
            }
        }
        guard target.dataset === countries else {
            throw ShellError.invalid("\(SafeText.escape(text)) is not a country").pointing(at: words)
        }
        return (countries, target.row)
    }

    /// The countries a question follows: the dataset in use when it has the countries' shape
    /// (alpha3Code and a borders list) whatever its name — a table's rows read, as reach reads
    /// them, once while the table stays attached — else the bundled countries. Names are looked
    /// up in the countries followed.
    static func countries(in session: Session) throws -> Dataset {
        if let name = session.currentName, name != "all", let table = session.catalog.table(name) {
            if let kept = session.countryRows, kept.table === table { return kept.rows }
            guard let rows = try rows(ofCountries: table, named: name, in: session) else { return try session.dataset("countries") }
            session.countryRows = CountryRows(table: table, rows: rows)
            return rows
        }
        if let name = session.currentName, name != "all", session.catalog.contains(name) {
            // Its first record shows the shape: no pass over every record of a big dataset.
            let dataset = try session.dataset(name)
            if dataset.count > 0, dataset.record(0)["alpha3Code"] != nil, dataset.record(0)["borders"] != nil { return dataset }
        }
        return try session.dataset("countries")
    }

    /// A table's rows when it has the countries' shape (nil otherwise); a bigger table than a
    /// table of countries can be is refused.
    private static func rows(ofCountries table: any AttachedTable, named name: String, in session: Session) throws -> Dataset? {
        var rows = table.results()
        guard ["alpha3Code", "borders"].allSatisfy({ (try? rows.checkField($0, cancellation: session.cancellation)) != nil }) else { return nil }
        let count = try rows.count(fresh: true, cancellation: session.cancellation)
        guard count <= tableRowLimit else {
            throw ShellError.invalid("names are looked up and borders followed among the rows of \(name), and \(name) has "
                + "\(count.grouped) rows (more than \(tableRowLimit.grouped)) — narrow it to the countries and export FILE, then load that")
        }
        return try rows.page(start: 0, size: max(1, count), cancellation: session.cancellation).results.datasets[0]
    }

    /// The most rows of a table of countries read to look a name up and follow borders (reach
    /// refuses a bigger one the same way).
    static let tableRowLimit = 100_000

    /// The row whose alpha3Code or alpha2Code is `code` (any case), if one is.
    static func row(coded code: String, in countries: Dataset) -> Int? {
        guard (2...3).contains(code.count), code.allSatisfy(\.isLetter) else { return nil }
        let wanted = code.uppercased()
        let path = countries.compile(FieldPath(code.count == 3 ? "alpha3Code" : "alpha2Code"))
        return (0..<countries.count).first { row in
            countries.values(of: path, row: row).contains { countries.text(of: $0).uppercased() == wanted }
        }
    }

    /// The bundled outlines as areas, or why there are none.
    static func areas(in session: Session) throws -> WorldAreas {
        let (outlines, problem) = MapCommand.outlines(in: session)
        guard let outlines else { throw ShellError.invalid(problem ?? "no country outlines") }
        return WorldAreas.shared(outlines)
    }

    /// The index of a country's outline; a country without one says so.
    static func outline(ofCountry row: Int, in countries: Dataset, areas: WorldAreas, words: [Word]) throws -> Int {
        let name = countries.name(of: row)
        let code = countries.values(of: countries.compile(FieldPath("alpha3Code")), row: row).first.map { countries.text(of: $0) } ?? ""
        guard let index = areas.outlines.outline(code: code, name: name) else {
            throw ShellError.invalid("\(SafeText.escape(name)) has no outline in world.geojson (Natural Earth 1:110m draws "
                + "\(areas.outlines.outlines.count) countries; small islands and territories have none)").pointing(at: words)
        }
        return index
    }

    /// The datasets in scope, in memory and with coordinates (for `command`; a table's
    /// coordinates are found when its step applies).
    static func datasetsWithCoordinates(for command: String, in session: Session) throws -> [Dataset] {
        let datasets = try session.datasetsInScope()
        guard datasets.contains(where: { GeoLocator(dataset: $0).source != nil }) else {
            let names = datasets.map(\.name).joined(separator: ", ")
            throw ShellError.invalid("\(names) \(datasets.count == 1 ? "has" : "have") no coordinates — \(command) reads fields named "
                + "lat/latitude and lon/lng/longitude, a [lat, lon] list named latlng, or a GeoJSON point")
        }
        return datasets
    }

    /// Applies a geographic step: the listing, and for json and ndjson the results as GeoJSON
    /// (one FeatureCollection, or one Feature a line), as map writes them. A table's GeoJSON is
    /// of the rows its listing would print (into a pipe at most its unpaged limit, which the
    /// listing says on standard error): the same writer over the page the database sends.
    /// A script's held listing of a table asks nothing yet: its GeoJSON is made with it, if it
    /// is written (`geoJSONWhenMade`).
    static func apply(_ step: QueryStep, in session: Session) throws -> CommandResult? {
        var listing = try session.apply(step)
        let source = try session.results()
        if let results = source.inMemory {
            let outlines = MapCommand.outlines(in: session).0
            return listing.with(document: MapCommand.geoJSON(results, outlines: outlines, cancellation: session.cancellation))
        }
        guard session.settings.format.isMachineReadable else { return listing }
        if listing.unmadePage != nil {
            listing.geoJSONWhenMade = true
            return listing
        }
        return listing.with(document: try tableDocument(in: session))
    }

    /// The GeoJSON of the current results of a table: of the rows its first page holds.
    static func tableDocument(in session: Session) throws -> ResultDocument {
        var source = try session.results()
        let total = try source.count(fresh: false, cancellation: session.cancellation)
        let page = try source.page(start: 0, size: Listing.pageSize(of: source, total: total, in: session), cancellation: session.cancellation)
        return MapCommand.geoJSON(page.results, outlines: MapCommand.outlines(in: session).0, cancellation: session.cancellation)
    }

    /// `50`, `50 km`, `50km`, `2.5`: kilometres, not negative.
    static func kilometres(_ words: [Word]) throws -> Double {
        var text = words.map(\.text).joined(separator: " ").trimmingCharacters(in: .whitespaces).lowercased()
        if text.hasSuffix("km") { text = String(text.dropLast(2)).trimmingCharacters(in: .whitespaces) }
        guard let value = Double(text), value.isFinite else {
            throw ShellError.invalid("expected a distance in km after within (within 50 km), not '\(SafeText.escape(words.map(\.text).joined(separator: " ")))'")
                .pointing(at: words)
        }
        guard value >= 0 else { throw ShellError.invalid("a distance cannot be negative: \(SafeText.escape(text)) km").pointing(at: words) }
        return value
    }

    /// `55.75, 37.62` or `55.75 37.62` as a point; nil when the text is not two numbers.
    static func point(_ text: String) throws -> GeoPoint? {
        let parts = text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]) else { return nil }
        let point = GeoPoint(latitude: latitude, longitude: longitude)
        guard point.isValid else {
            throw ShellError.invalid("\(SafeText.escape(text)) is not a place: latitude goes from -90 to 90 and longitude from -180 to 180")
        }
        return point
    }
}

/// The rows of a table of countries, kept for the geography commands after them: a small
/// table's rows were read (up to 100,000 of them) by every near, within, path and reach. Kept
/// while that table stays attached: weakly, so a table attached again (another object, even
/// at the same address) is read afresh.
struct CountryRows {
    weak var table: (any AttachedTable)?
    let rows: Dataset
}
