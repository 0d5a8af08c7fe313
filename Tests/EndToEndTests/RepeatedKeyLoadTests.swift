import Foundation
import Testing

/// One rule for a record that names a key twice: the last value is the value — in the table,
/// in `filter` and `sort`, in JSON output and in an exported file — and the load warns once
/// per such record.
@Suite("Repeated keys: the last value wins, everywhere")
struct RepeatedKeyLoadTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
        try home.write(#"[{"name": "a", "k": 1, "size": 5, "k": 2}, {"name": "b", "k": 3, "size": 6}, {"name": "c", "k": 9, "k": 0, "k": 1}]"# + "\n",
                       to: "repeats.json")
    }

    func run(_ commands: [String]) throws -> PipeResult {
        try PipeRun.run(["--no-rc", "--echo"] + commands.flatMap { ["-c", $0] }, environment: home.environment(), directory: home.root,
                        timeout: .seconds(60))
    }

    @Test("the table, filter, sort and JSON see the last value; one warning per record")
    func everywhere() throws {
        let result = try run(["load r from repeats.json", "use r", "set format csv", "page", "filter k = 2", "filter clear",
                              "filter k = 1", "filter clear", "filter k = 9", "filter clear", "sort k", "set format ndjson", "page"])
        #expect(result.stderr.lines == [
            "r: 2 warnings — record 1 (a): the key 'k' appears more than once; the last value is kept; "
                + "record 3 (c): the key 'k' appears more than once; the last value is kept",
            // c's k is its last value, 1: nothing has 9, and the empty filter says what there is.
            "no records — k = 9 removed all 3 records; their k: 1 (1), 2 (1), 3 (1)",
        ], "\(result)")
        // a's k is 2 (not 1), c's is 1 (not 9 or 0): filter and sort read those.
        #expect(result.stdout.lines == [
            "name,k,size", "a,2,5", "b,3,6", "c,1,",
            "name,k,size", "a,2,5",
            "name,k,size", "a,2,5", "b,3,6", "c,1,",
            "name,k", "c,1",
            "name,k,size", "a,2,5", "b,3,6", "c,1,",
            "name,k,size",
            "name,k,size", "a,2,5", "b,3,6", "c,1,",
            "name,k,size", "c,1,", "a,2,5", "b,3,6",
            #"{"name":"c","k":1}"#, #"{"name":"a","k":2,"size":5}"#, #"{"name":"b","k":3,"size":6}"#,
        ], "\(result)")
        #expect(result.status == 0, "\(result)")
    }

    @Test("an exported file holds each key once, with its last value")
    func export() throws {
        let result = try run(["load r from repeats.json", "use r", "export out.json"])
        #expect(result.status == 0, "\(result)")
        let text = home.read(home.root + "/out.json") ?? ""
        let exported = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]
        #expect(exported?.map { $0["k"] as? Int } == [2, 3, 1], "\(text)")
        #expect(text.components(separatedBy: "\"k\"").count - 1 == 3, "each record names k once: \(text)")
    }
}
