import Foundation
import Testing

extension Database {
    /// `script` on a bundled dataset twice, through pipes: loaded from the file almanac exported
    /// it to, and attached as the table it exported it into (`exported`). Both must succeed
    /// quietly and print the same, after `normalized` (a jsonb column keeps an object's keys in
    /// its own order). Returns the table's output.
    @discardableResult
    static func sameAnswers(_ dataset: String, table: String, in home: TemporaryHome, format: String = "csv",
                            timeout: Duration = Timeouts.pipeRun, normalized: (String) -> String = { $0 }, _ script: [String],
                            sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let (memory, database) = try runs(dataset, table: table, in: home, format: format, timeout: timeout, script)
        #expect(memory.status == 0 && memory.stderr.isEmpty, "\(memory)", sourceLocation: sourceLocation)
        #expect(database.status == 0 && database.stderr.isEmpty, "\(database)", sourceLocation: sourceLocation)
        #expect(normalized(memory.stdout) == normalized(database.stdout), "memory:\n\(memory.stdout)\ndatabase:\n\(database.stdout)",
                sourceLocation: sourceLocation)
        return database.stdout
    }

    /// `script` on a bundled dataset twice, as `sameAnswers` runs it: what each run did, for
    /// answers that also speak on standard error.
    static func runs(_ dataset: String, table: String, in home: TemporaryHome, format: String = "csv",
                     timeout: Duration = Timeouts.pipeRun, _ script: [String]) throws -> (memory: PipeResult, database: PipeResult) {
        let (file, url) = try exported(dataset, as: table, in: home)
        func run(_ source: String) throws -> PipeResult {
            try PipeRun.run(["--no-rc", "--format", format], input: (["load d from \(source)", "use d"] + script).joined(separator: "\n") + "\n",
                            environment: home.environment(), directory: home.root, timeout: timeout)
        }
        return (try run(file), try run(url))
    }
}
