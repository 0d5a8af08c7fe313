import AlmanacNetwork
import Foundation
import Testing
@testable import AlmanacCore

/// Files written for one test and removed after.
struct Scratch {
    let directory: String = {
        let path = NSTemporaryDirectory() + "almanac-load-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    func file(_ name: String, _ contents: String) -> String {
        let path = directory + "/" + name
        FileManager.default.createFile(atPath: path, contents: Data(contents.utf8))
        return path
    }

    func file(_ name: String, bytes: [UInt8]) -> String {
        let path = directory + "/" + name
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }
}

func load(_ name: String, _ path: String, model: (any RecordModel.Type)? = nil, catalog: Catalog? = nil) throws(LoadFailure) -> Dataset {
    let request = LoadRequest(name: name, source: .file(path: path), model: model ?? DefaultDatasets.model(for: name))
    if let catalog { return try catalog.loadAndWait(request) }
    return try DatasetLoader().load(request, progress: LoadProgress(), cancellation: .never)
}

func failure(_ body: () throws -> Dataset) -> String {
    do {
        _ = try body()
        return "no error"
    } catch {
        return "\(error)"
    }
}

@Suite struct MalformedInputTests {
    let scratch = Scratch()

    @Test func truncatedFileSaysWhereItEnds() {
        let text = String(decoding: try! Data(contentsOf: URL(fileURLWithPath: RealData.directory + "/stations.json")).prefix(5000), as: UTF8.self)
        let message = failure { try load("stations", scratch.file("stations.json", text)) }
        #expect(message.hasPrefix(scratch.directory + "/stations.json:"))
        #expect(message.contains("truncated"))
    }

    @Test func missingCommaGivesLineAndColumn() {
        let path = scratch.file("bad.json", "[\n  {\"name\": \"a\"}\n  {\"name\": \"b\"}\n]")
        #expect(failure { try load("bad", path) } == "\(path):3:3: expected ',' or ']', found '{'")
        let object = scratch.file("object.json", "{\"a\": 1\n \"b\": 2}")
        #expect(failure { try load("object", object) } == "\(object):2:2: expected ',' or '}', found '\"'")
    }

    @Test func wrongTopLevelType() {
        let path = scratch.file("number.json", "42")
        #expect(failure { try load("countries", path) }.contains("expected an array of countries; found a number"))
        let stations = scratch.file("stations.json", "[1, 2]")
        #expect(failure { try load("stations", stations) }.contains("expected an object with 'citiesFrom' and 'citiesTo'"))
    }

