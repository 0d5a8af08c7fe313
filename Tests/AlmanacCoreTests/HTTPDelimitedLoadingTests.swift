import AlmanacNetwork
import Foundation
import Testing
@testable import AlmanacCore

/// CSV and TSV over http(s) load as the same bytes in a file do. The test server writes
/// species.json's records as a table (name, designation, skin_colors, height: the average
/// height when it is a number); the expected records are made here from species.json.
@Suite(.serialized) struct HTTPDelimitedLoadingTests {
    let server = LocalSWAPI.shared
    let scratch = Scratch()

    func load(_ path: String, transport: any HTTPTransport = CurlTransport(), options: LoadOptions = LoadOptions()) throws(LoadFailure) -> Dataset {
        let request = LoadRequest(name: "table", source: .url(server.url(path)), model: GenericModel.self, options: options)
        return try DatasetLoader(http: HTTPFetcher(transport: transport)).load(request, progress: LoadProgress(), cancellation: .never)
    }

    nonisolated(unsafe) static let species: [[String: Any]] = {
        let data = FileManager.default.contents(atPath: RealData.directory + "/species.json")!
        return try! JSONSerialization.jsonObject(with: data) as! [[String: Any]]
    }()

    /// Each species as compact JSON: three texts, and the height as a number when it is one.
    static let expected: [String] = {
        species.map { record in
            let text = { (key: String) in "\"" + (record[key] as! String) + "\"" }
            let height = record["average_height"] as! String
            let number = height.allSatisfy(\.isASCII) && Int(height) != nil ? ",\"height\":\(height)" : ""
            return "{\"name\":\(text("name")),\"designation\":\(text("designation")),\"skin_colors\":\(text("skin_colors"))\(number)}"
        }
    }()

    /// The records of the body at `path` loaded from a file with `name`.
    func fromFile(_ path: String, name: String) throws -> [String] {
        guard case let .response(_, data, _) = try CurlTransport().get(server.url(path), limits: HTTPLimits(
            idleTimeout: 5, responseDeadline: 10, maximumBytes: 1 << 20, maximumRedirects: 0), cancellation: .never) else {
            Issue.record("no response for \(path)")
            return []
        }
        return jsonRecords(try loadFile(scratch.file(name, bytes: Array(data))))
    }

    @Test func aCSVURLLoadsByItsExtensionWhateverItsContentType() throws {
        // Served as text/plain, as raw file hosts do.
        let dataset = try load("/species.csv")
        #expect(Self.expected.count == 37)
        #expect(jsonRecords(dataset) == Self.expected)
        #expect(jsonRecords(dataset) == (try fromFile("/species.csv", name: "species.csv")))
        #expect(dataset.origin.format == "CSV, 4 columns")
    }

    @Test func aTSVURLLoadsByItsExtension() throws {
        let dataset = try load("/species.tsv")
        #expect(jsonRecords(dataset) == Self.expected)
        #expect(jsonRecords(dataset) == (try fromFile("/species.tsv", name: "species.tsv")))
        #expect(dataset.origin.format == "TSV, 4 columns")
    }

    @Test func aTextCSVContentTypeDecidesWithoutAnExtension() throws {
        #expect(jsonRecords(try load("/species-table")) == Self.expected)
    }

    @Test func theHelperProcessPassesTheContentTypeOn() throws {
        #expect(jsonRecords(try load("/species-table", transport: FetchProcessTransport())) == Self.expected)
    }

    @Test func aBodyOfNoKnownTypeIsSniffedAsAFileIs() throws {
        #expect(jsonRecords(try load("/species-sniffed")) == Self.expected)
    }

    @Test func asInsistsOnAFormat() throws {
        // Read as TSV, each comma-separated line is one field of the header's one column.
        let dataset = try load("/species-table", options: LoadOptions(format: .tsv))
        #expect(dataset.count == 37)
        #expect(failure { try load("/species-table", options: LoadOptions(format: .json)) }.contains("expected a value"))
    }

    @Test func anNDJSONContentTypeReadsOneRecordALine() throws {
        let dataset = try load("/species-lines")
        let names = Self.species.map { $0["name"] as! String }
        #expect(names.count == 37)
        #expect((0..<dataset.count).map { dataset.record($0)["name"]?.string } == names)
    }

    @Test func contentTypesNameFormats() {
        #expect(LoadOptions.Format.byContentType("text/csv; charset=utf-8") == .csv)
        #expect(LoadOptions.Format.byContentType("Text/Tab-Separated-Values") == .tsv)
        #expect(LoadOptions.Format.byContentType("application/x-ndjson") == .ndjson)
        #expect(LoadOptions.Format.byContentType("application/json") == nil)
        #expect(LoadOptions.Format.byContentType("text/plain") == nil)
    }
}
