import AlmanacCore
import AlmanacShell
import Testing
@testable import almanac

/// The command lines read without ArgumentParser (for a quick start) must mean exactly what
/// ArgumentParser reads from them; anything else must be left to it.
struct QuickCommandLineTests {
    static let readQuickly: [[String]] = [
        [],
        ["-c", "use stations", "-c", "count"],
        ["--data", "/tmp/data dir", "-c", "count"],
        ["-f", "a.almanac", "-c", "help", "-f", "b.almanac", "-c", "count"],
        ["--format", "json", "-c", "search моск"],
        ["--format", "ndjson", "--data", "x", "-f", "script"],
        ["--bail", "--interactive", "--no-color", "--no-rc", "--quiet", "--verbose"],
        ["--verbose", "-c", "datasets", "--bail"],
        ["-c", "", "-c", "filter name ~ \"a b\""],
        ["--echo", "-f", "a", "-c", "count", "-f", "b"],
    ]

    @Test(arguments: readQuickly)
    func commandLinesReadQuicklyMeanWhatArgumentParserReads(_ arguments: [String]) throws {
        let quick = try #require(QuickCommandLine.parse(arguments))
        let parsed = try Almanac.parse(arguments)
        #expect(quick == .launch(parsed.launchOptions(from: arguments)))
    }

    @Test func versionIsTheVersionArgumentParserPrints() throws {
        #expect(QuickCommandLine.parse(["--version"]) == .version)
        do {
            _ = try Almanac.parseAsRoot(["--version"])
            Issue.record("ArgumentParser did not stop at --version")
        } catch {
            #expect(Almanac.exitCode(for: error) == .success)
            #expect(Almanac.fullMessage(for: error) == AlmanacVersion.versionText)
        }
    }

    static let leftToArgumentParser: [[String]] = [
        ["--help"], ["-h"], ["help"], ["--version", "-c", "count"], ["--data=/tmp", "-c", "count"],
        ["-c"], ["-c", "--quiet"], ["-c", "-"], ["--format", "yaml"], ["--format", "json", "--format", "csv"],
        ["--data", "a", "--data", "b"], ["--quiet", "--quiet"], ["--generate-completion-script", "bash"],
        ["--experimental-manual-page", "x"], ["-qc", "count"], ["--", "-c"], ["count"], ["--no-colour"],
    ]

    @Test(arguments: leftToArgumentParser)
    func otherCommandLinesAreLeftToArgumentParser(_ arguments: [String]) {
        #expect(QuickCommandLine.parse(arguments) == nil)
    }
}
