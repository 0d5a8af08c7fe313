import AlmanacCore
import Foundation

/// `--repeat OPERATION FILE N`: loads FILE once, then runs one operation N times and prints
/// each time, for profiling one step under `perf record` without the rest of the benchmark.
enum Repeat {
    static func run(operation: String, path: String, times: Int, printAnswer: Bool = false) throws {
        let request = LoadRequest(name: "stations", source: .file(path: path), model: StationModel.self)
        let dataset = try DatasetLoader().load(request, progress: LoadProgress(), cancellation: .never)
        _ = dataset.fields
        _ = NameIndex.of(dataset)
        let all = ResultSet.all([dataset])
        let body: () throws -> Int
        switch operation {
        case let id where MemoryQueries.ids.contains(id):
            // As the shell answers it, through MemoryResults (the DuckDB in-memory race's side).
            let query = try MemoryQueries.query(id, on: dataset, folder: (path as NSString).deletingLastPathComponent)
            if printAnswer { print("answer " + MemoryQueries.json(try query())) }
            body = { try query().count }
        case let id where id.hasSuffix("@1") || id.hasSuffix("@2"):
            // One query on one thread or on two whatever its size (the thresholds' measurement).
            let threadsFrom = id.hasSuffix("@1") ? Int.max : 0
            switch id.dropLast(2) {
            case "group-country": body = { try Group.run(all, by: MemoryQueries.groupCountry, twoThreadsFrom: threadsFrom).count }
            case "group-aggregates": body = { try Group.run(all, by: Queries.groupAggregates, twoThreadsFrom: threadsFrom).count }
            case "group": body = { try Group.run(all, by: GroupSpec(fields: ["countryTitle", "cityTitle"]), twoThreadsFrom: threadsFrom).count }
            case "describe": body = { try Describe.run(all, twoThreadsFrom: threadsFrom).count }
            default: throw BenchError("\(id): @1 and @2 follow group-country, group-aggregates, group or describe")
            }
        case let search where search.hasPrefix("search:"): body = { try Search.run(String(search.dropFirst(7)), in: [dataset]).count }
        case "group": body = { try Group.run(all, by: GroupSpec(fields: ["countryTitle", "cityTitle"])).count }
        case "sort": body = { try Sort.run(all, by: [SortKey("stationTitle")]).count }
        case "sort2": body = { try Sort.run(all, by: [SortKey("countryTitle"), SortKey("cityTitle", descending: true)]).count }
        case let describe where describe.hasPrefix("describe:"):
            body = { try Describe.run(all, fields: [String(describe.dropFirst(9))]).count }
        case let id where id.hasPrefix("counts:"):
            guard let query = ValueCountSteps.queries.first(where: { $0.id == id }) else { throw BenchError("no value-count query \(id)") }
            let condition = try query.condition.map(Queries.filter)
            let results = MemoryResults(datasets: [dataset])
            _ = ValueIndex.of(dataset, path: query.field)
            body = {
                try results.valueCounts(of: query.field, where: condition, prefix: query.prefix, limit: ValueCountSteps.limit,
                                        quick: true, cancellation: .never)?.count ?? 0
            }
        case let id where id.hasPrefix("values-index:"):
            let field = String(id.dropFirst("values-index:".count))
            body = {
                ValueIndex.of(Dataset(name: dataset.name, model: dataset.model, document: dataset.document,
                                      extraction: Extraction(records: dataset.records, warnings: dataset.warnings, extras: dataset.extras),
                                      origin: dataset.origin), path: field).count
            }
        case "search": body = { try Search.run("моск", in: [dataset]).count }
        case "filter-computed": body = { try Filter.run(Queries.filter(Queries.computedFilter), on: all).count }
        case "sort-computed": body = { try Sort.run(all, by: [Queries.computedSort]).count }
        case "group-computed": body = { try Group.run(all, by: Queries.computedGroup).count }
        case "group-link":
            // Stations beside the countries file of the same folder, as the shell links them.
            let folder = (path as NSString).deletingLastPathComponent
            let countries = try DatasetLoader().load(LoadRequest(name: "countries", source: .file(path: folder + "/countries.json"),
                                                                 model: CountryModel.self), progress: LoadProgress(), cancellation: .never)
            let catalog = Catalog(preparesIndexes: false)
            catalog.insert(countries, request: LoadRequest(name: "countries", source: .file(path: ""), model: CountryModel.self))
            catalog.insert(dataset, request: request)
            body = { withExtendedLifetime(catalog) {}; return try Group.run(all, by: GroupSpec(fields: [LinkSteps.group])).count }
        case "load": body = { try DatasetLoader().load(request, progress: LoadProgress(), cancellation: .never).count }
        case "extract": body = { try StationModel.extract(from: dataset.document, source: path, cancellation: .never).records.count }
        case "index": body = {
            let copy = Dataset(name: dataset.name, model: dataset.model, document: dataset.document,
                               extraction: Extraction(records: dataset.records, warnings: dataset.warnings, extras: dataset.extras),
                               origin: dataset.origin)
            return NameIndex.of(copy).count
        }
        default: throw BenchError("--repeat wants group, describe:FIELD, sort, sort2, filter-computed, sort-computed, group-computed, "
            + "filter-link, group-link, counts:country|region|station|station-in-country|stations-in-country, values-index:FIELD, "
            + "search, search:TEXT, load, extract, index or " + MemoryQueries.ids.joined(separator: ", ")
            + " (group-country, group-aggregates, group and describe with @1 or @2: on one thread or two whatever the size)")
        }
        // CPU time beside the wall time: on a shared machine the wall time is mostly the neighbours'.
        func cpuNanoseconds() -> Int {
            var time = timespec()
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
            return time.tv_sec * 1_000_000_000 + time.tv_nsec
        }
        for _ in 0..<times {
            let start = DispatchTime.now().uptimeNanoseconds
            let cpuStart = cpuNanoseconds()
            let count = try body()
            let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            let cpu = Double(cpuNanoseconds() - cpuStart) / 1e6
            print(String(format: "%@ %.3f ms (n=%d, cpu %.3f ms)", operation, milliseconds, count, cpu))
        }
    }
}
