import Testing

/// The same script's answers from records in memory and from attached tables, compared one
/// by one (JSON documents, canonical); returns memory's, for the test's own exact values.
enum LinkDifferential {
    static func run(_ lines: [String], in home: TemporaryHome) throws -> PipeResult {
        try PipeRun.run(["--no-rc", "--echo", "--format", "json"], input: lines.joined(separator: "\n") + "\n",
                        environment: home.environment(), directory: home.root)
    }

    static func compare(memory: PipeResult, database: PipeResult, atLeast answers: Int) throws -> [String] {
        #expect(memory.status == database.status, "memory: \(memory)\ndatabase: \(database)")
        #expect(memory.stderr == database.stderr, "memory: \(memory.stderr)\ndatabase: \(database.stderr)")
        let expected = try JSONDocuments.split(memory.stdout).map(PostgresDifferentialTests.canonical)
        let answered = try JSONDocuments.split(database.stdout).map(PostgresDifferentialTests.canonical)
        #expect(expected.count == answered.count && expected.count >= answers,
                "\(expected.count) answers from memory, \(answered.count) from the database")
        for (index, (want, got)) in zip(expected, answered).enumerated() where want != got {
            Issue.record("answer \(index + 1) differs:\nmemory:   \(want.prefix(1500))\ndatabase: \(got.prefix(1500))")
        }
        return expected
    }
}
