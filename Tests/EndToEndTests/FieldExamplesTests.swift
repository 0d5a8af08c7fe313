import Foundation
import Testing

/// `fields` shows a glimpse of each field: its example is cut to 40 characters (and at its
/// first line break) with `…`, in every format — a 2 MB string or a 1,000-digit number was
/// printed whole.
@Suite("fields: examples are a glimpse")
struct FieldExamplesTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
        let record: [String: Any] = ["name": "short", "big": String(repeating: "x", count: 2_000_000),
                                     "lines": "line one\nline two", "exact": String(repeating: "y", count: 40)]
        var text = String(decoding: try JSONSerialization.data(withJSONObject: [record], options: [.sortedKeys]), as: UTF8.self)
        // A number of a thousand digits, which JSONSerialization cannot write.
        text = text.replacingOccurrences(of: #""exact""#, with: #""digits":\#(String(repeating: "7", count: 1000)),"exact""#)
        try home.write(text, to: "long.json")
    }

    @Test("cut with … in every format", arguments: ["table", "json", "ndjson", "csv", "tsv"])
    func cutInEveryFormat(format: String) throws {
        let result = try PipeRun.run(["--no-rc", "-c", "load long from long.json", "-c", "use long", "-c", "set format \(format)", "-c", "fields"],
                                     environment: home.environment(), directory: home.root)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.utf8.count < 2_000, "\(result.stdout.utf8.count) bytes")
        for glimpse in [String(repeating: "x", count: 40) + "…", String(repeating: "7", count: 40) + "…", "line one…",
                        String(repeating: "y", count: 40)] {
            #expect(result.stdout.contains(glimpse), "\(format): no '\(glimpse)' in \(result.stdout)")
        }
        #expect(!result.stdout.contains(String(repeating: "y", count: 40) + "…"), "40 characters are not cut")
        #expect(!result.stdout.contains(String(repeating: "x", count: 41)))
    }
}
