import Foundation
import Testing

/// A script saved by an editor that starts files with a UTF-8 byte order mark runs as the
/// same script without it: the mark is not part of the first command.
@Suite("A byte order mark before a script")
struct ByteOrderMarkScriptTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    static let script = "\u{FEFF}use countries\ncount\n"

    @Test("-f FILE skips it")
    func scriptFile() throws {
        let path = try home.write(Self.script, to: "bom.alm")
        let result = try PipeRun.run(["--no-rc", "-f", path], environment: home.environment(), directory: home.root)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        #expect(result.stdout == "250\n", "\(result)")
    }

    @Test("standard input skips it")
    func standardInput() throws {
        let result = try PipeRun.run(["--no-rc"], input: Self.script, environment: home.environment(), directory: home.root)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        #expect(result.stdout == "250\n", "\(result)")
    }
}
