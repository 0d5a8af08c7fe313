import Testing

/// almanac run through pipes in a temporary home with its commands as `-c` arguments: what
/// most end-to-end suites do, written once.
extension TemporaryHome {
    /// almanac with `options` (and `--format FORMAT` when given), then each of `commands` as a `-c`.
    func run(_ commands: [String], options: [String] = [], format: String? = nil, directory: String? = nil) throws -> PipeResult {
        var arguments = options
        if let format { arguments += ["--format", format] }
        for command in commands { arguments += ["-c", command] }
        return try PipeRun.run(arguments, environment: environment(), directory: directory ?? root)
    }

    /// The same, expecting exit 0 and nothing on standard error; what it printed.
    func succeed(_ commands: [String], options: [String] = [], format: String? = nil,
                 sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try run(commands, options: options, format: format)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)", sourceLocation: sourceLocation)
        return result.stdout
    }
}
