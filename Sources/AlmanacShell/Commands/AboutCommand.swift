import AlmanacCore

/// `about`: the version, the data sources and their licences.
public enum AboutCommand: Command {
    public static let spec = CommandSpec(
        name: "about",
        summary: "Show the version, the data sources and their licences",
        usage: "about",
        examples: ["about"]
    )

    public static func run(_ arguments: Arguments, in session: Session) throws {
        try arguments.expect(count: 0...0)
        let output = session.output
        output.print("almanac \(AlmanacVersion.current) — an interactive shell for exploring datasets")
        output.print(session.environment.dataFolderLine)
        output.print()
        let statuses = session.catalog.statuses()
        for source in DataSource.bundled {
            let count = statuses.first { $0.name == source.dataset }?.dataset.map { " (\($0.model.summary(of: $0)))" } ?? ""
            output.print("\(source.dataset)\(count): \(source.origin) — \(source.licence)")
        }
        output.print()
        output.print("Details, formats and the messy parts of the data: \(SafeText.escape(session.environment.dataDirectory))/README.md")
    }
}
