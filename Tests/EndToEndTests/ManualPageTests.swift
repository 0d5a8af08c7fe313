import Foundation
import Testing

/// man/almanac.1 is committed, made by `make man` from the command line's declaration and the
/// command table; it must say what the binary's help says, and render.
@Suite("Manual page")
struct ManualPageTests {
    static let committedPath = PackageRoot.path + "/man/almanac.1"

    @Test("man/almanac.1 is what `make man` makes from the current binary")
    func committedPageIsCurrent() throws {
        let home = try TemporaryHome()
        guard let committed = home.read(Self.committedPath) else {
            Issue.record("man/almanac.1 is missing: run `make man` and commit the result")
            return
        }
        // Rebuilding a current page changes nothing; a changed command table changes the
        // sections made from it, a changed command line the fingerprint in the page's comment.
        let rebuilt = try PipeRun.run(["--experimental-manual-page", Self.committedPath], environment: home.environment())
        #expect(rebuilt.status == 0, "\(rebuilt)")
        guard let (line, old, new) = committed.firstDifferentLine(from: rebuilt.stdout) else { return }
        let what = old.contains("fingerprint") ? "the command-line options changed" : "the commands or the page's other sections changed"
        Issue.record("""
            man/almanac.1 is out of date with the binary's help (\(what)); regenerate it with `make man` \
            and commit the result. First difference at line \(line):
              committed: \(old)
              now:       \(new)
            """)
    }
}
