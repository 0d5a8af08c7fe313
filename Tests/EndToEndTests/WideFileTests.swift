import Foundation
import Testing

/// A file of 20,000 columns loads, counts and exports in a few seconds: the layout's and the
/// CSV export's bookkeeping per column used to search every column so far (load 5 s; export
/// of a 40,000-column file over nine minutes). The export is the file itself, byte for byte.
@Suite("Wide files")
struct WideFileTests {
    let home: TemporaryHome
    static let columns = 20_000
    static let text: String = {
        var lines = [(0..<columns).map { "c\($0)" }.joined(separator: ",")]
        for row in 1...3 { lines.append((0..<columns).map { String($0 * row) }.joined(separator: ",")) }
        return lines.joined(separator: "\n") + "\n"
    }()

    init() throws {
        home = try TemporaryHome()
        try home.write(Self.text, to: "wide.csv")
    }

    @Test("20,000 columns: loaded, counted and exported back as the same bytes, well inside the timeout")
    func loadsAndExportsWhole() throws {
        let result = try PipeRun.run(["--no-rc", "-c", "load w from wide.csv", "-c", "use w", "-c", "count", "-c", "export back.csv"],
                                     environment: home.environment(), directory: home.root, timeout: .seconds(60))
        #expect(result.status == 0 && result.stdout == "3\n", "\(result)")
        let back = try String(contentsOfFile: home.root + "/back.csv", encoding: .utf8)
        #expect(back == Self.text)
    }
}
