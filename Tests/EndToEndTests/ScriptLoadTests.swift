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

    /// Runs `first` in a session (waiting for `answer`) with `dataset`'s file a FIFO that
    /// nobody may open meanwhile (watched 300 ms more), then sends `opener`, which must open
    /// it: the file is fed to that reader. The session goes on.
    func expectOpened(by opener: String, dataset: String, after first: [String], answer: String,
                      _ why: Comment, sourceLocation: SourceLocation = #_sourceLocation) throws -> PipeSession {
        let fifo = try data.makeFIFO(for: dataset)
        let run = try PipeSession(data.arguments, environment: home.environment())
        for command in first { try run.send(command) }
        try run.waitFor(answer)
        // Every load the shell was going to start has started by now; watch a while longer.
        for _ in 0..<30 {
            #expect(!Self.hasReader(fifo), why, sourceLocation: sourceLocation)
            pause(milliseconds: 10)
        }
        try run.send(opener)
        let feeder = FIFOFeeder.start(fifo, bytes: try DataFolder.realContents(dataset))
        try feeder.wait()
        return run
    }

    @Test("a script that uses planets never opens stations.json; `use stations` opens it at once")
    func scriptOpensOnlyWhatItNames() throws {
        // `use` starts the load: the FIFO has a reader before any count asks.
        let run = try expectOpened(by: "use stations", dataset: "stations", after: ["use planets", "count"],
                                   answer: "\(try Self.planetCount())\n", "the stations file was opened by a script that never used it")
        try run.send("count")
        try run.waitFor("\(try Self.distinctStations())\n")
        #expect(try run.finish() == 0, "\(run.stderrText)")
    }

    @Test("`count` reads no field, so it does not wait for the countries stations link into; `fields` does")
    func countLoadsNoLinkedDataset() throws {
        // `fields` shows each field's example, a country by its name: it waits for the countries.
        let run = try expectOpened(by: "fields", dataset: "countries", after: ["use stations", "count"],
                                   answer: "\(try Self.distinctStations())\n", "count opened countries.json, which it does not read")
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

    @Test("--verbose announces the loads the script used, once each, and no other")
    func verboseNamesOnlyUsedLoads() throws {
        let result = try PipeRun.run(data.arguments + ["--verbose", "-c", "use planets", "-c", "count", "-c", "count"],
                                     environment: home.environment())
        let planets = try Self.planetCount()
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.lines == ["\(planets)", "\(planets)"], "\(result)")
        #expect(result.stderr.lines.count == 1 && result.stderr.hasPrefix("planets: \(planets) planets · "), "\(result)")
    }

    /// Loads end in any order on two cores; a script's output must not: each summary is said
    /// when a command first reads the dataset, in the order it reads them (with its warnings).
    @Test("--verbose says the loads a command waited for in the datasets' order, whichever ended first")
    func verboseOrderIsTheDatasetsOrder() throws {
        for _ in 0..<3 {
            let result = try PipeRun.run(data.arguments + ["--verbose", "-c", "count"], environment: home.environment())
            #expect(result.status == 0, "\(result)")
            let names = result.stderr.lines.compactMap { line in DataFolder.datasets.first { line.hasPrefix("\($0): ") } }
            #expect(names == ["countries", "species", "species", "planets", "people", "stations"], "\(result)")
            #expect(result.stderr.lines[2].hasPrefix("species: 3 warnings — "), "\(result)")
        }
    }
}
