import Foundation
import Testing
@testable import AlmanacCore

/// Each record of a dataset as compact JSON, keys in the document's order.
func jsonRecords(_ dataset: Dataset) -> [String] {
    (0..<dataset.count).map { JSONWriter.string(dataset.record($0)) }
}

func loadFile(_ path: String, name: String = "data", options: LoadOptions = LoadOptions()) throws(LoadFailure) -> Dataset {
    try DatasetLoader().load(LoadRequest(name: name, source: .file(path: path), model: GenericModel.self, options: options),
                             progress: LoadProgress(), cancellation: .never)
}

/// CSV and TSV files load as records: what each cell holds is written here by hand.
@Suite struct CSVLoadingTests {
    let scratch = Scratch()

    func records(_ text: String, file: String = "data.csv", options: LoadOptions = LoadOptions()) throws -> [String] {
        jsonRecords(try loadFile(scratch.file(file, text), options: options))
    }

    func error(_ text: String, file: String = "data.csv") -> String {
        let path = scratch.file(file, text)
        return failure { try loadFile(path) }.replacingOccurrences(of: path, with: file)
    }

    @Test func quotedFieldsHoldDelimitersQuotesAndLineBreaks() throws {
        let text = "name,motto,age\r\n\"Smith, J\",\"say \"\"hi\"\"\",41\r\n\"two\nlines\",\"\",7\r\n"
        #expect(try records(text) == [#"{"name":"Smith, J","motto":"say \"hi\"","age":41}"#, #"{"name":"two\nlines","age":7}"#])
    }

    @Test func byteOrderMarkAndLineFeedsAndNoFinalLineBreak() throws {
        #expect(try records("\u{FEFF}id,name\n1,Ann\n2,Bo") == [#"{"id":1,"name":"Ann"}"#, #"{"id":2,"name":"Bo"}"#])
    }

    @Test(arguments: [(",", "data.csv"), (";", "data.csv"), ("\t", "data.csv"), ("|", "data.csv"), ("|", "data.txt"), ("\t", "data.tsv")])
    func delimiterIsSniffed(delimiter: String, file: String) throws {
        let text = ["city", "country", "people"].joined(separator: delimiter) + "\n"
            + ["Oslo", "Norway", "709037"].joined(separator: delimiter) + "\n"
            + ["Lima", "Peru", "10092000"].joined(separator: delimiter) + "\n"
        #expect(try records(text, file: file) == [#"{"city":"Oslo","country":"Norway","people":709037}"#,
                                                  #"{"city":"Lima","country":"Peru","people":10092000}"#])
    }

    @Test func headerlessFileNamesItsColumns() throws {
        #expect(try records("1,Ann,true\n2,Bo,false\n") == [#"{"column1":1,"column2":"Ann","column3":true}"#,
                                                            #"{"column1":2,"column2":"Bo","column3":false}"#])
    }

    @Test func emptyAndRepeatedHeaderNames() throws {
        #expect(try records("a,,a\n1,2,3\n") == [#"{"a":1,"column2":2,"a_2":3}"#])
    }

