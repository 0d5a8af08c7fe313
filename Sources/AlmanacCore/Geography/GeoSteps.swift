/// `near`: the records within some kilometres of a point, nearest first.
public struct NearSpec: Sendable, Equatable {
    public var centre: GeoPoint
    public var kilometres: Double
    /// The record the point is of, left out of its own neighbours (nil for `LAT, LON`).
    public var excluding: ResultSet.Item?
    /// The same for a database's results: the row it fetched (its key says which to leave out).
    public var excludedRecord: RecordRef?

    public init(centre: GeoPoint, kilometres: Double, excluding: ResultSet.Item? = nil, excludedRecord: RecordRef? = nil) {
        self.centre = centre
        self.kilometres = kilometres
        self.excluding = excluding
        self.excludedRecord = excludedRecord
    }

    public static func == (lhs: NearSpec, rhs: NearSpec) -> Bool {
        lhs.centre == rhs.centre && lhs.kilometres == rhs.kilometres && lhs.excluding == rhs.excluding
            && lhs.excludedRecord?.dataset === rhs.excludedRecord?.dataset && lhs.excludedRecord?.row == rhs.excludedRecord?.row
    }
}

/// `within`: the records whose point lies inside a country's outline.
public struct WithinSpec: Sendable, Equatable {
    public var name: String
    public var area: AreaShape

    public init(name: String, area: AreaShape) {
        self.name = name
        self.area = area
    }

    public static func == (lhs: WithinSpec, rhs: WithinSpec) -> Bool { lhs.name == rhs.name && lhs.area.box == rhs.area.box }
}

/// `outside`: the records whose point lies outside the outline of their own country, the
/// country named by `field` (stations' `countryTitle`, in Russian) as `Links.country(named:)`
/// reads it.
public struct OutsideSpec: Sendable, Equatable {
    public var field: String
    public var countries: Dataset
    public var areas: WorldAreas

    public init(field: String, countries: Dataset, areas: WorldAreas) {
        self.field = field
        self.countries = countries
        self.areas = areas
    }

    public static func == (lhs: OutsideSpec, rhs: OutsideSpec) -> Bool {
        lhs.field == rhs.field && lhs.countries === rhs.countries && lhs.areas.outlines.source == rhs.areas.outlines.source
    }

    /// What a country name of `field` resolves to.
    public enum Resolution: Sendable, Equatable {
        /// The country and the index of its outline.
        case outline(country: Int, outline: Int)
        /// A country without an outline (small islands).
        case noOutline(country: Int)
        /// No country by that name.
        case unknown
    }

    /// The country and outline a value of `field` names.
    public func resolve(_ title: String) -> Resolution {
        let links = Links { [countries] name in name == "countries" ? countries : nil }
        guard let (_, row) = links.country(named: title) else { return .unknown }
        let code = countries.values(of: countries.compile(FieldPath("alpha3Code")), row: row).first.map { countries.text(of: $0) } ?? ""
        guard let outline = areas.outlines.outline(code: code, name: countries.name(of: row)) else { return .noOutline(country: row) }
        return .outline(country: row, outline: outline)
    }
}

/// `reach`: the countries within some borders of one.
public struct ReachSpec: Sendable, Equatable {
    /// The dataset of countries (by name) and the row of the country.
    public var dataset: String
    public var row: Int
    public var borders: Int
    /// The country's alpha-3 code: how a table of countries finds its row.
    public var code: String
    /// The countries reached, when the asker found them among the table's rows it holds: the
    /// table need not read them again.
    public var reached: ReachedCountries?

    public init(dataset: String, row: Int, borders: Int, code: String = "") {
        self.dataset = dataset
        self.row = row
        self.borders = borders
        self.code = code
    }
}

/// The codes of the countries a reach found, nearest first, then by name, and how many
/// borders away each is.
public struct ReachedCountries: Sendable, Equatable {
    public var codes: [String]
    public var borders: [Int]

    /// Those within `limit` borders of the country at `start` among `countries`.
    public init(from start: Int, within limit: Int, in countries: Dataset) {
        let codePath = countries.compile(FieldPath("alpha3Code"))
        let reached = BorderGraph.of(countries).reach(from: start, within: limit, namedIn: countries)
        codes = reached.map { countries.values(of: codePath, row: $0.row).first.map { countries.text(of: $0) } ?? "" }
        borders = reached.map(\.borders)
    }
}

/// The in-memory engine's geographic steps: each starts from every record of `datasets` (as
/// search does) and gives the records it finds, with a computed column where it measures something.
public enum GeoSteps {
    /// Kilometres, to one decimal.
    static func distanceColumn(_ datasets: [Dataset], _ values: [(item: ResultSet.Item, value: Double)]) -> ComputedColumn {
        ComputedColumn(name: "distance", kind: .decimal(places: 1), unit: "km", datasetSizes: datasets.map(\.count), values: values)
    }