    @Test func recordOfTheWrongShapeIsSkippedWithAWarning() throws {
        let path = scratch.file("countries.json", #"[{"alpha3Code": "NOR", "name": "Norway"}, 7, {"name": "No code"}]"#)
        let dataset = try load("countries", path)
        #expect(dataset.count == 1)
        let warnings = dataset.warnings.map(\.description)
        #expect(warnings.contains("record 2: skipped: expected an object, found a number"))
        #expect(warnings.contains("record 3 (No code): skipped: it has no 'alpha3Code'"))
    }

    @Test func fieldOfTheWrongTypeLoadsWithAWarning() throws {
        let path = scratch.file("countries.json", #"[{"alpha3Code": "NOR", "name": "Norway", "population": "lots"}]"#)
        let dataset = try load("countries", path)
        #expect(dataset.count == 1)
        #expect(dataset.warnings.map(\.description).contains("record 1 (Norway): population: expected a number, found a string (\"lots\")"))
        #expect(Country(dataset.record(0)).population == nil)
    }

    @Test func invalidUTF8() {
        let path = scratch.file("bad.json", bytes: Array("[{\"name\": \"ab".utf8) + [0xC3, 0x28] + Array("\"}]".utf8))
        #expect(failure { try load("bad", path) } == "\(path):1:14: invalid UTF-8 byte sequence")
    }

    @Test func emptyFile() {
        let path = scratch.file("empty.json", "")
        #expect(failure { try load("empty", path) } == "\(path):1:1: the text is empty: expected a JSON value")
    }

    @Test func missingFileAndDirectory() {
        #expect(failure { try load("nope", scratch.directory + "/nope.json") } == "\(scratch.directory)/nope.json: no such file")
        #expect(failure { try load("dir", scratch.directory) } == "\(scratch.directory): is a directory, not a file")
    }

    @Test func limitsAreNamed() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let path = scratch.file("deep.json", deep)
        #expect(failure { try load("deep", path) }.contains("nested deeper than 512 levels (the limit)"))
    }

    @Test func stringsAndEscapes() throws {
        let path = scratch.file("escapes.json", #"[{"name": "a\u00e9\ud83d\ude00\n\"", "n": -1.5e3}]"#)
        let dataset = try load("escapes", path)
        #expect(dataset.name(of: 0) == "aé😀\n\"")
        #expect(dataset.record(0)["n"]?.number == -1500)
        #expect(dataset.record(0)["n"]?.literal == "-1.5e3")
        let lone = scratch.file("lone.json", #"["\ud800"]"#)
        #expect(failure { try load("lone", lone) }.contains("lone surrogate"))
    }

    @Test func aFailedLoadKeepsThePreviousContents() throws {
        let catalog = Catalog()
        let good = scratch.file("countries.json", #"[{"alpha3Code": "NOR", "name": "Norway"}]"#)
        _ = try load("countries", good, catalog: catalog)
        let bad = scratch.file("broken.json", #"[{"alpha3Code": "#)
        #expect(failure { try load("countries", bad, catalog: catalog) }.contains("truncated"))
        #expect(catalog.dataset("countries")?.count == 1)
        #expect(catalog.statuses().first?.failure != nil)
    }
}

@Suite struct GenericDatasetTests {
    let scratch = Scratch()

    @Test func anyArrayOfObjectsLoadsWithInferredFields() throws {
        let path = scratch.file("quotes.json", #"[{"author": "Ada", "text": "Hi", "year": 1843}, {"author": "Alan", "text": "Yo", "tags": ["a"]}]"#)
        let dataset = try load("quotes", path)
        #expect(dataset.count == 2)
        #expect(dataset.layout.nameField == "author")
        let fields = dataset.fields
        #expect(fields.field("year")?.count == 1)
        #expect(fields.field("year")?.typeDescription == "number")
        #expect(fields.field("tags")?.typeDescription == "list of text")
    }

    @Test func ndjsonLoadsLineByLine() throws {
        let path = scratch.file("lines.ndjson", "{\"name\": \"a\"}\n{\"name\": \"b\"}\n\n{\"name\": \"c\"}\n")
        #expect(try load("lines", path).count == 3)
        let detected = scratch.file("lines.json", "{\"name\": \"a\"}\n{\"name\": \"b\"}\n")
        #expect(try load("detected", detected).count == 2)
        let broken = scratch.file("broken.ndjson", "{\"name\": \"a\"}\n{\"name\": }\n")
        #expect(failure { try load("broken", broken) }.contains(":2:10:"))
    }

    @Test func filesLoadFromNamedPipes() throws {
        let path = scratch.directory + "/fifo.json"
        #expect(mkfifo(path, 0o600) == 0)
        let writer = Thread {
            let handle = FileHandle(forWritingAtPath: path)!
            handle.write(Data(#"[{"name": "piped"}]"#.utf8))
            handle.closeFile()
        }
        writer.start()
        #expect(try load("fifo", path).name(of: 0) == "piped")
    }
}

@Suite(.serialized) struct HTTPLoadingTests {
    let server = LocalSWAPI.shared

    func fetch(_ path: String, name: String = "species", transport: any HTTPTransport = CurlTransport(),
               configure: (inout HTTPFetcher) -> Void = { _ in }) throws(LoadFailure) -> (Dataset, LoadProgress) {
        var fetcher = HTTPFetcher(transport: transport)
        fetcher.firstBackoff = 0.01
        configure(&fetcher)
        let progress = LoadProgress()
        let request = LoadRequest(name: name, source: .url(server.url(path)), model: DefaultDatasets.model(for: name))
        return (try DatasetLoader(http: fetcher).load(request, progress: progress, cancellation: .never), progress)
    }

    @Test func followsNextThroughEveryPage() throws {
        let (dataset, progress) = try fetch("/species/")
        #expect(dataset.count == 37)
        #expect(dataset.name(of: 36) == "Pau'an")
        #expect(progress.snapshot.recordsDone == 37)
        #expect(progress.snapshot.recordsTotal == 37)
        #expect(dataset.row(forIdentity: "3").map { dataset.name(of: $0) } == "Wookie")
    }

    @Test func theHelperProcessFetchesTheSame() throws {
        let (dataset, _) = try fetch("/species/", transport: FetchProcessTransport())
        #expect(dataset.count == 37)
        #expect(failure { try fetch("/missing/", transport: FetchProcessTransport()).0 }.contains("HTTP 404 for"))
        #expect(failure { try fetch("/redirect-ftp/", transport: FetchProcessTransport()).0 }.contains("non-http(s)"))
    }

    @Test func cancellingKillsTheHelperQuickly() throws {
        var fetcher = HTTPFetcher(transport: FetchProcessTransport())
        fetcher.maximumTries = 1
        let catalog = Catalog(loader: DatasetLoader(http: fetcher))
        let load = catalog.load(LoadRequest(name: "species", source: .url(server.url("/stall/")), model: SpeciesModel.self))
        Thread.sleep(forTimeInterval: 0.5)
        let cancelled = Date()
        load.cancel()
        #expect(load.wait(seconds: 5))
        #expect(Date().timeIntervalSince(cancelled) < 0.5)
    }

    @Test func retriesAServerError() throws {
        #expect(try fetch("/flaky/").0.count == 37)
    }

    @Test func otherStatusesAreClearErrors() {
        let message = failure { try fetch("/missing/").0 }
        #expect(message.contains("HTTP 404 for http://127.0.0.1:\(server.port)/missing/?page=3"))
    }

    @Test func malformedPagesSayWhere() {
        let message = failure { try fetch("/broken/").0 }
        #expect(message.contains("/broken/?page=2:1:"))
        #expect(message.contains("expected"))
    }

    @Test func aNextThatLoopsIsDetected() {
        #expect(failure { try fetch("/loop/").0 }.contains("leads back to a page already read"))
    }

    @Test func redirectsAreFollowedButNotToOtherSchemes() throws {
        #expect(try fetch("/redirect/").0.count == 37)
        #expect(failure { try fetch("/redirect-ftp/").0 }.contains("non-http(s)"))
    }

    @Test func aStalledServerTimesOut() {
        let started = Date()
        let message = failure {
            try fetch("/stall/") { $0.idleTimeout = 1; $0.responseDeadline = 2; $0.maximumTries = 1 }.0
        }
        #expect(message.contains("timed out"), "\(message)")
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test func aTrickleIsCutOffByTheDeadline() {
        let started = Date()
        let message = failure {
            try fetch("/trickle/") { $0.idleTimeout = 5; $0.responseDeadline = 2; $0.maximumTries = 1 }.0
        }
        #expect(message.contains("timed out"), "\(message)")
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test func cancellingStopsAStalledLoadQuickly() throws {
        let catalog = Catalog(loader: DatasetLoader(http: HTTPFetcher(transport: CurlTransport())))
        let load = catalog.load(LoadRequest(name: "species", source: .url(server.url("/stall/")), model: SpeciesModel.self))
        Thread.sleep(forTimeInterval: 0.3)
        let cancelled = Date()
        load.cancel()
        #expect(load.wait(seconds: 5))
        #expect(Date().timeIntervalSince(cancelled) < 0.5)
        #expect(load.result.map { if case .failure(.cancelled) = $0 { true } else { false } } == true)
    }

    @Test func credentialsAreNeverShown() throws {
        let source = try LoadSource.parse("http://user:secret@127.0.0.1:\(server.port)/missing/")
        #expect(!source.description.contains("secret"))
        let message = failure { try DatasetLoader().load(LoadRequest(name: "x", source: source, model: GenericModel.self), progress: LoadProgress(), cancellation: .never) }
        #expect(!message.contains("secret"))
    }

    @Test func onlyHTTPSchemes() {
        #expect(throws: LoadFailure.self) { try LoadSource.parse("ftp://example.com/x.json") }
        #expect(throws: LoadFailure.self) { try LoadSource.parse("file:///etc/passwd") }
    }
}

@Suite struct LineTrackerTests {
    /// The word-at-a-time count agrees with counting byte by byte, wherever the stretches end.
    @Test func countsLikeAByteLoop() {
        let text = Array("ab\nцд\n\n{\"x\": \"Åland\"}\nlast line, no break é".utf8) + Array(repeating: UInt8(ascii: "z"), count: 37)
        text.withUnsafeBufferPointer { bytes in
            for step in 1...17 {
                let tracker = LineTracker()
                var end = 0
                while end < bytes.count {
                    end = min(bytes.count, end + step)
                    tracker.advance(to: end, in: bytes)
                    let reference = LineTracker().position(of: end, in: bytes)
                    #expect(tracker.line == reference.line && tracker.column == reference.column, "step \(step) end \(end)")
                }
            }
        }
    }
}

/// Large files are mapped and parsed on two threads.
@Suite struct LargeFileTests {
    let scratch = Scratch()

    func bigArray(records: Int, tail: String = "]") -> String {
        var text = "[\n"
        for index in 0..<records {
            text += "  {\"name\": \"record \(index) Привет\", \"value\": \(index).5, \"tags\": [\"a\", \"b\"]},\n"
        }
        text += "  {\"name\": \"last\"}\n" + tail
        return text
    }

    @Test func aLargeFileLoadsOnTwoThreads() throws {
        let path = scratch.file("big.json", bigArray(records: 300_000))
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int > FileContents.secondThreadFrom)
        let dataset = try load("big", path)
        #expect(dataset.count == 300_001)
        #expect(dataset.name(of: 299_999) == "record 299999 Привет")
    }

    @Test func anErrorAtTheEndOfALargeFileSaysWhere() throws {
        let path = scratch.file("bad.json", bigArray(records: 300_000, tail: "}"))
        let message = failure { try load("bad", path) }
        #expect(message == "\(path):300003:1: expected ',' or ']', found '}'", "\(message)")
    }
}

/// A mapped file that shrinks while it is parsed (see `GuardedMapping`).
@Suite struct GuardedMappingTests {
    let scratch = Scratch()

    @Test func pagesPastTheNewEndReadAsZerosAndTheGuardSaysSo() throws {
        let path = scratch.file("shrinking.json", String(repeating: "[1, 2, 3],\n", count: 10_000))
        let descriptor = open(path, O_RDWR)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        let mapping = try #require(GuardedMapping(descriptor: descriptor, size: 110_000))
        defer { mapping.close() }
        #expect(mapping.bytes[0] == UInt8(ascii: "[") && !mapping.wasHit)
        #expect(ftruncate(descriptor, 4096) == 0)
        // Without the guard, this read past the new end is a SIGBUS that ends the process.
        #expect(mapping.bytes[100_000] == 0)
        #expect(mapping.wasHit)
        #expect(mapping.bytes[1] == UInt8(ascii: "1"))
    }

    @Test func aFileThatShrinksWhileItIsParsedIsNotBelievedComplete() throws {
        var text = "[\n"
        for index in 0..<100_000 { text += "  {\"name\": \"record \(index)\"},\n" }
        text += "  {\"name\": \"last\"}\n]\n"
        let path = scratch.file("cut.json", text)
        let descriptor = open(path, O_RDWR)
        defer { close(descriptor) }
        let (parsed, complete) = try FileContents.withBytes(of: path, name: "cut.json", progress: LoadProgress(), cancellation: .never,
                                                          lines: LineTracker()) { bytes, access throws(LoadFailure) in
            // Cut while the parser is at work: what it has not touched yet is gone.
            _ = ftruncate(descriptor, off_t(text.utf8.count / 2))
            var builder = JSONDocumentBuilder()
            let parsed = (try? JSONParser.parse(bytes, source: "cut.json", into: &builder)) != nil
            return (parsed, access.complete())
        }
        #expect(!parsed)
        #expect(!complete, "the loader would believe an error made of zeros")
        // A load reads it again and reports the real end.
        let message = failure { try load("cut", path) }
        #expect(message.contains("cut.json:"), "\(message)")
        #expect(!message.contains("0x00"), "\(message)")
    }
}
