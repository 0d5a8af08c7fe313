import AlmanacCore
@testable import AlmanacShell

/// A session whose output is captured, with the bundled datasets loaded.
final class ShellHarness {
    let session: Session

    static let dataDirectory: String = {
        var path = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        path.removeLast(3)
        return path.joined(separator: "/") + "/Data"
    }()

    init(terminal: TerminalInfo = .pipe, load: [String] = ["countries", "species", "planets", "people", "stations"],
         settingTable: SettingTable = .standard) {
        let box = Box()
        let output = Output(terminal: terminal, errorIsTerminal: false) { stream, text in
            if stream == .output { box.out += text } else { box.err += text }
        }
        let environment = ShellEnvironment(historyPath: "/nonexistent/history", startupFilePath: "/nonexistent/rc",
                                           dataDirectory: Self.dataDirectory)
        session = Session(output: output, settings: Settings(color: false), environment: environment, isInteractive: false,
                          settingTable: settingTable)
        self.box = box
        for request in DefaultDatasets.requests(in: Self.dataDirectory) where load.contains(request.name) {
            session.catalog.load(request)
        }
    }

    private let box: Box
    private final class Box {
        var out = ""
        var err = ""
    }

    /// Runs one line; returns whether it succeeded.
    @discardableResult
    func run(_ line: String) -> Bool {
        Executor(session: session).run(line: line, at: SourceLocation(source: "test", line: 1))
    }

    /// Runs a line and returns (and clears) what it printed.
    func output(_ line: String) -> (ok: Bool, out: String, err: String) {
        box.out = ""
        box.err = ""
        let ok = run(line)
        return (ok, box.out, box.err)
    }
}
