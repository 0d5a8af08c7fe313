import AlmanacCore

/// Why a geographic step left no records, on standard error beside the empty answer: near
/// names the nearest record, within how many records with coordinates it placed and which lies
/// nearest the outline, outside how many records it judged — asked of the same records by the
/// same engine (memory or the database), within the explanation's time.
enum GeoExplanation {
    /// The most rows of a table whose empty answer is explained.
    static let explainedRows = 100_000

    /// Half the Earth's circumference, and a little: every point is nearer.
    static let everywhere = 20_100.0

    /// Whether the current results are empty: whether any record is left, not how many, as
    /// filter asks (a database stops at the first; a script's listing that is never written
    /// never counts them). A table has no index on a distance or an outline: past
    /// `explainedRows` whether the answer is empty, and what explains it, each cost a whole
    /// scan (2.4 s on a 1,000,000-row table), and are not asked.
    static func isEmpty(in session: Session) -> Bool {
        guard var results = try? session.results() else { return false }
        if results.inMemory == nil, let name = results.datasetNames.first, let table = session.catalog.table(name),
           table.estimatedRows > explainedRows {
            return false
        }
        return (try? results.isEmpty(cancellation: session.cancellation)) == true
    }

    /// Every record of the scope with coordinates, nearest `centre` first (near over the whole Earth).
    static func located(nearest centre: GeoPoint, in session: Session, cancellation: Cancellation) throws -> any ResultsSource {
        try session.freshResults().applying(.near(NearSpec(centre: centre, kilometres: everywhere)), cancellation: cancellation)
    }

    /// The kilometres near measured for `item` (a table's page carries them as a field).
    static func distance(of item: ResultSet.Item, in results: ResultSet) -> Double? {
        let dataset = results.dataset(of: item)
        let text = results.computed.first { $0.name == "distance" }?.text(of: item)
            ?? dataset.values(of: dataset.compile(FieldPath("distance")), row: item.row).first.map { dataset.text(of: $0) }
        return text.flatMap(Double.init)
    }

    /// Kilometres as the listing shows a distance: one decimal, the thousands grouped (4,108.2).
    static func shown(_ kilometres: Double) -> String { NumberFormat.grouped(kilometres, decimals: 1, keepingZeros: true) }

    /// `nothing within 100 km of Austria; the nearest is Slovenia, 176.3 km away`.
    static func near(_ answer: CommandResult?, _ spec: NearSpec, from place: String, in session: Session) -> CommandResult? {
        guard var answer, isEmpty(in: session) else { return answer }
        let budget = session.explanationBudget()
        guard var all = try? located(nearest: spec.centre, in: session, cancellation: budget),
              let page = try? all.page(start: 0, size: 1, cancellation: budget), let index = page.range.first else { return answer }
        let item = page.results.items[index]
        guard let kilometres = distance(of: item, in: page.results), kilometres >= 0 else { return answer }
        let name = page.results.dataset(of: item).name(of: item.row)
        session.explainEmpty(["no records — nothing within \(NumberFormat.grouped(spec.kilometres)) km of \(SafeText.escape(place)); "
                              + "the nearest is \(SafeText.escape(name)), \(shown(kilometres)) km away"], in: &answer)
        return answer
    }

    /// `none of the 4,037 records with coordinates lies inside Chile's outline; the nearest is
    /// …, 1,130.4 km outside it`.
    static func within(_ answer: CommandResult?, _ spec: WithinSpec, in session: Session) -> CommandResult? {
        guard var answer, isEmpty(in: session) else { return answer }
        let budget = session.explanationBudget()
        let box = spec.area.box
        let centre = GeoPoint(latitude: (box.south + box.north) / 2, longitude: (box.west + box.east) / 2)
        guard var all = try? located(nearest: centre, in: session, cancellation: budget),
              let total = try? all.count(fresh: false, cancellation: budget) else { return answer }
        let outline = "\(SafeText.escape(spec.name))'s outline"
        var line = switch total {
        case 0: "no records — no record has coordinates to place inside \(outline)"
        case 1: "no records — the one record with coordinates lies outside \(outline)"
        default: "no records — none of the \(total.grouped) records with coordinates lies inside \(outline)"
        }
        if let nearest = try? nearestToOutline(spec.area, among: &all, centre: centre, total: total, cancellation: budget) {
            line += "; the nearest is \(SafeText.escape(nearest.name)), \(shown(Haversine.rounded(nearest.kilometres))) km outside it"
        }
        session.explainEmpty([line], in: &answer)
        return answer
    }

    /// The record nearest the outline, read in pages nearest `centre` first until the rest lie
    /// farther from it than the outline's farthest point and the nearest found together.
    static func nearestToOutline(_ area: AreaShape, among all: inout any ResultsSource, centre: GeoPoint, total: Int,
                                 cancellation: Cancellation) throws -> (name: String, kilometres: Double)? {
        // A margin for the distances' rounding to a tenth, and the two formulas' last digits.
        let reach = area.farthestKilometres(from: centre) + 1
        var nearest: (name: String, kilometres: Double)?
        var locators: [ObjectIdentifier: GeoLocator] = [:]
        var (start, size) = (0, 64)
        while start < total {
            let page = try all.page(start: start, size: size, cancellation: cancellation)
            guard !page.range.isEmpty else { break }
            for index in page.range {
                let item = page.results.items[index]
                guard let fromCentre = distance(of: item, in: page.results) else { continue }
                if let nearest, fromCentre - reach > nearest.kilometres { return nearest }
                let dataset = page.results.dataset(of: item)
                let locator = locators[ObjectIdentifier(dataset)] ?? GeoLocator(dataset: dataset)
                locators[ObjectIdentifier(dataset)] = locator
                guard case let .point(point) = locator.locate(row: item.row) else { continue }
                let kilometres = area.kilometres(to: point)
                if kilometres < nearest?.kilometres ?? .infinity { nearest = (dataset.name(of: item.row), kilometres) }
            }
            start += page.range.count
            size *= 4
        }
        return nearest
    }

    /// `all 7 records judged lie inside their own country's outline (2 more name no country
    /// with one)`: judged are the records with coordinates whose country has an outline.
    static func outside(_ answer: CommandResult?, _ spec: OutsideSpec, in session: Session) -> CommandResult? {
        guard var answer, isEmpty(in: session) else { return answer }
        let budget = session.explanationBudget()
        guard var all = try? located(nearest: GeoPoint(latitude: 0, longitude: 0), in: session, cancellation: budget),
              let total = try? all.count(fresh: false, cancellation: budget),
              let titles = try? all.valueCounts(of: spec.field, where: nil, prefix: "", limit: total + 1, quick: false,
                                                cancellation: budget) else { return answer }
        let judged = titles.reduce(0) { sum, title in
            if case .outline = spec.resolve(title.value) { sum + title.count } else { sum }
        }
        let records = total == 1 ? "record" : "records"
        let line = if judged == 0 {
            "no records — none of the \(total.grouped) \(records) with coordinates names in \(spec.field) a country with an outline "
                + "in world.geojson to compare with"
        } else {
            (judged == 1 ? "no records — the one record judged lies" : "no records — all \(judged.grouped) records judged lie")
                + " inside their own country's outline (by \(spec.field))"
                + (total > judged ? "; \((total - judged).grouped) more with coordinates \(total - judged == 1 ? "names" : "name") "
                    + "no country with an outline" : "")
        }
        session.explainEmpty([line], in: &answer)
        return answer
    }
}
