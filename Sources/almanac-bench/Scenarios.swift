import AlmanacCore
import Foundation
import Synchronization

/// One timed step of a scale's run.
struct Step: Codable {
    var id: String
    var title: String
    var stats: Stats
    /// What the step returned (records, matches, groups), checked on every run.
    var count: Int?
    var mbPerSecond: Double?
}

/// Loads in fresh child processes (`almanac-bench --load-once` / `--decode-once`).
struct ProcessLoad: Codable {
    var tool: String
    /// From spawning the process to its exit.
    var wall: Stats
    /// The load alone, as the child timed it.
    var inProcess: Stats
    /// VmRSS right after the load, with the records held (largest of the runs).
    var resident: Int
    /// The same after `malloc_trim`: what the records really hold on to.
    var residentTrimmed: Int
    /// VmHWM: the highest resident memory during the load.
    var peak: Int
    var records: Int
}

struct ScaleResult: Codable {
    var file: ScaledFile
    var steps: [Step]
    var processLoads: [ProcessLoad]
    /// Result counts of every query, from every implementation, checked equal before timing.
    var counts: [String: Int]
    var cancellation: [CancelProbe.Result]
    /// Size of the parsed document: nodes (8 bytes each) and the string arena.
    var documentNodes: Int
    var documentArenaBytes: Int

    func step(_ id: String) -> Step? { steps.first { $0.id == id } }
}

/// What the benchmark asks: the same queries at every scale.
enum Queries {
    /// Substrings searched for: Cyrillic and Latin (both occur in station titles).
    static let search = ["моск", "bus"]
    /// Name prefixes completed, as typed after `show `.
    static let prefixes = ["Моск", "Авто"]
    static let completionLimit = 500
    static let latitude = "point.latitude > 55"
    static let country = "countryTitle = Россия"
    static let sortField = "stationTitle"
    static let groupFields = ["countryTitle", "cityTitle"]
    /// `group regionTitle count stationTitle, avg point.latitude, min point.longitude, max point.longitude, distinct cityTitle`.
    static let groupAggregates = GroupSpec(fields: ["regionTitle"], aggregates: [
        Aggregate(.count, "stationTitle"), Aggregate(.avg, "point.latitude"), Aggregate(.min, "point.longitude"),
        Aggregate(.max, "point.longitude"), Aggregate(.distinct, "cityTitle"),
    ])
    static var groupAggregatesText: String {
        "group " + groupAggregates.fields.joined(separator: ", ") + " " + groupAggregates.aggregates.map(\.description).joined(separator: ", ")
    }
    /// Expressions (issue 26): a computed filter, sort and group.
    static let computedFilter = "point.latitude - point.longitude > 20"
    static let computedSort = SortKey("point.latitude + point.longitude", descending: true)
    static let computedGroup = GroupSpec(fields: ["round(point.latitude) as band"],
                                         aggregates: [Aggregate(.avg, "point.longitude * 2", name: "twice")])
    static let mapSize = (columns: 199, rows: 45)
    static let histogramField = "point.latitude"

    static func filter(_ text: String) throws -> FilterExpression {
        let words = text.split(separator: " ").map { (text: String($0), isQuoted: false) }
        return try FilterExpression.parse(FilterExpression.tokens(words))
    }
}

/// Runs every almanac measurement on one scaled file.
struct ScaleRunner {
    let file: ScaledFile
    let executable: String
    /// Also probe Ctrl-C latency (done on the largest scale of the run).
    let probeCancellation: Bool
    let log: (String) -> Void

    var isLarge: Bool { file.scale >= 100 }

