import Foundation
import PostgresCluster
import Testing

/// `near` on an attached table runs in the database (haversine in SQL, bound parameters) and
/// answers as `near` over the same records in memory: the same rows, distances, pages, sorts,
/// filters on the distance, counts and groups.
@Suite("PostgreSQL: near in SQL answers as in memory")
struct PostgresNearTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    @Test("stations near a station and near a place: memory and table alike")
    func sameAnswers() throws {
        let script = ["set pagesize 10", "columns stationId, stationTitle, distance",
                      "near \"Stadion Center, Engerthstr. 242\" within 300 km", "page", "page 2", "sort distance desc", "filter distance < 100",
                      "count", "back", "back", "near \"55.75, 37.62\" within 20 km", "count", "filter distance != 0.4", "count",
                      "group countryTitle"]
        let output = try Database.sameAnswers("stations", table: "near_stations", in: home, script)
        #expect(output.contains("9778,\"Stadion Center, Olympiaplatz 2\",0.0"), "\(output)")
        #expect(!output.contains("9864,\"Stadion Center, Engerthstr. 242\",0.0"), "the station measured from is left out")
    }

    @Test("a near's distance is a field like any other: histogram, describe, group, expressions, sort then limit — memory and table alike")
    func distanceIsAField() throws {
        // Expected from the file: each distinct station's haversine distance, rounded as shown.
        var distances: [(title: String, km: Double)] = []
        for station in try MapCommandTests.stations().values {
            guard let point = station["point"] as? [String: Double], let latitude = point["latitude"], let longitude = point["longitude"] else { continue }
            let km = GeographyCommandTests.haversine([55.75, 37.62], [latitude, longitude])
            if km <= 50 { distances.append((station["stationTitle"] as! String, (km * 10).rounded() / 10)) }
        }
        let near = "near \"55.75, 37.62\" within 50 km"
        let shapes = try Database.sameAnswers("stations", table: "near_distance_shapes", in: home, [near, "histogram distance 5", "describe distance",
                                                                                                  "group distance", "group round(distance / 10) * 10 as tens"])
        #expect(shapes.contains("distance,number,\(distances.count),0,\(Set(distances.map(\.km)).count),"), "\(shapes)")
        let farthest = distances.sorted { $0.km > $1.km }.prefix(3)
        let computed = try Database.sameAnswers("stations", table: "near_distance_computed", in: home,
                                                [near, "columns stationTitle, distance * 1000 as meters", "sort meters desc", "limit 3"])
        #expect(computed.split(separator: "\n").dropFirst().map { String($0.split(separator: ",").first ?? "") } == farthest.map(\.title),
                "\(computed)")
        let filtered = try Database.sameAnswers("stations", table: "near_distance_filtered", in: home, [near, "filter distance * 2 > 60", "count"])
        #expect(filtered.trimmingCharacters(in: .whitespacesAndNewlines) == "count\n\(distances.filter { $0.km * 2 > 60 }.count)", "\(filtered)")
    }

    @Test("filter clear takes the filters away and keeps the near, and the sorts since: memory and table alike")
    func filterClearKeepsTheNear() throws {
        // Expected from the file: the stations within 50 km of the point and their distances.
        var distances: [Double] = []
        for station in try MapCommandTests.stations().values {
            guard let point = station["point"] as? [String: Double], let latitude = point["latitude"], let longitude = point["longitude"] else { continue }
            let km = GeographyCommandTests.haversine([55.75, 37.62], [latitude, longitude])
            if km <= 50 { distances.append(km) }
        }
        let cleared = try Database.sameAnswers("stations", table: "near_cleared", in: home,
                                               ["near \"55.75, 37.62\" within 50 km", "filter distance > 30", "filter clear", "count"])
        #expect(cleared == "count\n\(distances.count)\n", "\(cleared)")
        let farthest = String(format: "%.1f", try #require(distances.max()))
        let sorted = try Database.sameAnswers("stations", table: "near_cleared_sorted", in: home,
                                              ["near \"55.75, 37.62\" within 50 km", "sort distance desc", "filter distance < 40", "filter clear",
                                               "columns distance", "limit 1"])
        #expect(sorted == "distance\n\(farthest)\n", "\(sorted)")
    }

    @Test("why #N reads a near's distance like a field: the condition on it and the row's value — memory and table alike")
    func whyReadsTheDistance() throws {
        // Expected from the file: the nearest station past 30 km of the point, its distance rounded as shown.
        var distances: [Double] = []
        for station in try MapCommandTests.stations().values {
            guard let point = station["point"] as? [String: Double], let latitude = point["latitude"], let longitude = point["longitude"] else { continue }
            let km = (GeographyCommandTests.haversine([55.75, 37.62], [latitude, longitude]) * 10).rounded() / 10
            if km <= 50, km > 30 { distances.append(km) }
        }
        let nearest = try #require(distances.min())
        let answer = try Database.sameAnswers("stations", table: "near_why", in: home,
                                              ["near \"55.75, 37.62\" within 50 km", "filter distance > 30", "why #1"])
        #expect(answer == "condition,holds,values\ndistance > 30,true,distance \(String(format: "%.1f", nearest))\n", "\(answer)")
    }

    @Test("an empty near names the nearest record and its distance, on standard error: memory and table alike")
    func emptyNearSaysTheNearest() throws {
        // Expected from the file: the station nearest to 0° N, 0° E, its distance rounded as shown.
        var nearest = Double.infinity
        for station in try MapCommandTests.stations().values {
            guard let point = station["point"] as? [String: Double], let latitude = point["latitude"], let longitude = point["longitude"] else { continue }
            nearest = min(nearest, (GeographyCommandTests.haversine([0, 0], [latitude, longitude]) * 10).rounded() / 10)
        }
        let tenths = Int((nearest * 10).rounded())
        var whole = String(tenths / 10)
        for index in stride(from: whole.count - 3, to: 0, by: -3) { whole.insert(",", at: whole.index(whole.startIndex, offsetBy: index)) }
        let shown = whole + "." + String(tenths % 10)
        let (memory, database) = try Database.runs("stations", table: "near_empty", in: home, ["near 0, 0 within 1000 km", "count"])
        #expect(memory.stdout == "count\n0\n" && memory.status == 0, "\(memory)")
        #expect(memory.stderr.hasPrefix("no records — nothing within 1,000 km of 0, 0; the nearest is "), "\(memory)")
        #expect(memory.stderr.hasSuffix(", \(shown) km away\n") && memory.stderr.split(separator: "\n").count == 1, "\(memory), expected \(shown)")
        #expect(database.stdout == memory.stdout && database.stderr == memory.stderr && database.status == 0, "\(database)")
    }

    @Test("stations and countries exported to a table keep their key, unique: show 9864 and near 9864 answer as in memory")
    func exportKeepsTheKey() throws {
        let url = try Database.url("near_keyed_stations")
        let countries = try Database.url("near_keyed_countries")
        let exported = try PipeRun.run(["--no-rc", "-c", "use stations", "-c", "export \(url) --force", "-c", "use countries",
                                        "-c", "export \(countries) --force"], environment: home.environment(), directory: home.root)
        #expect(exported.status == 0 && exported.stderr.isEmpty, "\(exported)")
        func constraints(_ table: String) throws -> [String?] {
            try Database.column("SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = '\(table)'::regclass")
        }
        #expect(try constraints("near_keyed_stations") == [#"UNIQUE ("stationId")"#])
        #expect(try constraints("near_keyed_countries") == [#"UNIQUE ("alpha3Code")"#])

        let show = try PipeRun.run(["--no-rc", "-c", "load d from \(url)", "-c", "use d", "-c", "show 9864"], environment: home.environment(),
                                   directory: home.root)
        #expect(show.status == 0 && show.stderr.isEmpty && show.stdout.contains("Stadion Center, Engerthstr. 242"), "\(show)")
        func run(_ setup: [String], _ script: [String], format: String) throws -> PipeResult {
            try PipeRun.run(["--no-rc", "--format", format], input: (setup + script).joined(separator: "\n") + "\n",
                            environment: home.environment(), directory: home.root)
        }
        var answers: [(memory: String, database: String)] = []
        for (script, format) in [(["columns stationId, stationTitle, distance", "near 9864 within 250 km", "count", "page"], "csv"),
                                 (["near 9864 within 250 km", "why 9864"], "table")] {
            let memory = try run(["use stations"], script, format: format)
            let database = try run(["load d from \(url)", "use d"], script, format: format)
            #expect(memory.status == 0 && memory.stderr.isEmpty, "\(memory)")
            #expect(database.status == 0 && database.stderr.isEmpty, "\(database)")
            answers.append((memory.stdout, database.stdout))
        }
        #expect(answers[0].memory == answers[0].database, "memory:\n\(answers[0].memory)\ndatabase:\n\(answers[0].database)")
        // From the file: the distinct stations within 250 km of 9864's point, 9864 itself left out.
        let stations = try MapCommandTests.stations()
        let centre = try #require(stations.values.first { $0["stationId"] as? Int == 9864 }?["point"] as? [String: Double])
        let within = stations.values.filter { station in
            guard station["stationId"] as? Int != 9864, let point = station["point"] as? [String: Double] else { return false }
            return GeographyCommandTests.haversine([centre["latitude"]!, centre["longitude"]!], [point["latitude"]!, point["longitude"]!]) <= 250
        }
        let listing = answers[0].database
        #expect(listing.hasPrefix("count\n\(within.count)\nstationId,stationTitle,distance\n"), "\(listing)")
        #expect(listing.split(separator: "\n").count == 2 + 1 + within.count, "\(listing)")
        // A table of stations names its rows by their title, as the stations model does.
        let leftOut = " is not among the results: a search, near, within, outside, reach or limit left it out\n"
        #expect(answers[1].memory == "Stadion Center, Engerthstr. 242" + leftOut, "\(answers[1].memory)")
        #expect(answers[1].database == answers[1].memory, "\(answers[1].database)")
    }
}