    public static func near(_ spec: NearSpec, in datasets: [Dataset], cancellation: Cancellation) throws -> ResultSet {
        var found: [(item: ResultSet.Item, value: Double)] = []
        for (index, dataset) in datasets.enumerated() {
            let grid = try PointGrid.of(dataset, cancellation: cancellation)
            for (row, kilometres) in try grid.within(spec.kilometres, of: spec.centre, cancellation: cancellation) {
                let item = ResultSet.Item(dataset: index, row: row)
                if item != spec.excluding { found.append((item, Haversine.rounded(kilometres))) }
            }
        }
        // Nearest first; equal distances in the datasets' order.
        found.sort { ($0.value, $0.item.dataset, $0.item.row) < ($1.value, $1.item.dataset, $1.item.row) }
        return ResultSet(datasets: datasets, items: found.map(\.item), computed: [distanceColumn(datasets, found)])
    }

    public static func within(_ spec: WithinSpec, in datasets: [Dataset], cancellation: Cancellation) throws -> ResultSet {
        var items: [ResultSet.Item] = []
        for (index, dataset) in datasets.enumerated() {
            let grid = try PointGrid.of(dataset, cancellation: cancellation)
            var rows: [Int32] = []
            for (polygon, box) in spec.area.boxes.enumerated() {
                try cancellation.checkpoint()
                grid.latitudes.withUnsafeBufferPointer { latitudes in
                    grid.longitudes.withUnsafeBufferPointer { longitudes in
                        grid.slots(touching: box) { slots in
                            for slot in slots where spec.area.contains(latitude: latitudes[slot], longitude: longitudes[slot], polygon: polygon) {
                                rows.append(grid.rows[slot])
                            }
                        }
                    }
                }
            }
            // In the dataset's order; a point on two touching parts once.
            rows.sort()
            var previous: Int32 = -1
            for row in rows where row != previous {
                items.append(ResultSet.Item(dataset: index, row: Int(row)))
                previous = row
            }
        }
        return ResultSet(datasets: datasets, items: items)
    }

    /// The records outside their own country's outline, farthest out first. Records whose
    /// country is unknown or has no outline are not judged.
    public static func outside(_ spec: OutsideSpec, in datasets: [Dataset], cancellation: Cancellation) throws -> ResultSet {
        var found: [(item: ResultSet.Item, value: Double)] = []
        for (index, dataset) in datasets.enumerated() {
            let grid = try PointGrid.of(dataset, cancellation: cancellation)
            let path = dataset.compile(FieldPath(spec.field))
            var resolved: [String: OutsideSpec.Resolution] = [:]
            // The field's column gives each record's string as a word, equal short strings one
            // word: most records resolve by their word alone.
            let column = try dataset.fields(cancellation: cancellation).column(spec.field)
            var resolvedWords: [UInt64: OutsideSpec.Resolution] = [:]
            func resolution(of row: Int) -> OutsideSpec.Resolution {
                let word = column.map { $0.kinds[row] == FieldCatalog.Column.missing ? nil : $0.words[row] } ?? nil
                if let word, let known = resolvedWords[word] { return known }
                guard let value = dataset.values(of: path, row: row).first else { return .unknown }
                let title = dataset.text(of: value)
                let made = resolved[title] ?? spec.resolve(title)
                resolved[title] = made
                if let word { resolvedWords[word] = made }
                return made
            }
            try grid.latitudes.withUnsafeBufferPointer { latitudes throws(CancelledError) in
                try grid.longitudes.withUnsafeBufferPointer { longitudes throws(CancelledError) in
                    for slot in 0..<grid.count {
                        if slot & 0x3FFF == 0 { try cancellation.checkpoint() }
                        let row = Int(grid.rows[slot])
                        let resolution = resolution(of: row)
                        guard case let .outline(_, outline) = resolution else { continue }
                        let area = spec.areas.areas[outline]
                        if area.contains(latitude: latitudes[slot], longitude: longitudes[slot]) { continue }
                        let kilometres = area.kilometres(to: GeoPoint(latitude: latitudes[slot], longitude: longitudes[slot]))
                        found.append((ResultSet.Item(dataset: index, row: row), Haversine.rounded(kilometres)))
                    }
                }
            }
        }
        found.sort { ($1.value, $0.item.dataset, $0.item.row) < ($0.value, $1.item.dataset, $1.item.row) }
        return ResultSet(datasets: datasets, items: found.map(\.item), computed: [distanceColumn(datasets, found)])
    }

    public static func reach(_ spec: ReachSpec, in datasets: [Dataset]) throws -> ResultSet {
        guard let index = datasets.firstIndex(where: { $0.name == spec.dataset }) else {
            return ResultSet(datasets: datasets, items: [])
        }
        let graph = BorderGraph.of(datasets[index])
        let found = graph.reach(from: spec.row, within: spec.borders, namedIn: datasets[index]).map { (item: ResultSet.Item(dataset: index, row: $0.row), value: Double($0.borders)) }
        let column = ComputedColumn(name: "distance", kind: .integer, unit: "borders", datasetSizes: datasets.map(\.count), values: found)
        return ResultSet(datasets: datasets, items: found.map(\.item), computed: [column])
    }
}
