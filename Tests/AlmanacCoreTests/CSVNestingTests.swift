import Foundation
import Testing
@testable import AlmanacCore

/// Dotted CSV columns load as nested objects, so a flattened export of nested records loads
/// back as those records.
@Suite struct CSVNestingTests {
    let scratch = Scratch()

    @Test func dottedColumnsAreNestedObjects() throws {
        let text = "id,user.login,user.id,title,milestone.title,milestone.due.on,user2,user2.x,a..b\n"
            + "1,zoë,5000,x,v2.0,2024-01-01,u,1,q\n2,bo,5001,y,,,,,\n"
        #expect(jsonRecords(try loadFile(scratch.file("nested.csv", text))) == [
            #"{"id":1,"user":{"login":"zoë","id":5000},"title":"x","milestone":{"title":"v2.0","due":{"on":"2024-01-01"}},"user2":"u","user2.x":1,"a..b":"q"}"#,
            #"{"id":2,"user":{"login":"bo","id":5001},"title":"y"}"#,
        ])
    }

    /// Python's csv module writes the issues flattened to dotted columns (as pandas'
    /// json_normalize names them); jq says what each record was, nulls left out.
    @Test func aFlattenedExportLoadsBackNested() throws {
        let json = try GitHubIssues.file(in: scratch, count: 60)
        let script = [
            "import csv, json, sys",
            "records = json.load(open(sys.argv[1]))",
            "def flat(value, prefix=''):",
            "    if isinstance(value, dict):",
            "        out = {}",
            "        for key, inner in value.items(): out.update(flat(inner, prefix + key + '.'))",
            "        return out",
            "    return {prefix[:-1]: value}",
            "rows = [flat({k: v for k, v in r.items() if k not in ('labels', 'body')}) for r in records]",
            "names = []",
            "for row in rows: names += [n for n in row if n not in names]",
            "def cell(v): return '' if v is None else 'true' if v is True else 'false' if v is False else v",
            "out = csv.writer(sys.stdout, lineterminator='\\n')",
            "out.writerow(names)",
            "for row in rows: out.writerow([cell(row.get(n)) for n in names])",
        ].joined(separator: "\n")
        let flat = try toolOutput(["python3", "-c", script, json])
        let dataset = try loadFile(scratch.file("flat.csv", flat + "\n"))
        #expect(dataset.count == 60)
        let program = ".[] | del(.labels, .body) | with_entries(select(.value != null))"
            + " | with_entries(if (.value | type) == \"object\" then .value |= with_entries(select(.value != null)) else . end)"
        let expected = try toolOutput(["jq", "-c", program, json]).split(separator: "\n").map(String.init)
        #expect(jsonRecords(dataset) == expected)
    }
}