    @Test func columnsAreTypedByEveryCell() throws {
        // zip: numbers until the last row, so text throughout; code: a leading zero is text;
        // flag: booleans in any case; score: numbers with words for none, which are null.
        let text = "zip,code,flag,score,when\n10115,007,TRUE,1.5,2026-11-27\n75001,012,false,NA,2026-11-28\nSW1A,100,True,NULL,2026-11-29\n"
        #expect(try records(text) == [
            #"{"zip":"10115","code":"007","flag":true,"score":1.5,"when":"2026-11-27"}"#,
            #"{"zip":"75001","code":"012","flag":false,"score":null,"when":"2026-11-28"}"#,
            #"{"zip":"SW1A","code":"100","flag":true,"score":null,"when":"2026-11-29"}"#,
        ])
        let fields = try loadFile(scratch.file("typed.csv", text)).fields
        #expect(fields.field("zip")?.typeDescription == "text")
        #expect(fields.field("flag")?.typeDescription == "boolean")
        #expect(fields.field("score")?.count == 1)
    }

    @Test func textColumnKeepsItsWordsForNone() throws {
        // NA is Namibia in a column of text.
        #expect(try records("country\nNA\nNO\n") == [#"{"country":"NA"}"#, #"{"country":"NO"}"#])
    }

    @Test func decimalCommaInASemicolonFile() throws {
        let text = "item;price;note\nbread;2,49;x\nmilk;1,05;y\nwater;0,5;\n"
        #expect(try records(text) == [#"{"item":"bread","price":2.49,"note":"x"}"#, #"{"item":"milk","price":1.05,"note":"y"}"#,
                                      #"{"item":"water","price":0.5}"#])
        let dataset = try loadFile(scratch.file("prices.csv", text))
        let price = dataset.compile(FieldPath("price"))
        #expect(dataset.values(of: price, row: 0).compactMap(dataset.number) == [2.49])
    }

    @Test func decimalCommaNumberStaysANumberWhenItsColumnTurnsOutText() throws {
        #expect(try records("v;w\n1,5;a\nabc;b\n") == [#"{"v":1.5,"w":"a"}"#, #"{"v":"abc","w":"b"}"#])
    }

    @Test func numbersThatTurnOutTextBecomeTheSameTextAsTextCells() throws {
        // The earlier numbers are interned as text, so "12" before and after the flip is one value.
        let dataset = try loadFile(scratch.file("flip.csv", "v\n12\n12\nx\n12\n"))
        #expect(jsonRecords(dataset) == [#"{"v":"12"}"#, #"{"v":"12"}"#, #"{"v":"x"}"#, #"{"v":"12"}"#])
        let words = (0..<4).map { dataset.document.node(dataset.document.member("v", of: dataset.records[$0])!) }
        #expect(words[0] == words[1] && words[1] == words[3])
    }

    @Test func tsvEscapesAreRead() throws {
        let text = "name\tnote\nA\tline\\nbreak\nB\ttab\\there\\\\\nC\t\"quoted\"\n"
        #expect(try records(text, file: "data.tsv") == [#"{"name":"A","note":"line\nbreak"}"#, #"{"name":"B","note":"tab\there\\"}"#,
                                                        #"{"name":"C","note":"\"quoted\""}"#])
    }

    @Test func blankLinesAreSkippedAndEmptyCellsAbsent() throws {
        #expect(try records("a,b\n\n1,\n\n,2\n,\n") == [#"{"a":1}"#, #"{"b":2}"#, "{}"])
    }

    @Test func asCSVInsistsOnAJSONLookingFile() throws {
        let path = scratch.file("odd.json", "[a,b\n1,2\n")
        #expect(jsonRecords(try loadFile(path, options: LoadOptions(format: .csv))) == [#"{"[a":1,"b":2}"#])
    }

    @Test func contentDecidesWithoutAnExtension() throws {
        #expect(try records("x,y\n1,2\n", file: "data") == [#"{"x":1,"y":2}"#])
        #expect(try records("[{\"x\": 1}]", file: "other") == [#"{"x":1}"#])
    }

    @Test func errorsNameLineAndColumn() {
        #expect(error("a,b,c\n1,2,3\n4,5,6,7\n") == "data.csv: line 3, column 7: 4 fields where the header has 3")
        #expect(error("a,b,c\n1,2\n") == "data.csv: line 2, column 4: 2 fields where the header has 3")
        #expect(error("a,b\n\"x\ny\",2,3\n") == "data.csv: line 3, column 6: 3 fields where the header has 2")
        #expect(error("a,b\n1,\"open\n2,3\n") == "data.csv: line 2, column 3: a quoted field starts here and never ends (a closing quote is missing)")
        #expect(error("a,b\n1,\"x\"y\n")
            == "data.csv: line 2, column 6: after a closing quote, expected ',' or the end of the line, found 'y' (a quote inside a quoted field is written twice: \"\")")
        let latin1: [UInt8] = Array("name\nJos".utf8) + [0xE9] + Array("\n".utf8)
        let path = scratch.file("latin1.csv", bytes: latin1)
        #expect(failure { try loadFile(path) }.hasSuffix("latin1.csv: line 2, column 4: invalid UTF-8 (byte 0xE9): is the file in another encoding? `iconv -f WINDOWS-1252 -t UTF-8` converts one from Windows"))
    }

    /// A header alone is a dataset of no records with the header's fields; the name field is
    /// one of them (it was `name`, which the file does not have).
    @Test func aHeaderAloneLoadsNoRecordsWithItsFields() throws {
        let dataset = try loadFile(scratch.file("header.csv", "a,b\n"))
        #expect(dataset.count == 0)
        #expect(dataset.fields.paths == ["a", "b"])
        #expect(dataset.fields.fields.map(\.typeDescription) == ["empty", "empty"])
        #expect(dataset.layout.nameField == "a")
        #expect(dataset.layout.listFields == ["a", "b"])
        #expect(dataset.warnings == [])
        let listing = try MemoryResults(datasets: [dataset]).fields(cancellation: .never)
        #expect(listing.rows.map(\.path) == ["a", "b"])
        #expect(listing.notes == ["names the records: a"])
        // `key` may name a column no record fills yet.
        #expect(try loadFile(scratch.file("keyed.csv", "id,b\n"), options: LoadOptions(key: "id")).layout.identityField == "id")
    }

    @Test func aColumnNoRowFillsIsAFieldOfNoValues() throws {
        let fields = try loadFile(scratch.file("sparse.csv", "a,b\n1,\n2,\n")).fields
        #expect(fields.paths == ["a", "b"])
        #expect(fields.field("b")?.count == 0)
        #expect(fields.field("b")?.typeDescription == "empty")
    }

    /// An empty text (or one of line breaks) is no records, as an empty NDJSON file is, and
    /// the load says so; it has no fields, so no field names the records.
    @Test func anEmptyTextLoadsNoRecordsWithANote() throws {
        for (name, text) in [("empty.csv", ""), ("blank.csv", "\n\r\n\n"), ("bom.csv", "\u{FEFF}"), ("empty.tsv", "")] {
            let dataset = try loadFile(scratch.file(name, text))
            #expect(dataset.count == 0, "\(name)")
            #expect(dataset.warnings.map(\.description) == ["the text is empty: no header, no rows"], "\(name)")
            #expect(dataset.fields.paths == [], "\(name)")
            #expect(dataset.layout.listFields == [], "\(name)")
            #expect(try MemoryResults(datasets: [dataset]).fields(cancellation: .never).notes == [], "\(name)")
        }
    }

    /// The records of a text parsed on one thread and on two (a second from the middle).
    static func bothWays(_ text: String) throws -> (one: [String], two: [String]) {
        var bytes = Array(text.utf8)
        return try bytes.withUnsafeMutableBufferPointer { buffer in
            let bytes = UnsafeBufferPointer(buffer)
            let dialect = CSVDialect.sniff(UnsafeBufferPointer(rebasing: bytes[0..<(64 << 10)]), tsv: false, complete: false)
            func records(split: Bool) throws -> [String] {
                var builder = JSONDocumentBuilder(expectedBytes: bytes.count * 4)
                _ = try CSVParser.parse(bytes, source: "big.csv", dialect: dialect, into: &builder, split: split)
                let document = builder.finish()
                return document.elements(of: document.roots[0]).map { JSONWriter.string(document.value(at: $0)) }
            }
            return (try records(split: false), try records(split: true))
        }
    }

    /// A large file's second half, parsed on another thread, gives the same records: columns
    /// whose type only the second half shows are settled over both.
    @Test func twoThreadsReadWhatOneReads() throws {
        let rows = 200_000
        var text = "id,zip,flag,score,note\n"
        for row in 0..<rows {
            let late = row > rows * 3 / 4
            let zip = late && row % 1000 == 0 ? "SW1A" : String(10000 + row % 89999)
            let flag = late && row % 5000 == 0 ? "maybe" : (row % 2 == 0 ? "true" : "FALSE")
            let score = row % 7 == 0 ? "NA" : "\(row % 100).5"
            let note = row % 11 == 0 ? "\"a, \"\"b\"\"\nc\"" : "note \(row % 13)"
            text += "\(row),\(zip),\(flag),\(score),\(note)\n"
        }
        #expect(text.utf8.count >= CSVSecondPart.splitFrom)
        let (one, two) = try Self.bothWays(text)
        #expect(one.count == rows && two == one)
        #expect(one[rows - 1].contains(#""zip":"#) && one[0].contains(#""zip":"10000""#) && one[0].contains(#""flag":"true""#))
    }

    /// A mapped file whose second half is large enough for the second thread to give back
    /// pages it is done with: they come back from the file, and the records are as one
    /// thread reads them from memory, also when the first thread reads past the second's
    /// start (a quoted field holding the line break at the middle).
    @Test func pagesTheSecondThreadGivesBackComeBackFromTheFile() throws {
        var text = "id,name,score\n"
        for row in 0..<500_000 { text += "\(row),name \(row % 977),\(row % 100).25\n" }
        // The middle falls in a quoted field whose lines read as rows: the second thread
        // parses (and gives back) megabytes of them before the field's end stops it.
        let rows = String(repeating: "1,a,2\n", count: 300_000)
        let quoted = "id,name,score\n" + rows + "x,\"" + String(repeating: "\n1,a,2", count: 2_000_000) + "\",1\n" + rows
        for (name, text) in [("halves.csv", text), ("quoted.csv", quoted)] {
            let secondHalf = text.utf8.count - text.utf8.count / 2
            #expect(secondHalf > CSVParser.releaseMargin + (1 << 20))
            let loaded = jsonRecords(try loadFile(scratch.file(name, text)))
            let (one, _) = try Self.bothWays(text)
            #expect(loaded.count == one.count && loaded == one, "\(name)")
        }
    }

    /// A quoted field holding the line break at the middle: the second thread's start is no
    /// row's start, its work is dropped, and the records are as one thread reads them.
    @Test func aSplitInsideQuotesIsNoSplit() throws {
        // 2 MB of rows, a field of 2 MB of lines in quotes, 1 MB of rows: the middle is in the field.
        let row = "1,\"" + String(repeating: "x", count: 60) + "\"\n"
        let long = "2,\"" + String(repeating: "\ny", count: 1_000_000) + "\"\n"
        let text = "a,b\n" + String(repeating: row, count: 32_000) + long + String(repeating: row, count: 16_000)
        let middle = text.utf8.count / 2
        #expect(text.utf8.count >= CSVSecondPart.splitFrom && middle > 32_000 * 64 && middle < 32_000 * 64 + long.utf8.count)
        let (one, two) = try Self.bothWays(text)
        #expect(two == one && one.count == 48_001)
    }

    /// Thousands of rows of random cells, written as RFC 4180 says, read back cell for cell.
    @Test func randomCellsRoundTrip() throws {
        var random = SplitMix64(seed: 28)
        let alphabet = Array("ab ,\"\n\r;é€😀\t|x1.-")
        var expected: [[String]] = []
        var text = "c1,c2,c3\n"
        for _ in 0..<3000 {
            let row = (0..<3).map { _ in String((0..<Int.random(in: 1...12, using: &random)).map { _ in alphabet.randomElement(using: &random)! }) + "z" }
            expected.append(row)
            text += row.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: ",") + (Bool.random(using: &random) ? "\r\n" : "\n")
        }
        let dataset = try loadFile(scratch.file("random.csv", text))
        #expect(dataset.count == expected.count)
        for (row, cells) in expected.enumerated() {
            let got = ["c1", "c2", "c3"].map { key in dataset.document.member(key, of: dataset.records[row]).map { dataset.document.string(at: $0) } }
            #expect(got == cells, "row \(row)")
        }
    }
}
