import Foundation
import Testing

/// The shell completion scripts committed in completions/ must be what the binary generates.
@Suite("Committed completion scripts")
struct CompletionScriptTests {
    @Test("completions/ matches --generate-completion-script", arguments: [
        ("bash", "almanac.bash"),
        ("zsh", "_almanac"),
        ("fish", "almanac.fish"),
    ])
    func committedScriptIsCurrent(shell: String, file: String) throws {
        let home = try TemporaryHome()
        let generated = try PipeRun.run(["--generate-completion-script", shell], environment: home.environment())
        #expect(generated.status == 0, "\(generated)")
        #expect(!generated.stdout.isEmpty, "\(generated)")
        let path = PackageRoot.path + "/completions/" + file
        guard let committed = home.read(path) else {
            Issue.record("completions/\(file) is missing: run `make completions` and commit the result")
            return
        }
        // Compared as a whole, reported briefly: the scripts are long.
        let matches = committed == generated.stdout
        #expect(matches, """
            completions/\(file) differs from `almanac --generate-completion-script \(shell)` \
            (first difference at line \(committed.firstDifferentLine(from: generated.stdout)?.number ?? 0)): \
            run `make completions` and commit the result
            """)
    }
}
