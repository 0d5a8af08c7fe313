import Foundation
import Testing

/// Issue 28, as a new user meets it: files people already have — CSV, TSV, an API's answer
/// with its records under a key, records with nested objects — load and answer right. Expected
/// values come from jq and Python on the same files.
@Suite("Bring your own data: CSV, TSV, records under a key, nested objects")
struct OwnDataTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures").path

    /// Issue 28's 200 GitHub-like issues (or wrapped as `{"data": {"items": …}}`).
    func issues(wrapped: Bool = false) throws -> String {
        let text = try tool(["python3", Self.fixtures + "/github_issues.py", "200"] + (wrapped ? ["--wrapped"] : []))
        return try home.write(text, to: wrapped ? "wrapped.json" : "issues.json")
    }

    func tool(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func jq(_ program: String, _ file: String) throws -> String { try tool(["jq", "-r", program, file]) }

    /// The words of the table row that starts with `first`.
    func cells(of first: String, in output: String) -> [String] {
        let line = output.split(separator: "\n").first { $0.hasPrefix(first + " ") } ?? ""
        return line.split(separator: " ").map(String.init)
    }

    /// The numbers a command printed last (`count` prints one).
    func count(_ output: String) -> Int? { Int(output.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: ",", with: "")) }

    @Test("a CSV file loads with no format word, typed by its columns, and says so")
    func csvLoads() throws {
        let file = try home.write("name;price;in_stock;added\nbread;2,49;true;2026-11-01\n\"milk; whole\";1,05;false;2026-11-02\nwater;;TRUE;2026-11-03\n",
                                  to: "shop.csv")
        let result = try home.run(["load shop from \(file)", "use shop", "fields", "filter price > 1", "count"], options: ["--no-rc", "--verbose"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("shop: 3 records · CSV (;), 4 columns"), "\(result)")
        #expect(result.stdout.contains("price     number         2  2.49"), "\(result)")
        #expect(result.stdout.contains("in_stock  boolean        3  true"), "\(result)")
        #expect(result.stdout.hasSuffix("2\n"), "\(result)")
    }

    @Test("a malformed CSV says which line and column, in a script too")
    func malformedCSVSaysWhere() throws {
        let file = try home.write("a,b,c\n1,2,3\n4,5,6,7\n", to: "bad.csv")
        let result = try home.run(["load bad from \(file)"], options: ["--no-rc"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("bad: load failed: \(file): line 3, column 7: 4 fields where the header has 3"), "\(result)")
    }

    @Test("an NDJSON export of one record loads back as that record, not as a list inside it")
    func oneRecordNDJSONRoundTrip() throws {
        let file = home.root + "/nor.ndjson"
        _ = try home.succeed(["use countries", "search norway", "export \(file)"], options: ["--no-rc"])
        let result = try home.run(["load n from \(file)", "use n", "columns name, capital", "page"], options: ["--no-rc"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        #expect(result.stdout == "#  name    capital\n─  ──────  ───────\n1  Norway  Oslo\n", "\(result)")
    }

    @Test("almanac's own CSV and TSV exports load back with the same answers", arguments: ["csv", "tsv"])
    func exportsRoundTrip(format: String) throws {
        let file = home.root + "/countries.\(format)"
        _ = try home.succeed(["use countries", "export \(file)"], options: ["--no-rc"])
        // Lists are written as JSON text and read back as lists (3, 1 and 24 by Python on countries.json).
        let lists = ["filter borders = NOR", "count", "filter clear", "filter callingCodes = 57", "count", "filter clear",
                     "filter languages.iso639_1 = es", "count", "filter clear"]
        let questions = ["count", "group region sum population", "describe population, area, gini, region"] + lists + ["show Norway"]
        let original = try home.run(["use countries"] + questions, options: ["--no-rc"], format: "ndjson")
        let loaded = try home.run(["load back from \(file)", "use back"] + questions, options: ["--no-rc"], format: "ndjson")
        #expect(original.status == 0 && loaded.status == 0, "\(original)\n\(loaded)")
        // The count, the groups and the profiles are the same (a cell holds no null: an empty
        // one is absent), the record's scalar fields too.
        let answers = original.stdout.replacingOccurrences(of: " or null", with: "").split(separator: "\n")
        let again = loaded.stdout.split(separator: "\n")
        #expect(answers.dropLast() == again.dropLast(), "\(original)\n\(loaded)")
        #expect(again.suffix(4).dropLast() == [#"{"count":3}"#, #"{"count":1}"#, #"{"count":24}"#], "\(loaded)")
        let originalRecord = try JSONSerialization.jsonObject(with: Data((answers.last ?? "").utf8)) as? [String: Any] ?? [:]
        let loadedRecord = try JSONSerialization.jsonObject(with: Data((again.last ?? "").utf8)) as? [String: Any] ?? [:]
        #expect(originalRecord.count > 10)
        // Every field, lists and nested objects too (Norway has no null).
        func canonical(_ value: Any?) throws -> String {
            guard let value else { return "missing" }
            let data = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
            return String(decoding: data, as: UTF8.self)
        }
        for (key, value) in originalRecord where !(value is NSNull) {
            #expect(try canonical(loadedRecord[key]) == canonical(value), "\(key)")
        }
    }

    @Test("lists and nested objects exported to CSV or TSV load back as lists and objects", arguments: ["csv", "tsv"])
    func listsRoundTrip(format: String) throws {
        let json = try home.write("""
            [{"id": 1, "name": "Ann", "tags": ["red", "blue"], "scores": [3, 7], "langs": [{"code": "es", "name": "Spanish"}, {"code": "en", "name": "English"}],
              "user": {"login": "ann", "roles": ["admin"]}},
             {"id": 2, "name": "Bo", "tags": [], "scores": [10], "langs": [{"code": "fr", "name": "French"}], "user": {"login": "bo", "roles": []}},
             {"id": 3, "name": "Cy", "tags": ["blue"], "scores": [], "langs": [], "user": {"login": "cy", "roles": ["dev", "admin"]}, "note": "[draft]"}]
            """, to: "crew.json")
        let file = home.root + "/crew.\(format)"
        _ = try home.succeed(["load crew from \(json)", "use crew", "export \(file)"], options: ["--no-rc"])
        let questions = ["filter tags = blue", "count", "filter clear", "filter scores > 5", "count", "filter clear",
                         "filter langs.code = es", "count", "filter clear", "filter user.roles = admin", "count", "filter clear",
                         "filter count(tags) = 0", "count", "filter clear", "filter note = '[draft]'", "count", "filter clear",
                         "filter name = Ann"]
        let original = try home.succeed(["load crew from \(json)", "use crew"] + questions, options: ["--no-rc"], format: "ndjson")
        let loaded = try home.succeed(["load back from \(file)", "use back"] + questions, options: ["--no-rc"], format: "ndjson")
        // Counted by hand from the records above; `[draft]` is no JSON and stays text.
        let counts = [2, 2, 1, 2, 1, 1].map { #"{"count":\#($0)}"# }
        let ann = #"{"id":1,"name":"Ann","tags":["red","blue"],"scores":[3,7],"langs":[{"code":"es","name":"Spanish"},{"code":"en","name":"English"}],"#
            + #""user":{"login":"ann","roles":["admin"]}}"#
        #expect(original.split(separator: "\n").map(String.init) == counts + [ann], "\(original)")
        #expect(loaded == original, "\(loaded)")
    }

    @Test("an API's answer with its records under a key loads and says where they were")
    func recordsUnderAKey() throws {
        let file = try issues(wrapped: true)
        let found = try home.run(["load w from \(file)", "use w", "count"], options: ["--no-rc", "--verbose"])
        #expect(found.stdout.contains("w: \(try jq(".data.items | length", file)) records from data.items"), "\(found)")
        let chosen = try home.run(["load links from \(file) at meta.links", "use links", "count"], options: ["--no-rc"])
        #expect(count(chosen.stdout) == Int(try jq(".meta.links | length", file)), "\(chosen)")
    }

    @Test("nested objects: fields, group and describe count each record once")
    func nestedObjectsAreValues() throws {
        let file = try issues()
        let withAssignee = try jq("[.[] | select(.assignee != null)] | length", file)
        let result = try home.run(["load gh from \(file)", "use gh", "fields", "group milestone"], options: ["--no-rc"])
        #expect(result.status == 0, "\(result)")
        #expect(cells(of: "assignee", in: result.stdout).prefix(5) == ["assignee", "object", "or", "null", withAssignee], "\(result)")
        #expect(cells(of: "assignee.login", in: result.stdout).prefix(3) == ["assignee.login", "text", withAssignee], "\(result)")
        // Each milestone's records, by its title; the shares add up to 100%.
        let groups = try home.run(["load gh from \(file)", "use gh", "group milestone"], options: ["--no-rc"], format: "json")
        let rows = try JSONSerialization.jsonObject(with: Data(groups.stdout.utf8)) as? [[String: Any]] ?? []
        let counted = Dictionary(uniqueKeysWithValues: rows.map { ("\($0["milestone"] ?? "")", $0["count"] as? Int ?? -1) })
        let expected = try jq(#"group_by(.milestone.title) | map("\(.[0].milestone.title // "<null>") \(length)") | .[]"#, file)
            .split(separator: "\n").map { $0.split(separator: " ") }
        for pair in expected {
            let title = pair[0] == "<null>" ? "<null>" : String(pair[0])
            #expect(counted.first { $0.key == title || (title == "<null>" && ($0.key == "<NSNull>" || $0.key.isEmpty)) }?.value == Int(pair[1]),
                    "\(title): \(groups.stdout)")
        }
        #expect(rows.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == 200)
        let described = try home.run(["load gh from \(file)", "use gh", "describe assignee"], options: ["--no-rc"])
        #expect(cells(of: "assignee", in: described.stdout).prefix(6) == ["assignee", "object", "or", "null", withAssignee, String(200 - Int(withAssignee)!)],
                "\(described)")
        let top = try jq(#"[.[] | select(.assignee != null) | .assignee.login] | group_by(.) | map([length, .[0]]) | sort_by(-.[0], .[1]) | .[0] | "\(.[1]) \(.[0])""#, file)
        #expect(described.stdout.contains(top), "\(described)")
    }

    @Test("show finds a record by its id, and details nested objects as a tree")
    func showByIdAsATree() throws {
        let file = try issues()
        let result = try home.run(["load gh from \(file)", "use gh", "show 1000013"], options: ["--no-rc"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix(try jq(".[] | select(.id == 1000013) | .title", file) + "\n"), "\(result)")
        let login = try jq(".[] | select(.id == 1000013) | .user.login", file)
        #expect(result.stdout.contains("\n  user\n    login       \(login)\n"), "\(result)")
        let firstLabel = try jq(".[] | select(.id == 1000013) | .labels[0].name // empty", file)
        if !firstLabel.isEmpty { #expect(result.stdout.contains("\n  labels\n    [1]\n      name      \(firstLabel)\n"), "\(result)") }
        // No section for what the record lacks.
        if try jq(".[] | select(.id == 1000013) | .assignee", file) == "null" { #expect(!result.stdout.contains("\n  assignee\n")) }
    }

    @Test("default columns name nested objects by what names them")
    func readableDefaultColumns() throws {
        let file = try issues()
        let result = try home.run(["load gh from \(file)", "use gh", "page"], options: ["--no-rc"])
        let header = result.stdout.split(separator: "\n").first ?? ""
        #expect(header.contains("user.login") && header.contains("assignee.login") && !header.contains(" user "), "\(result)")
        #expect(result.stdout.contains("  " + (try jq(".[0].user.login", file)) + " "), "\(result)")
    }

    @Test("a chosen object column reads as its name in a table and is written whole as JSON")
    func chosenObjectColumns() throws {
        let file = try issues()
        let table = try home.run(["load gh from \(file)", "use gh", "set pagesize 1", "columns title, user, labels"], options: ["--no-rc"])
        let labels = try jq(#"[.[0].labels[].name] | join(", ")"#, file)
        #expect(table.stdout.contains("  " + (try jq(".[0].user.login", file)) + "  ") && (labels.isEmpty || table.stdout.contains(labels)), "\(table)")
        let json = try home.run(["load gh from \(file)", "use gh", "set pagesize 1", "columns title, user"], options: ["--no-rc"], format: "ndjson")
        let record = try JSONSerialization.jsonObject(with: Data((json.stdout.split(separator: "\n").last ?? "").utf8)) as? [String: Any]
        #expect((record?["user"] as? [String: Any])?["login"] as? String == (try jq(".[0].user.login", file)), "\(json)")
    }

    @Test("filter milestone.title reaches inside a nested object")
    func filterReachesInside() throws {
        let file = try issues()
        let result = try home.run(["load gh from \(file)", "use gh", "filter milestone.title = v2.0", "count"], options: ["--no-rc"])
        #expect(count(result.stdout.split(separator: "\n").last.map(String.init) ?? "") == Int(try jq(#"[.[] | select(.milestone.title == "v2.0")] | length"#, file)), "\(result)")
    }

    @Test("filter milestone = null is true only when the milestone itself is null ")
    func nullMeansTheFieldItself() throws {
        let file = try issues()
        let result = try home.run(["load gh from \(file)", "use gh", "filter milestone = null", "count"], options: ["--no-rc"])
        let expected = Int(try jq("[.[] | select(.milestone == null)] | length", file))
        #expect(count(result.stdout.split(separator: "\n").last.map(String.init) ?? "") == expected, "\(result)")
    }
}
