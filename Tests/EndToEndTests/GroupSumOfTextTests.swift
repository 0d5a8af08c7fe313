import Foundation
import PostgresCluster
import Testing

/// sum and avg add numbers: of a text field they were a blank column in memory and on a table;
/// now both say which field is text, and the script fails.
@Suite("group: sum or avg of text is an error naming the field, in memory and on a table")
struct GroupSumOfTextTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    func run(_ source: String, _ command: String) throws -> PipeResult {
        try PipeRun.run(["--no-rc", "-c", "load d from \(source)", "-c", "use d", "-c", command],
                        environment: home.environment(), directory: home.root)
    }

    @Test func textIsNamedOnBothEngines() throws {
        let (file, url) = try Database.exported("countries", as: "sum_of_text", in: home)
        for source in [file, url] {
            let avg = try run(source, "group region avg(name)")
            #expect(avg.status == 1 && avg.stdout.isEmpty, "\(source): \(avg)")
            #expect(avg.stderr == "-c:3: 'name' is text; avg needs numbers (count, distinct, min and max read any value)\n", "\(source)")
            let sum = try run(source, "group region sum capital")
            #expect(sum.stderr == "-c:3: 'capital' is text; sum needs numbers (count, distinct, min and max read any value)\n", "\(source)")
            // Numbers still add, and min reads text.
            let area = try run(source, "group region avg(area), min(name)")
            #expect(area.status == 0 && area.stderr.isEmpty, "\(source): \(area)")
        }
    }
}
