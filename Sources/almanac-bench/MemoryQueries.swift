import AlmanacCore
import Foundation

/// The questions raced against DuckDB's in-memory engine (bench/peer/duckdb.py runs the same
/// ones as SQL on a table of the same records, already in its memory): each as the shell
/// answers it, through `MemoryResults`, with an answer both sides must agree on.
enum MemoryQueries {
    /// A query's answer: a count, and what else pins it (group counts, the page's latitudes).
    struct Answer: Codable, Equatable {
        var count: Int
        var detail: [Double] = []
    }

    /// `--repeat` ids, in the order bench/peers races them.
    static let ids = ["group-country", "group-aggregates", "sort-page", "filter-number", "filter-equal", "filter-computed-count",
                      "filter-link", "distinct", "describe"]

    /// `sort point.latitude desc` and its first page: the 25 northernmost stations.
    static let northernmost = [SortKey("point.latitude", descending: true)]
    static let pageSize = 25
    /// `group countryTitle avg point.latitude`.
    static let groupCountry = GroupSpec(fields: ["countryTitle"], aggregates: [Aggregate(.avg, "point.latitude")])
    /// `describe cityTitle`: its distinct count.
    static let distinctField = "cityTitle"

    static func titles() -> [String: String] {
        ["group-country": "group countryTitle avg point.latitude",
         "group-aggregates": Queries.groupAggregatesText,
         "sort-page": "sort point.latitude desc, first page of \(pageSize)",
         "filter-number": "filter \(Queries.latitude), count",
         "filter-equal": "filter \(Queries.country), count",
         "filter-computed-count": "filter \(Queries.computedFilter), count",
         "filter-link": "filter \(LinkSteps.filter), count",
         "distinct": "describe \(distinctField): distinct values",
         "describe": "describe (every field)"]
    }

    /// The query `id` over every record of `dataset`, as a closure to time. `folder`: where
    /// the countries file the stations link into lies (`filter-link`).
    static func query(_ id: String, on dataset: Dataset, folder: String = "") throws -> () throws -> Answer {
        let source = MemoryResults(datasets: [dataset])
        switch id {
        case "filter-link":
            // The stations beside the countries, in one catalog, as the shell links them.
            let countries = try DatasetLoader().load(LoadRequest(name: "countries", source: .file(path: folder + "/countries.json"),
                                                                 model: CountryModel.self), progress: LoadProgress(), cancellation: .never)
            let catalog = Catalog(preparesIndexes: false)
            catalog.insert(countries, request: LoadRequest(name: "countries", source: .file(path: ""), model: CountryModel.self))
            catalog.insert(dataset, request: LoadRequest(name: "stations", source: .file(path: ""), model: StationModel.self))
            let expression = try Queries.filter(LinkSteps.filter)
            return {
                try withExtendedLifetime(catalog) {
                    var filtered = try source.applying(.filter(expression), cancellation: .never)
                    return Answer(count: try filtered.count(fresh: false, cancellation: .never))
                }
            }
        case "group-country":
            return {
                var source = source
                let groups = try source.group(groupCountry, cancellation: .never)
                return Answer(count: groups.count, detail: (0..<groups.count).map { Double(groups.row($0).count) })
            }
        case "group-aggregates":
            return {
                var source = source
                let groups = try source.group(Queries.groupAggregates, cancellation: .never)
                return Answer(count: groups.count, detail: (0..<min(groups.count, 50)).map { Double(groups.row($0).count) })
            }
        case "sort-page":
            return {
                var sorted = try source.applying(.sort(northernmost), cancellation: .never)
                let page = try sorted.page(start: 0, size: pageSize, cancellation: .never)
                let latitude = dataset.compile(FieldPath("point.latitude"))
                let latitudes = page.range.map { offset -> Double in
                    let item = page.results.items[offset]
                    var found = Double.nan
                    dataset.forEachValue(of: latitude, row: item.row) { found = dataset.number(of: $0) ?? .nan }
                    return found
                }
                return Answer(count: try sorted.count(fresh: false, cancellation: .never), detail: latitudes)
            }
        case "filter-number", "filter-equal", "filter-computed-count":
            let text = id == "filter-number" ? Queries.latitude : id == "filter-equal" ? Queries.country : Queries.computedFilter
            let expression = try Queries.filter(text)
            return {
                var filtered = try source.applying(.filter(expression), cancellation: .never)
                return Answer(count: try filtered.count(fresh: false, cancellation: .never))
            }
        case "distinct":
            return {
                let answer = try source.describe([distinctField], cancellation: .never)
                return Answer(count: answer.profiles.first?.profile.distinct ?? -1)
            }
        case "describe":
            return {
                let answer = try source.describe([], cancellation: .never)
                return Answer(count: answer.profiles.count)
            }
        default:
            throw BenchError("no in-memory query '\(id)': \(ids.joined(separator: ", "))")
        }
    }

    /// The answer as one line of JSON (what `--repeat … --answer` prints first).
    static func json(_ answer: Answer) -> String {
        String(decoding: (try? JSONEncoder().encode(answer)) ?? Data(), as: UTF8.self)
    }
}