    func run(baseline: ScaleResult?) throws -> ScaleResult {
        var steps: [Step] = []
        var counts: [String: Int] = [:]
        func record(_ id: String, _ title: String, _ stats: Stats, count: Int? = nil, bytes: Int? = nil) {
            let mbPerSecond = bytes.map { Double($0) / 1e6 / (stats.median / 1000) }
            steps.append(Step(id: id, title: title, stats: stats, count: count, mbPerSecond: mbPerSecond))
            log("  " + Report.stepLine(steps.last!))
        }

        // Loading.
        let request = LoadRequest(name: "stations", source: .file(path: file.path), model: StationModel.self)
        let (loadStats, dataset) = try measure(warmups: 1, runs: isLarge ? 3 : 5) {
            try DatasetLoader().load(request, progress: LoadProgress(), cancellation: .never)
        } check: { dataset in
            try expect(dataset.count, file.distinctStations, "distinct stations loaded")
        }
        record("load", "load: DatasetLoader, file → records", loadStats, count: dataset.count, bytes: file.bytes)
        let cities = StationModel.cities(of: dataset)
        try expect(cities.count, file.cityEntries, "city entries")
        try expect(cities.reduce(0) { $0 + $1.stationIds.count }, file.stationEntries, "station entries")
        counts["records"] = dataset.count
        counts["cityEntries"] = cities.count
        counts["stationEntries"] = file.stationEntries

        // Where a load's time goes: the same phases as DatasetLoader, timed one by one, parsing
        // from a buffer already in memory (DatasetLoader maps the file instead).
        let parts = try LoadBreakdown.measure(path: file.path, runs: isLarge ? 3 : 5)
        for part in parts {
            record(part.id, part.title, part.stats, bytes: part.id == "load.parse" ? file.bytes : nil)
        }

        // The same stations as CSV: a whole load, and the parse alone from memory.
        let csvPath = try CSVBench.ensure(file, log: log)
        let csvRequest = LoadRequest(name: "stations", source: .file(path: csvPath), model: GenericModel.self)
        let (csvLoadStats, csvDataset) = try measure(warmups: 1, runs: isLarge ? 3 : 5) {
            try DatasetLoader().load(csvRequest, progress: LoadProgress(), cancellation: .never)
        } check: { dataset in
            try expect(dataset.count, file.distinctStations, "CSV rows loaded")
        }
        let csvBytes = Int((try? FileManager.default.attributesOfItem(atPath: csvPath)[.size] as? Int) ?? 0)
        record("csv.load", "CSV load: DatasetLoader, stations.csv → records", csvLoadStats, count: csvDataset.count, bytes: csvBytes)
        let csvParse = try CSVBench.measureParse(path: csvPath, expectedRows: file.distinctStations, runs: isLarge ? 3 : 5)
        record("csv.parse", "  CSV load, parse alone: CSVParser.parse (from memory)", csvParse.stats, bytes: csvParse.bytes)

        // The lazy work after a load, each on a fresh copy of the dataset (same document, empty caches).
        func freshCopy() -> Dataset {
            Dataset(name: dataset.name, model: dataset.model, document: dataset.document,
                    extraction: Extraction(records: dataset.records, warnings: dataset.warnings, extras: dataset.extras),
                    origin: dataset.origin)
        }
        let lazyRuns = 5
        let (fieldsStats, fieldCount) = try measure(warmups: 1, runs: lazyRuns) { freshCopy().fields.fields.count }
        record("fields", "fields: inference (first filter/sort/group pays it)", fieldsStats, count: fieldCount)
        let (namesStats, _) = try measure(warmups: 1, runs: lazyRuns) { freshCopy().names.count }
        record("names", "names: record names (part of the name index)", namesStats, count: dataset.count)
        let (indexStats, _) = try measure(warmups: 1, runs: lazyRuns) { NameIndex.of(freshCopy()).count }
        record("nameIndex", "name index: build (first search/completion pays it)", indexStats, count: dataset.count)
        _ = dataset.fields
        let index = NameIndex.of(dataset)
        let names = dataset.names
        let lowered = names.map { $0.lowercased() }

        // Correctness first: every implementation's count, compared before anything is timed.
        for query in Queries.search {
            let all = try Search.run(query, in: [dataset]).count
            let inTitle = try index.search(query).filter { $0.rank != .otherName }.count
            let filtered = try Filter.run(Queries.filter("stationTitle ~ \(query)"), on: .all([dataset])).count
            let scanned = lowered.reduce(0) { $0 + ($1.contains(query) ? 1 : 0) }
            counts["search:\(query)"] = all
            counts["title:\(query)"] = inTitle
            try expect(filtered, inTitle, "filter stationTitle ~ \(query) vs search matches in stationTitle")
            try expect(scanned, inTitle, "Swift lowercased().contains(\(query)) vs almanac")
            if let baseline, let one = baseline.counts["title:\(query)"], baseline.file.scale == 1 {
                try expect(inTitle, one * file.scale, "\(query) matches at \(file.scale)× vs \(file.scale) × 1×")
            }
        }
        for prefix in Queries.prefixes {
            let rows = index.rows(withNamePrefix: prefix).count
            let wanted = prefix.lowercased()
            let scanned = lowered.reduce(0) { $0 + ($1.hasPrefix(wanted) ? 1 : 0) }
            try expect(rows, scanned, "names starting with \(prefix) (index vs scan)")
            counts["prefix:\(prefix)"] = rows
            if let baseline, let one = baseline.counts["prefix:\(prefix)"], baseline.file.scale == 1 {
                try expect(rows, one * file.scale, "prefix \(prefix) at \(file.scale)× vs \(file.scale) × 1×")
            }
        }
        for (id, text) in [("latitude", Queries.latitude), ("country", Queries.country)] {
            counts["filter:\(id)"] = try Filter.run(Queries.filter(text), on: .all([dataset])).count
        }

        // Queries, on the loaded dataset with its lazy parts built.
        for query in Queries.search {
            let expected = counts["search:\(query)"]!
            let (stats, count) = try measure(warmups: 3, runs: 21) { try Search.run(query, in: [dataset]).count } check: {
                try expect($0, expected, "search \(query)")
            }
            record("search:\(query)", "search \(query)", stats, count: count)
        }
        for prefix in Queries.prefixes {
            let expected = min(counts["prefix:\(prefix)"]!, Queries.completionLimit)
            let (stats, count) = try measure(warmups: 3, runs: 21) {
                index.rows(withNamePrefix: prefix, limit: Queries.completionLimit).map { dataset.name(of: $0) }.count
            } check: { try expect($0, expected, "completion \(prefix)") }
            record("complete:\(prefix)", "completion: names starting with \(prefix), first \(Queries.completionLimit)", stats, count: count)
        }
        let filters: [(String, String)] = [("latitude", Queries.latitude), ("country", Queries.country)]
            + Queries.search.map { ("contains:\($0)", "stationTitle ~ \($0)") }
        for (id, text) in filters {
            let expression = try Queries.filter(text)
            let expected = counts["filter:\(id)"] ?? counts["title:\(id.dropFirst("contains:".count))"]!
            let (stats, count) = try measure(warmups: 2, runs: 7) { try Filter.run(expression, on: .all([dataset])).count } check: {
                try expect($0, expected, "filter \(text)")
            }
            record("filter:\(id)", "filter \(text)", stats, count: count)
        }
        let (sortStats, sorted) = try measure(warmups: 1, runs: 5) {
            try Sort.run(.all([dataset]), by: [SortKey(Queries.sortField)]).count
        } check: { try expect($0, dataset.count, "sort") }
        record("sort", "sort \(Queries.sortField)", sortStats, count: sorted)
        let (groupStats, groups) = try measure(warmups: 1, runs: 5) {
            try Group.run(.all([dataset]), by: GroupSpec(fields: Queries.groupFields)).count
        }
        record("group", "group \(Queries.groupFields.joined(separator: ", "))", groupStats, count: groups)
        counts["groups"] = groups
        let (aggregateStats, aggregated) = try measure(warmups: 1, runs: 5) {
            let groups = try Group.run(.all([dataset]), by: Queries.groupAggregates)
            return groups.reduce(0) { $0 + $1.count }
        } check: { try expect($0, dataset.count, "group with aggregates: every station in one region group") }
        record("group:aggregates", Queries.groupAggregatesText, aggregateStats, count: aggregated)
        let (describeStats, described) = try measure(warmups: 1, runs: 5) {
            try Describe.run(.all([dataset])).reduce(0) { $0 + $1.profile.present + $1.profile.absent }
        } check: { try expect($0 % dataset.count, 0, "describe: every field counts every station") }
        record("describe", "describe (every field)", describeStats, count: described / max(1, dataset.count))
        // What the DuckDB in-memory race asks that the steps above do not (bench/peers times
        // all of them again beside DuckDB): a sort's first page, a distinct count, a group by
        // country with an aggregate, each through MemoryResults as the shell runs it.
        for (id, stepID) in [("sort-page", "sort:page"), ("distinct", "distinct"), ("group-country", "group:country")] {
            let query = try MemoryQueries.query(id, on: dataset)
            let expected = try query()
            let (stats, answer) = try measure(warmups: 2, runs: 7) { try query() } check: { answer in
                guard answer == expected else { throw BenchError("\(id): answered \(answer), first \(expected)") }
            }
            record(stepID, MemoryQueries.titles()[id]!, stats, count: answer.count)
            counts[stepID] = answer.count
        }

        // Expressions, computed over columns: the filter's count checked against a plain loop.
        let latitude = dataset.compile(FieldPath("point.latitude"))
        let longitude = dataset.compile(FieldPath("point.longitude"))
        let computedExpected = (0..<dataset.count).reduce(0) { count, row in
            guard let north = dataset.values(of: latitude, row: row).first.flatMap(dataset.number),
                  let east = dataset.values(of: longitude, row: row).first.flatMap(dataset.number) else { return count }
            return count + (north - east > 20 ? 1 : 0)
        }
        counts["filter:computed"] = computedExpected
        let computedFilter = try Queries.filter(Queries.computedFilter)
        let (computedFilterStats, computedFiltered) = try measure(warmups: 2, runs: 7) {
            try Filter.run(computedFilter, on: .all([dataset])).count
        } check: { try expect($0, computedExpected, "filter \(Queries.computedFilter) vs a loop over the records") }
        record("filter:computed", "filter \(Queries.computedFilter)", computedFilterStats, count: computedFiltered)
        let (computedSortStats, computedSorted) = try measure(warmups: 1, runs: 5) {
            try Sort.run(.all([dataset]), by: [Queries.computedSort]).count
        } check: { try expect($0, dataset.count, "computed sort") }
        record("sort:computed", "sort \(Queries.computedSort)", computedSortStats, count: computedSorted)
        let (computedGroupStats, computedGrouped) = try measure(warmups: 1, runs: 5) {
            try Group.run(.all([dataset]), by: Queries.computedGroup).reduce(0) { $0 + $1.count }
        } check: { try expect($0, dataset.count, "computed group: every station in one band") }
        record("group:computed", "group round(point.latitude) as band avg(point.longitude * 2)", computedGroupStats, count: computedGrouped)

        // Pictures: a map of every station at a 200 × 50 terminal's size (the outlines are read
        // once per process, as the shell does), and a histogram of a numeric field.
        let outlines = try WorldOutlines.load(path: file.directory + "/world.geojson")
        let (mapStats, drawn) = try measure(warmups: 1, runs: 7) {
            let picture = try MapPicture(results: .all([dataset]), outlines: outlines, world: false, columns: Queries.mapSize.columns,
                                         rows: Queries.mapSize.rows)
            // The text is part of the work: what the shell prints.
            return picture.lines.joined(separator: "\n").isEmpty ? 0 : picture.drawn
        } check: { try expect($0, dataset.count, "map: stations drawn") }
        record("map", "map of every station, \(Queries.mapSize.columns) × \(Queries.mapSize.rows)", mapStats, count: drawn)
        let (histogramStats, binned) = try measure(warmups: 1, runs: 7) {
            try FieldMeasurements.read(Queries.histogramField, from: .all([dataset])).histogram().total
        } check: { try expect($0, dataset.count, "histogram \(Queries.histogramField): values binned") }
        record("histogram", "histogram \(Queries.histogramField)", histogramStats, count: binned)

        // Geography: near, within, outside over the stations; path and reach over the borders.
        let geography = try GeographySteps.run(dataset, directory: file.directory, isLarge: isLarge) { id, title, stats, count in
            record(id, title, stats, count: count)
        }
        counts.merge(geography) { $1 }

        // Paths across links: each station's country.
        let links = try LinkSteps.run(dataset, directory: file.directory) { id, title, stats, count in
            record(id, title, stats, count: count)
        }
        counts.merge(links) { $1 }

        // TAB TAB after `filter FIELD = `: the values with their counts.
        let valueCounts = try ValueCountSteps.run(dataset) { id, title, stats, count in
            record(id, title, stats, count: count)
        }
        counts.merge(valueCounts) { $1 }

        // Reference points in Swift: a plain String scan, and Foundation's JSONDecoder.
        for query in Queries.search {
            let expected = counts["title:\(query)"]!
            let (plain, _) = try measure(warmups: 1, runs: isLarge ? 5 : 7) {
                names.reduce(0) { $0 + ($1.lowercased().contains(query) ? 1 : 0) }
            } check: { try expect($0, expected, "Swift scan \(query)") }
            record("swift.lowercased:\(query)", "Swift: lowercased().contains(\(query)) per title", plain, count: expected)
            let (pre, _) = try measure(warmups: 2, runs: 11) {
                lowered.reduce(0) { $0 + ($1.contains(query) ? 1 : 0) }
            } check: { try expect($0, expected, "Swift pre-lowered scan \(query)") }
            record("swift.prelowered:\(query)", "Swift: contains(\(query)) over pre-lowered titles", pre, count: expected)
        }
        let (decodeStats, decoded) = try measure(warmups: isLarge ? 0 : 1, runs: isLarge ? 3 : 5) {
            try DecoderPeer.load(file.path)
        } check: { loaded in
            try expect(loaded.stations.count, file.distinctStations, "JSONDecoder distinct stations")
            try expect(loaded.entries, file.stationEntries, "JSONDecoder station entries")
        }
        record("decoder", "JSONDecoder into Codable structs (+ by id)", decodeStats, count: decoded.stations.count, bytes: file.bytes)

        // Loads in fresh processes, for memory (and start-up included).
        var processLoads: [ProcessLoad] = []
        processLoads.append(try processLoad(tool: "almanac", flag: "--load-once", runs: isLarge ? 3 : 5))
        processLoads.append(try processLoad(tool: "JSONDecoder", flag: "--decode-once", runs: 1))
        processLoads.append(try processLoad(tool: "almanac CSV", flag: "--load-once", runs: isLarge ? 3 : 5, path: file.directory + "/stations.csv"))

        // Ctrl-C.
        var cancellation: [CancelProbe.Result] = []
        if probeCancellation {
            cancellation = probe(dataset, request: request, steps: steps)
        }

        return ScaleResult(file: file, steps: steps, processLoads: processLoads, counts: counts, cancellation: cancellation,
                           documentNodes: dataset.document.nodeCount, documentArenaBytes: dataset.document.arena.count)
    }

