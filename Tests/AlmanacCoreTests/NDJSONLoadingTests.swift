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
        #expect(dataset.warnings.map(\.description) == ["line 1: skipped: expected an object, found an array"])
    }

    @Test func aSkippedLineIsNamedByItsLineNotItsPlaceAmongTheRecords() throws {
        // Line 2 blank, a record spread over lines 5-7 (jq's pretty output), then two bad lines.
        let text = "{\"a\":1}\n\n{\"a\":2}\n[1,2]\n{\n  \"a\": 3\n}\n\"text\"\n  \n42\n"
        let dataset = try loadFile(scratch.file("mixed.ndjson", text))
        #expect(jsonRecords(dataset) == [#"{"a":1}"#, #"{"a":2}"#, #"{"a":3}"#])
        #expect(dataset.warnings.map(\.description) == [
            "line 4: skipped: expected an object, found an array",
            "line 8: skipped: expected an object, found a string",
            "line 10: skipped: expected an object, found a number",
        ])
    }

    @Test func aStationsShapedLineIsAnOrdinaryRecord() throws {
        let dataset = try loadFile(scratch.file("cities.ndjson", "{\"citiesFrom\":[],\"citiesTo\":[]}\n"))
        #expect(ObjectIdentifier(dataset.model) == ObjectIdentifier(GenericModel.self))
        #expect(jsonRecords(dataset) == [#"{"citiesFrom":[],"citiesTo":[]}"#])
    }

    @Test func aByteOrderMarkBeforeTheFirstLineIsSkipped() throws {
        let path = scratch.file("bom.ndjson", bytes: [0xEF, 0xBB, 0xBF] + Array("{\"a\":1}\n{\"a\":2}\n".utf8))
        #expect(jsonRecords(try loadFile(path)) == [#"{"a":1}"#, #"{"a":2}"#])
    }

    /// As psql's COPY FROM an empty file copies 0 rows: no line is no record, not an error
    /// (an empty CSV is the same); the load says the text is empty.
    @Test func anEmptyOrBlankFileHoldsNoRecords() throws {
        for (name, text) in [("empty.ndjson", ""), ("blank.jsonl", "\n \n\r\n")] {
            let dataset = try loadFile(scratch.file(name, text))
            #expect(dataset.count == 0, "\(name)")
            #expect(dataset.warnings.map(\.description) == ["the text is empty: no lines, no records"], "\(name)")
            #expect(try MemoryResults(datasets: [dataset]).fields(cancellation: .never).notes == [], "\(name)")
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

    /// A record its line does not close is named where its line ends, not where the next
    /// record (read as more of it) fails.
    @Test func anUnclosedRecordIsNamedAtTheEndOfItsLine() {
        let cases: [(name: String, text: String, error: String)] = [
            ("bad.ndjson", "{\"a\":1}\n{\"a\":2\n{\"a\":3}\n",
             "2:7: expected ',' or '}', found the end of the line (the record on line 2 is not closed)"),
            ("crlf.jsonl", "{\"a\":1}\r\n{\"a\":2  \r\n{\"a\":3}\r\n",
             "2:7: expected ',' or '}', found the end of the line (the record on line 2 is not closed)"),
            ("list.ndjson", "{\"a\":[1,2\n{\"a\":3}\n",
             "1:10: expected ',' or ']', found the end of the line (the record on line 1 is not closed)"),
            ("value.ndjson", "{\"a\":1}\n{\"a\":\n{\"a\":3}\n",
             "2:6: expected a value, found the end of the line (the record on line 2 is not closed)"),
            ("last.ndjson", "{\"a\":1}\n{\"a\":2\n",
             "2:7: expected ',' or '}', found the end of the line (the record on line 2 is not closed)"),
            // Found to be NDJSON by its second line: the same.
            ("detected.json", "{\"a\":1}\n{\"a\":2\n{\"a\":3}\n",
             "2:7: expected ',' or '}', found the end of the line (the record on line 2 is not closed)"),
            // The text ends on the record's own line: it ends too early there.
            ("truncated.ndjson", "{\"a\":1}\n{\"a\":2", "2:7: the text ends too early (truncated?): expected ',' or '}'"),
        ]
        for (name, text, error) in cases {
            let path = scratch.file(name, text)
            #expect(failure { try loadFile(path) } == "\(path):\(error)", "\(name)")
        }
    }

    @Test func aRecordSpreadOverLinesLoadsAndFailsWhereItFails() throws {
        let pretty = scratch.file("pretty.ndjson", "{\n  \"a\": 1,\n  \"b\": [\n    2\n  ]\n}\n{\n  \"a\": 3\n}\n")
        #expect(jsonRecords(try loadFile(pretty)) == [#"{"a":1,"b":[2]}"#, #"{"a":3}"#])
        let broken = scratch.file("broken.ndjson", "{\n  \"a\": 1\n  \"b\": 2\n}\n")
        #expect(failure { try loadFile(broken) } == "\(broken):3:3: expected ',' or '}', found '\"'")
    }
}

/// A large NDJSON file reports its progress and can be stopped while it parses, as an array
/// of records does: the bar moved only at the end, and Ctrl-C waited for the whole file.
@Suite struct NDJSONProgressTests {
    /// 40,000 lines of 64 bytes (2.56 MB), each newline at 64 i + 63.
    static let text: [UInt8] = {
        var text = ""
        for index in 0..<40_000 { text += #"{"n":"\#(String(format: "%05d", index))","padding":"0123456789012345678901234567890123456"}"# + "\n" }
        return Array(text.utf8)
    }()

    @Test func progressIsReportedAboutEveryMegabyteBetweenLines() throws {
        #expect(Self.text.count == 40_000 * 64)
        nonisolated(unsafe) var reported: [Int] = []
        var builder = JSONDocumentBuilder()
        let roots = try Self.text.withUnsafeBufferPointer { bytes in
            try JSONParser.parseLines(bytes, source: "big.ndjson", into: &builder, progress: { reported.append($0) })
        }
        #expect(roots.count == 40_000)
        // At the first line end at or past 1 MiB (line 16,384's, 1,048,639), then at or past
        // that plus 1 MiB (2,097,215 is line 32,768's end exactly); none before 3,145,791.
        #expect(reported == [1_048_639, 2_097_215])
    }

    @Test func aCancelledLoadStopsAtTheFirstReportNotAtTheEnd() throws {
        nonisolated(unsafe) var reported: [Int] = []
        var builder = JSONDocumentBuilder()
        #expect(throws: LoadFailure.cancelled) {
            try Self.text.withUnsafeBufferPointer { bytes in
                _ = try JSONParser.parseLines(bytes, source: "big.ndjson", into: &builder, progress: { consumed throws(CancelledError) in
                    reported.append(consumed)
                    throw CancelledError()
                })
            }
        }
        #expect(reported == [1_048_639])
    }
}
