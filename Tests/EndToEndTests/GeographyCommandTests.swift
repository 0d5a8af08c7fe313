import Foundation
import Testing

/// path, reach, near, within, outside and trip --countries through pipes and on a terminal,
/// their answers computed here from the data files (a breadth-first search over borders,
/// haversine, a ray cast over world.geojson), not by almanac's code.
@Suite("geography commands")
struct GeographyCommandTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    func succeed(_ commands: [String], format: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try home.succeed(commands, format: format, sourceLocation: sourceLocation)
    }

    // MARK: - Independent answers

    static func countries() throws -> [[String: Any]] {
        try #require(try MapCommandTests.json(DataFolder.realFile("countries")) as? [[String: Any]])
    }

    /// Borders named by either side, by alpha-3 code.
    static func borders() throws -> [String: Set<String>] {
        var adjacent: [String: Set<String>] = [:]
        for country in try countries() {
            let code = country["alpha3Code"] as! String
            adjacent[code, default: []].formUnion([])
            for other in country["borders"] as? [String] ?? [] {
                adjacent[code, default: []].insert(other)
                adjacent[other, default: []].insert(code)
            }
        }
        return adjacent
    }

    static func distances(from start: String) throws -> [String: Int] {
        let adjacent = try borders()
        var distance = [start: 0]
        var queue = [start]
        while !queue.isEmpty {
            let code = queue.removeFirst()
            for other in adjacent[code] ?? [] where distance[other] == nil {
                distance[other] = distance[code]! + 1
                queue.append(other)
            }
        }
        return distance
    }

    static func haversine(_ a: [Double], _ b: [Double]) -> Double {
        let r = Double.pi / 180
        let h = pow(sin((b[0] - a[0]) * r / 2), 2) + cos(a[0] * r) * cos(b[0] * r) * pow(sin((b[1] - a[1]) * r / 2), 2)
        return 2 * 6371.0088 * asin(sqrt(h))
    }

    /// world.geojson's polygons by iso_a3: each a list of rings of [longitude, latitude].
    static func outlines() throws -> [(code: String, polygons: [[[[Double]]]])] {
        let root = try #require(try MapCommandTests.json(DataFolder.realFolder + "/world.geojson") as? [String: Any])
        return (root["features"] as! [[String: Any]]).map { feature in
            let geometry = feature["geometry"] as! [String: Any]
            let coordinates = geometry["coordinates"] as! [Any]
            let polygons = geometry["type"] as! String == "Polygon" ? [coordinates as! [[[Double]]]] : coordinates as! [[[[Double]]]]
            return ((feature["properties"] as! [String: Any])["iso_a3"] as! String, polygons)
        }
    }

    static func inside(_ polygons: [[[[Double]]]], latitude: Double, longitude: Double) -> Bool {
        polygons.contains { rings in
            var inside = false
            for ring in rings {
                for index in ring.indices {
                    let a = ring[index], b = ring[(index + 1) % ring.count]
                    if (a[1] > latitude) != (b[1] > latitude), longitude < a[0] + (latitude - a[1]) * (b[0] - a[0]) / (b[1] - a[1]) {
                        inside.toggle()
                    }
                }
            }
            return inside
        }
    }

    static func point(_ station: [String: Any]) -> [Double]? {
        guard let point = station["point"] as? [String: Any], let latitude = point["latitude"] as? Double,
              let longitude = point["longitude"] as? Double else { return nil }
        return [latitude, longitude]
    }

    /// The rows of the last CSV table in the output (each command of a run writes its own),
    /// from its header line on.
    static func csv(_ text: String, header: String) -> [[String]] {
        let lines = text.lines.filter { !$0.isEmpty }
        let start = lines.lastIndex(of: header) ?? lines.count
        return lines[start...].map { $0.components(separatedBy: ",") }
    }

    // MARK: - path and reach

    @Test("path lists a shortest chain of borders; across the sea it names each side's land component")
    func path() throws {
        let rows = Self.csv(try succeed(["path Portugal China"], format: "csv"), header: "step,name,alpha3Code,region")
        #expect(rows.first == ["step", "name", "alpha3Code", "region"])
        let codes = rows.dropFirst().map { $0[2] }
        #expect(codes.count == (try Self.distances(from: "PRT")["CHN"]!) + 1)
        #expect(codes.first == "PRT" && codes.last == "CHN")
        let adjacent = try Self.borders()
        for (a, b) in zip(codes, codes.dropFirst()) { #expect(adjacent[a]!.contains(b), "\(a) borders \(b)") }
        #expect(rows.dropFirst().map { Int($0[0])! } == Array(0..<codes.count))

        let none = try succeed(["path \"United Kingdom\" France"])
        let france = try Self.distances(from: "FRA").count
        let why = [
            "no land route from United Kingdom of Great Britain and Northern Ireland to France",
            "United Kingdom of Great Britain and Northern Ireland's land component: 2 countries (Ireland, United Kingdom of Great Britain and Northern Ireland)",
            "France's land component: \(france) countries (Afghanistan, Albania, Algeria, Andorra, Angola, Argentina, Armenia, Austria, … \(france - 8) more)",
        ]
        #expect(none.lines == why)
        // For programs the answer is empty, and why is said on standard error, not dropped.
        for (format, empty) in [("json", "[]\n"), ("csv", "step,name,alpha3Code,region\n")] {
            let machine = try home.run(["path GBR FRA"], format: format)
            #expect(machine.status == 0 && machine.stdout == empty, "\(machine)")
            #expect(machine.stderr.lines == why, "\(machine)")
        }
    }

    @Test("an empty reach says why on standard error: the country borders none over land")
    func emptyReachSaysWhy() throws {
        #expect(try Self.borders()["ISL"]?.isEmpty ?? true, "Iceland has no land border in the data")
        let result = try home.run(["use countries", "reach Iceland 1", "count"], format: "csv")
        #expect(result.status == 0 && result.stdout == "count\n0\n", "\(result)")
        #expect(result.stderr == "no records — Iceland borders no country over land\n", "\(result)")
    }

    @Test("reach gives the countries within N borders as results: sort, columns, group, export and back work on them")
    func reach() throws {
        let expected = try Self.distances(from: "ESP").filter { $0.value > 0 && $0.value <= 2 }
        let rows = Self.csv(try succeed(["use countries", "reach Spain 2", "columns alpha3Code, distance"], format: "csv"), header: "alpha3Code,distance")
        #expect(rows.first == ["alpha3Code", "distance"])
        #expect(Dictionary(uniqueKeysWithValues: rows.dropFirst().map { ($0[0], Int($0[1])!) }) == expected)
        #expect(rows.dropFirst().map { Int($0[1])! } == rows.dropFirst().map { Int($0[1])! }.sorted(), "nearest first")

        let sorted = Self.csv(try succeed(["use countries", "reach Spain 2", "sort distance desc", "columns alpha3Code, distance"], format: "csv"), header: "alpha3Code,distance")
        #expect(sorted.dropFirst().first?[1] == "2" && sorted.last?[1] == "1")
        let grouped = try succeed(["use countries", "reach Spain 2", "group region"], format: "csv")
        let regions = Dictionary(grouping: try Self.countries().filter { expected[$0["alpha3Code"] as! String] != nil }) { $0["region"] as! String }
        for (region, members) in regions { #expect(grouped.lines.contains { $0.hasPrefix("\(region),\(members.count),") }, "\(grouped)") }

        _ = try succeed(["use countries", "reach Spain 1", "export reach.json"])
        let exported = try #require(try MapCommandTests.json(home.root + "/reach.json") as? [[String: Any]])
        #expect(exported.count == expected.filter { $0.value == 1 }.count)
        #expect(exported.allSatisfy { $0["distance"] as? Int == 1 && $0["capital"] != nil }, "whole records and their distance")
        let back = try succeed(["use countries", "reach Spain 1", "back", "count"])
        #expect(back.lines.last == "250")
    }

    // MARK: - near, within, outside

    @Test("a filter on near's distance that leaves none names the farthest station it removed, with its distance")
    func emptyDistanceFilterExplains() throws {
        let stations = try MapCommandTests.stations()
        let origin = try #require(Self.point(stations[9864]!))
        var within: [(km: Double, title: String)] = []
        for (id, station) in stations where id != 9864 {
            guard let point = Self.point(station) else { continue }
            let km = Self.haversine(origin, point)
            if km <= 251.5 { within.append((km, station["stationTitle"] as? String ?? "?")) }
        }
        let farthest = try #require(within.max { $0.km < $1.km })
        let run = try PipeRun.run(["--no-rc", "-c", "use stations", "-c", "near 9864 within 251.5 km", "-c", "filter distance > 300"],
                                  environment: home.environment(), directory: home.root)
        #expect(run.status == 0 && run.stdout == "no records\n", "\(run)")
        #expect(run.stderr == "no records — distance > 300 removed all \(within.count) records; the largest distance among them is "
            + String(format: "%.1f", farthest.km) + " (\(farthest.title))\n", "\(run)")
    }

    @Test("near lists the stations within N km nearest first with their distance; under json a FeatureCollection")
    func near() throws {
        let stations = try MapCommandTests.stations()
        let origin = try #require(Self.point(stations[9864]!))
        var expected: [(id: Int, km: Double)] = []
        for (id, station) in stations where id != 9864 {
            guard let point = Self.point(station) else { continue }
            let km = Self.haversine(origin, point)
            if km <= 300 { expected.append((id, (km * 10).rounded() / 10)) }
        }
        let rows = Self.csv(try succeed(["use stations", "near 9864 within 300 km", "columns stationId, distance"], format: "csv"), header: "stationId,distance")
        #expect(rows.first == ["stationId", "distance"])
        #expect(Set(rows.dropFirst().map { Int($0[0])! }) == Set(expected.map(\.id)))
        #expect(rows.dropFirst().map { Double($0[1])! } == expected.map(\.km).sorted())
        #expect(expected.count > 10)

        let json = try succeed(["use stations", "near 9864 within 300 km"], format: "json")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(root["type"] as? String == "FeatureCollection")
        let features = try #require(root["features"] as? [[String: Any]])
        #expect(features.count == expected.count)
        let first = try #require(features.first)
        #expect((first["properties"] as? [String: Any])?["distance"] as? Double == expected.map(\.km).min())
        #expect((first["geometry"] as? [String: Any])?["type"] as? String == "Point")

        // A place by latitude and longitude; countries by their latlng.
        let place = Self.csv(try succeed(["use countries", "near \"48.2, 16.37\" within 400 km", "columns alpha3Code, distance"], format: "csv"), header: "alpha3Code,distance")
        var countries: [(String, Double)] = []
        for country in try Self.countries() {
            guard let latlng = country["latlng"] as? [Double], latlng.count == 2 else { continue }
            let km = Self.haversine([48.2, 16.37], latlng)
            if km <= 400 { countries.append((country["alpha3Code"] as! String, (km * 10).rounded() / 10)) }
        }
        #expect(place.dropFirst().map { $0[0] } == countries.sorted { $0.1 < $1.1 }.map(\.0))
    }

    @Test("within a country is every station inside its outline; a country without an outline says so")
    func within() throws {
        let stations = try MapCommandTests.stations()
        let austria = try #require(try Self.outlines().first { $0.code == "AUT" })
        let expected = stations.compactMap { id, station -> Int? in
            guard let point = Self.point(station) else { return nil }
            return Self.inside(austria.polygons, latitude: point[0], longitude: point[1]) ? id : nil
        }
        let rows = Self.csv(try succeed(["use stations", "within Österreich", "columns stationId"], format: "csv"), header: "stationId")
        #expect(Set(rows.dropFirst().map { Int($0[0])! }) == Set(expected))
        #expect(rows.count - 1 == expected.count && expected.count >= 5)
        let geojson = try succeed(["use stations", "within AT"], format: "json")
        let features = try #require((try JSONSerialization.jsonObject(with: Data(geojson.utf8)) as? [String: Any])?["features"] as? [[String: Any]])
        #expect(features.count == expected.count)

        let monaco = try home.run(["use stations", "within Monaco"])
        #expect(monaco.status != 0)
        #expect(monaco.stderr.contains("Monaco has no outline in world.geojson"), "\(monaco)")
    }

    @Test("outside lists stations away from their own country's outline, farthest first; map draws them")
    func outside() throws {
        let rows = Self.csv(try succeed(["use stations", "outside", "columns stationId, countryTitle, distance"], format: "csv"), header: "stationId,countryTitle,distance")
        let distances = rows.dropFirst().map { Double($0[2])! }
        #expect(!distances.isEmpty && distances == distances.sorted(by: >))
        // Independently: Russian country names through countries.json's translations, then the ray cast.
        let byRussianName = Dictionary(try Self.countries().compactMap { country -> (String, String)? in
            ((country["translations"] as? [String: Any])?["ru"] as? String).map { ($0, country["alpha3Code"] as! String) }
        }, uniquingKeysWith: { first, _ in first })
        let outlines = try Self.outlines()
        var expected = Set<Int>()
        for (id, station) in try MapCommandTests.stations() {
            guard let point = Self.point(station), let code = byRussianName[station["countryTitle"] as! String],
                  let outline = outlines.first(where: { $0.code == code }) else { continue }
            if !Self.inside(outline.polygons, latitude: point[0], longitude: point[1]) { expected.insert(id) }
        }
        #expect(Set(rows.dropFirst().map { Int($0[0])! }) == expected)
        let map = try succeed(["use stations", "outside", "map --size 60x15"])
        #expect(expected.count < 1000)
        #expect(map.contains("\(expected.count) stations drawn, none without coordinates"), "\(map)")
    }

    @Test("trip --countries lists the countries the great circle crosses, in order")
    func tripCountries() throws {
        let rows = Self.csv(try succeed(["use stations", "trip from 9864 to 9362 --countries"], format: "csv"), header: "country,alpha3Code,fromKm,toKm,km")
        #expect(rows.first == ["country", "alpha3Code", "fromKm", "toKm", "km"])
        // Every 2 km along the great circle, by slerp and the ray cast here.
        let stations = try MapCommandTests.stations()
        let (a, b) = (Self.point(stations[9864]!)!, Self.point(stations[9362]!)!)
        let (u, v) = (TripMapTests.vector(latitude: a[0], longitude: a[1]), TripMapTests.vector(latitude: b[0], longitude: b[1]))
        let angle = acos(u[0] * v[0] + u[1] * v[1] + u[2] * v[2])
        let outlines = try Self.outlines()
        var expected: [String] = []
        let samples = Int(Self.haversine(a, b) / 2)
        for step in 0...samples {
            let t = Double(step) / Double(samples)
            let (wa, wb) = (sin((1 - t) * angle) / sin(angle), sin(t * angle) / sin(angle))
            let p = (0..<3).map { wa * u[$0] + wb * v[$0] }
            let latitude = asin(p[2]) * 180 / .pi, longitude = atan2(p[1], p[0]) * 180 / .pi
            if let found = outlines.first(where: { Self.inside($0.polygons, latitude: latitude, longitude: longitude) }), expected.last != found.code {
                expected.append(found.code)
            }
        }
        #expect(rows.dropFirst().map { $0[1] } == expected)
        #expect(rows.last?[3] == String(format: "%.1f", Self.haversine(a, b)))
        let text = try succeed(["use stations", "trip from 9864 to 9362 on 2099-12-01 --countries"])
        #expect(text.lines.contains("  Crossing (along the great circle, km from the departure)"), "\(text)")
    }

    // MARK: - Errors

    @Test("unknown places, negative distances and datasets without coordinates fail clearly")
    func errors() throws {
        let cases: [([String], String)] = [
            (["path Atlantis France"], "no country called 'Atlantis' in countries"),
            (["use countries", "reach Spain -1"], "N must be a whole number from 1 to 250, not '-1'"),
            (["use stations", "near 9864 within -5 km"], "a distance cannot be negative: -5 km"),
            (["use stations", "near 9864 within far"], "expected a distance in km after within (within 50 km), not 'far'"),
            (["use stations", "near Atlantis within 5 km"], "nothing called 'Atlantis' in stations"),
            (["use stations", "near \"95, 10\" within 5 km"], "95, 10 is not a place: latitude goes from -90 to 90"),
            (["use species", "near Wookie within 5 km"], "species has no coordinates — near reads fields named lat/latitude"),
            (["use species", "within Austria"], "species has no coordinates — within reads"),
            (["use stations", "reach Spain 2"], "reach answers with countries, and the dataset in use is stations — 'use countries' first"),
            (["use countries", "outside"], "outside compares each record's coordinates with the outline of its own country"),
        ]
        for (commands, message) in cases {
            let result = try home.run(commands)
            #expect(result.status != 0, "\(commands)")
            #expect(result.stderr.contains(message), "\(commands): \(result.stderr)")
        }
    }

    // MARK: - On a terminal

    @Test("on an 80 × 24 terminal: path --map fits the screen, and country names and near's keyword complete")
    func terminal() throws {
        let paged = home.root + "/paged.txt"
        let session = try PseudoTerminalSession(environment: home.environment().with("ALMANAC_PAGER", "cat > '\(paged)'"), rows: 24, columns: 80)
        try session.waitForPrompt()
        try session.enter("use countries; count", prompt: "countries> ")
        let command = "path Spain Russia --map"
        try session.enter(command)
        #expect(home.read(paged) == nil, "went to the pager")
        let screen = session.screen.lines
        let start = try #require(screen.lastIndex { $0 == "countries> " + command })
        let lines = Array(screen[(start + 1)...].prefix { !$0.hasPrefix("countries>") })
        #expect(lines.count <= 21 && lines.allSatisfy { $0.unicodeScalars.count < 80 }, "\(lines.joined(separator: "\n"))")
        #expect(lines.filter { !$0.isEmpty && $0.unicodeScalars.allSatisfy(MapCommandTests.isBraille) }.count >= 5, "\(lines.joined(separator: "\n"))")
        let chain = try Self.distances(from: "ESP")["RUS"]!
        #expect(lines.contains { $0.hasPrefix("\(chain) borders from Spain to Russian Federation over land:") }, "\(lines.joined(separator: "\n"))")
        try session.send("within Austri" + Key.tab)
        try session.waitForScreen("the completed country") { $0.beforeCursor == "countries> within Austria " }
        session.skipReceived()
        try session.send(Key.ctrlC)
        try session.waitForPrompt()
        try session.send("path Portugal Spai" + Key.tab)
        try session.waitForScreen("the second country") { $0.beforeCursor == "countries> path Portugal Spain " }
        session.skipReceived()
        try session.send(Key.ctrlC)
        try session.waitForPrompt()
        // near's distance: TAB puts no unit where the number goes, and km after it.
        try session.send("near Austria wi" + Key.tab)
        try session.waitForScreen("the keyword") { $0.beforeCursor == "countries> near Austria within " }
        try session.send(Key.tab + Key.tab)
        session.settle()
        #expect(session.screen.beforeCursor == "countries> near Austria within ", "\(session.screen.lines.joined(separator: "\n"))")
        try session.send("300 " + Key.tab)
        try session.waitForScreen("the unit") { $0.beforeCursor == "countries> near Austria within 300 km " }
        session.skipReceived()
        try session.send(Key.ctrlC)
        try session.waitForPrompt()
        // One letter of the keyword: within, not Norway again (two edits from `Norway w`).
        try session.send("near Norway w" + Key.tab)
        try session.waitForScreen("the keyword after a name") { $0.beforeCursor == "countries> near Norway within " }
        session.skipReceived()
        try session.send(Key.ctrlC)
        try session.waitForPrompt()
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0)
    }
}
