import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A script loads only the datasets it uses, each as soon as a command names it; commands
/// that show every dataset still get them all. stations.json is a FIFO here, so the test sees
/// exactly when (and whether) the shell opens it.
@Suite("Scripts load what they use", .serialized)
struct ScriptLoadTests {
    let home: TemporaryHome
    let data: DataFolder

    init() throws {
        home = try TemporaryHome()
        data = try DataFolder(in: home)
    }

    /// Records in a bundled file, counted here from the JSON: planets is a plain array.
    static func planetCount() throws -> Int {
        let planets = try JSONSerialization.jsonObject(with: Data(DataFolder.realContents("planets"))) as? [Any]
        return try #require(planets).count
    }

    /// Distinct stationIds over both city lists.
    static func distinctStations() throws -> Int {
        let root = try #require(try JSONSerialization.jsonObject(with: Data(DataFolder.realContents("stations"))) as? [String: Any])
        var ids = Set<Int>()
        for key in ["citiesFrom", "citiesTo"] {
            for city in root[key] as? [[String: Any]] ?? [] {
                for station in city["stations"] as? [[String: Any]] ?? [] { ids.insert(station["stationId"] as! Int) }
            }
        }
        return ids.count
    }

    /// Whether some process has the FIFO open for reading (a writer's non-blocking open
    /// fails with ENXIO until one has).
    static func hasReader(_ fifo: String) -> Bool {
        let descriptor = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        if descriptor >= 0 { close(descriptor) }
        return descriptor >= 0
    }

    /// Watches the FIFO for 300 ms: nobody may open it meanwhile.
    static func expectNoReader(_ fifo: String, _ why: Comment, sourceLocation: SourceLocation = #_sourceLocation) {
        for _ in 0..<30 {
            #expect(!hasReader(fifo), why, sourceLocation: sourceLocation)
            pause(milliseconds: 10)
        }
    }

    @Test("a script that uses planets never opens stations.json; `use stations` opens it at once")
    func scriptOpensOnlyWhatItNames() throws {
        let fifo = try data.makeFIFO(for: "stations")
        let run = try PipeSession(data.arguments, environment: home.environment())
        try run.send("use planets")
        try run.send("count")
        try run.waitFor("\(try Self.planetCount())\n")
        // Every load the shell was going to start has started by now; watch a while longer.
        Self.expectNoReader(fifo, "the stations file was opened by a script that never used it")
        try run.send("use stations")
        let feeder = FIFOFeeder.start(fifo, bytes: try DataFolder.realContents("stations"))
        try feeder.wait()  // `use` started the load: the FIFO had a reader before any count asked
        try run.send("count")
        try run.waitFor("\(try Self.distinctStations())\n")
        #expect(try run.finish() == 0, "\(run.stderrText)")
    }

    @Test("`count` reads no field, so it does not wait for the countries stations link into; `fields` does")
    func countLoadsNoLinkedDataset() throws {
        let fifo = try data.makeFIFO(for: "countries")
        let run = try PipeSession(data.arguments, environment: home.environment())
        try run.send("use stations")
        try run.send("count")
        try run.waitFor("\(try Self.distinctStations())\n")
        Self.expectNoReader(fifo, "count opened countries.json, which it does not read")
        // `fields` shows each field's example, a country by its name: it waits for the countries.
        try run.send("fields")
        let feeder = FIFOFeeder.start(fifo, bytes: try DataFolder.realContents("countries"))
        try feeder.wait()
        #expect(try run.finish() == 0, "\(run.stderrText)")
    }

    @Test("`datasets` in a script lists every dataset, each started")
    func datasetsStartsEveryLoad() throws {
        let result = try PipeRun.run(data.arguments + ["--format", "tsv", "-c", "datasets"], environment: home.environment())
        #expect(result.status == 0, "\(result)")
        // The first row is the header (name, records, state, …).
        let names = result.stdout.lines.filter { !$0.isEmpty }.dropFirst().map { $0.split(separator: "\t").first.map(String.init) ?? "" }
        #expect(names == DataFolder.datasets, "\(result)")
        #expect(!result.stdout.contains("not loaded"), "every load started: \(result)")
    }

    @Test("--verbose announces no load the script did not use")
    func verboseNamesOnlyUsedLoads() throws {
        let result = try PipeRun.run(data.arguments + ["--verbose", "-c", "use planets", "-c", "count"], environment: home.environment())
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("\(try Self.planetCount())"), "\(result)")
        let announced = (result.stdout + result.stderr).lines.compactMap { line in
            DataFolder.datasets.first { line.hasPrefix("\($0): ") }
        }
        // planets was waited for, and so reported by the command itself rather than announced.
        #expect(announced.filter { $0 != "planets" }.isEmpty, "\(result)")
    }
}
