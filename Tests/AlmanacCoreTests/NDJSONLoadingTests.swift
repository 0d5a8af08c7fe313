import Foundation
import Testing
@testable import AlmanacCore

/// An NDJSON file (`.ndjson`, `.jsonl`, `as ndjson`) is one record per line, whatever the
/// number of lines: a single line is a record, not a JSON document to look into.
@Suite struct NDJSONLoadingTests {
    let scratch = Scratch()

    @Test func oneLineIsOneRecordWhateverSaysItIsNDJSON() throws {
        for name in ["one.ndjson", "one.jsonl", "ONE.JSONL"] {
            let dataset = try loadFile(scratch.file(name, "{\"a\":1}\n"))
            #expect(jsonRecords(dataset) == [#"{"a":1}"#], "\(name)")
            #expect(dataset.warnings == [], "\(name)")
        }
        let declared = try loadFile(scratch.file("one.txt", "{\"a\":1}"), options: LoadOptions(format: .ndjson))
        #expect(jsonRecords(declared) == [#"{"a":1}"#])
    }

    @Test func aLineHoldingAListOfObjectsIsThatRecordNotTheList() throws {
        let line = #"{"name":"Norway","capital":"Oslo","languages":[{"name":"Norwegian"},{"name":"Bokmål"},{"name":"Nynorsk"}]}"#
        let dataset = try loadFile(scratch.file("nor.ndjson", line + "\n"), name: "n")
        #expect(dataset.count == 1)
        #expect(dataset.name(of: 0) == "Norway")
        #expect(dataset.origin.recordsAt == nil)
        #expect(GenericModel.summary(of: dataset) == "1 record")
    }

    @Test func linesWithResultsAreRecordsNotAPIPages() throws {
        let text = "{\"page\":1,\"results\":[{\"a\":1},{\"a\":2}]}\n{\"page\":2,\"results\":[{\"a\":3}]}\n"
        let dataset = try loadFile(scratch.file("pages.ndjson", text))
        #expect(jsonRecords(dataset) == [#"{"page":1,"results":[{"a":1},{"a":2}]}"#, #"{"page":2,"results":[{"a":3}]}"#])
    }

    @Test func aLineThatIsAListIsSkippedLikeAnyOtherNonObject() throws {
        let dataset = try loadFile(scratch.file("list.ndjson", "[{\"a\":1},{\"a\":2}]\n"))
        #expect(dataset.count == 0)
        #expect(dataset.warnings.map(\.description) == ["record 1: skipped: expected an object, found an array"])
    }

    @Test func aStationsShapedLineIsAnOrdinaryRecord() throws {
        let dataset = try loadFile(scratch.file("cities.ndjson", "{\"citiesFrom\":[],\"citiesTo\":[]}\n"))
        #expect(ObjectIdentifier(dataset.model) == ObjectIdentifier(GenericModel.self))
        #expect(jsonRecords(dataset) == [#"{"citiesFrom":[],"citiesTo":[]}"#])
    }

    /// As psql's COPY FROM an empty file copies 0 rows: no line is no record, not an error.
    @Test func anEmptyOrBlankFileHoldsNoRecords() throws {
        for (name, text) in [("empty.ndjson", ""), ("blank.jsonl", "\n \n\r\n")] {
            let dataset = try loadFile(scratch.file(name, text))
            #expect(dataset.count == 0, "\(name)")
            #expect(dataset.warnings == [], "\(name)")
        }
    }

    @Test func anEmptyFileDoesNotReplaceLoadedRecords() {
        let path = scratch.file("empty.ndjson", "")
        var request = LoadRequest(name: "data", source: .file(path: path), model: GenericModel.self)
        request.replacesRecords = true
        #expect(failure { try DatasetLoader().load(request, progress: LoadProgress(), cancellation: .never) }
            == "\(path): no records in it: the list is empty")
    }

    @Test func atIsForAnObjectNotForLines() {
        let path = scratch.file("nor.ndjson", "{\"languages\":[{\"name\":\"Norwegian\"}]}\n")
        #expect(failure { try loadFile(path, options: LoadOptions(recordsAt: "languages")) }
            == "\(path): 'at languages' needs an object holding the records; found one record per line (NDJSON)")
    }
}
