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

    static let formats = ["table", "expanded", "json", "ndjson", "csv", "tsv", "markdown"]

    /// What bash's completion function offers for the words typed so far (the last one being completed).
    static func bashCompletions(_ words: [String]) throws -> [String] {
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let script = """
            source '\(PackageRoot.path)/completions/almanac.bash'
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
            _almanac almanac "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["--norc", "-c", script]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test("bash offers --format's values: every format, and the ones a prefix starts")
    func bashOffersFormats() throws {
        #expect(try Self.bashCompletions(["almanac", "--format", ""]) == Self.formats)
        #expect(try Self.bashCompletions(["almanac", "--format", "j"]) == ["json"])
        #expect(try Self.bashCompletions(["almanac", "-c", "use countries", "--format", "ts"]) == ["tsv"])
    }

    @Test("zsh and fish offer --format's values too", arguments: ["_almanac", "almanac.fish"])
    func otherShellsOfferFormats(_ file: String) throws {
        let script = try String(contentsOfFile: PackageRoot.path + "/completions/" + file, encoding: .utf8)
        let offered = file == "_almanac"
            ? "___format=(\(Self.formats.map { "'\($0)'" }.joined(separator: " ")))"
            : "-rfka '\(Self.formats.joined(separator: " "))'"
        let line = script.split(separator: "\n").first { $0.contains(file == "_almanac" ? "___format=(" : "-l 'format'") } ?? ""
        #expect(line.contains(offered), "\(line)")
    }
}