    private func processLoad(tool: String, flag: String, runs: Int, path: String? = nil) throws -> ProcessLoad {
        var walls: [Double] = []
        var inside: [Double] = []
        var resident = 0, trimmed = 0, peak = 0, records = 0
        for _ in 0..<runs {
            let started = Clock.now()
            let output = try Child.run(executable, [flag, path ?? file.path])
            walls.append(Clock.milliseconds(since: started))
            let report = try JSONDecoder().decode(LoadOnce.Report.self, from: Data(output.utf8))
            inside.append(report.milliseconds)
            resident = max(resident, report.resident)
            trimmed = max(trimmed, report.residentTrimmed)
            peak = max(peak, report.peak)
            records = report.records
        }
        try expect(records, file.distinctStations, "\(tool) in a child process")
        let load = ProcessLoad(tool: tool, wall: Stats(runs: walls, warmups: 0), inProcess: Stats(runs: inside, warmups: 0),
                               resident: resident, residentTrimmed: trimmed, peak: peak, records: records)
        let bytes = path.flatMap { try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int } ?? file.bytes
        log("  " + Report.processLine(load, fileBytes: bytes))
        return load
    }

    private func probe(_ dataset: Dataset, request: LoadRequest, steps: [Step]) -> [CancelProbe.Result] {
        func median(_ id: String) -> Double { steps.first { $0.id == id }?.stats.median ?? 10 }
        func freshCopy() -> Dataset {
            Dataset(name: dataset.name, model: dataset.model, document: dataset.document,
                    extraction: Extraction(records: dataset.records, warnings: dataset.warnings, extras: dataset.extras),
                    origin: dataset.origin)
        }
        log("  Ctrl-C: cancelling each operation at 20 %, 50 % and 80 % of its usual time")
        var results: [CancelProbe.Result] = []
        func add(_ result: CancelProbe.Result) {
            results.append(result)
            log("  " + Report.cancelLine(result))
        }
        add(CancelProbe.probe(id: "load", title: "load", duration: median("load")) { cancellation in
            _ = try DatasetLoader().load(request, progress: LoadProgress(), cancellation: cancellation)
        })
        // The first search on a dataset scans while its name index builds in the background.
        let cold = Mutex<Dataset?>(nil)
        add(CancelProbe.probe(id: "search.cold", title: "first search моск (index not built yet)",
                              duration: median("nameIndex") + median("search:моск"),
                              prepare: { cold.withLock { $0 = freshCopy() } }) { cancellation in
            guard let copy = cold.withLock({ $0 }) else { return }
            _ = try Search.run("моск", in: [copy], cancellation: cancellation)
        })
        add(CancelProbe.probe(id: "search", title: "search моск", duration: median("search:моск")) { cancellation in
            _ = try Search.run("моск", in: [dataset], cancellation: cancellation)
        })
        add(CancelProbe.probe(id: "fields", title: "fields inference (first filter)", duration: median("fields"),
                              prepare: { cold.withLock { $0 = freshCopy() } }) { cancellation in
            guard let copy = cold.withLock({ $0 }) else { return }
            _ = try copy.fields(cancellation: cancellation)
        })
        for (id, text) in [("filter:latitude", Queries.latitude), ("filter:country", Queries.country)] {
            guard let expression = try? Queries.filter(text) else { continue }
            add(CancelProbe.probe(id: id, title: "filter \(text)", duration: median(id)) { cancellation in
                _ = try Filter.run(expression, on: .all([dataset]), cancellation: cancellation)
            })
        }
        add(CancelProbe.probe(id: "sort", title: "sort \(Queries.sortField)", duration: median("sort")) { cancellation in
            _ = try Sort.run(.all([dataset]), by: [SortKey(Queries.sortField)], cancellation: cancellation)
        })
        add(CancelProbe.probe(id: "group", title: "group \(Queries.groupFields.joined(separator: ", "))", duration: median("group")) { cancellation in
            _ = try Group.run(.all([dataset]), by: GroupSpec(fields: Queries.groupFields), cancellation: cancellation)
        })
        add(CancelProbe.probe(id: "group:aggregates", title: Queries.groupAggregatesText, duration: median("group:aggregates")) { cancellation in
            _ = try Group.run(.all([dataset]), by: Queries.groupAggregates, cancellation: cancellation)
        })
        add(CancelProbe.probe(id: "describe", title: "describe", duration: median("describe")) { cancellation in
            _ = try Describe.run(.all([dataset]), cancellation: cancellation)
        })
        return results
    }
}

func expect(_ actual: Int, _ expected: Int, _ what: String) throws {
    guard actual == expected else { throw BenchError("count mismatch: \(what): got \(actual), expected \(expected)") }
}
