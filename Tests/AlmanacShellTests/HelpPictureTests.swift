import Testing
@testable import AlmanacShell

/// A command's help may show a picture of its output: a line `  DATASET> COMMAND` and what it
/// prints, indented two spaces. The picture must be what the command prints today.
@Suite struct HelpPictureTests {
    @Test func everyPictureInHelpIsTheCommandsRealOutput() throws {
        var pictures = 0
        for command in CommandTable.standard.commands {
            let lines = command.spec.discussion.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard let start = lines.firstIndex(where: { $0.hasPrefix("  ") && $0.contains("> ") }) else { continue }
            let prompt = lines[start].dropFirst(2)
            let dataset = String(prompt[..<prompt.range(of: "> ")!.lowerBound])
            let line = String(prompt[prompt.range(of: "> ")!.upperBound...])
            let shown = lines[(start + 1)...].map { $0.hasPrefix("  ") ? String($0.dropFirst(2)) : $0 }
            let harness = ShellHarness(load: [dataset])
            #expect(harness.run("use \(dataset)"))
            let (ok, out, err) = harness.output(line)
            #expect(ok && err.isEmpty, "\(command.spec.name): \(err)")
            #expect(out.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) == shown,
                    "help \(command.spec.name) shows what `\(line)` prints now:\n\(out)")
            pictures += 1
        }
        #expect(pictures >= 3)
    }

    /// README's section "Pictures" holds blocks of `DATASET> COMMAND` and what it prints.
    @Test func everyPictureInTheReadmeIsTheCommandsRealOutput() throws {
        let readme = try String(contentsOfFile: ShellHarness.dataDirectory.replacingOccurrences(of: "/Data", with: "/README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## Pictures\n").dropFirst().first?.components(separatedBy: "\n## ").first)
        let blocks = section.components(separatedBy: "```text\n").dropFirst().map { $0.components(separatedBy: "\n```").first ?? "" }
        #expect(blocks.count == 3)
        for block in blocks {
            let lines = block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let prompt = try #require(lines.first?.range(of: "> "))
            let dataset = String(lines[0][..<prompt.lowerBound])
            let harness = ShellHarness(load: [dataset])
            #expect(harness.run("use \(dataset)"))
            let (ok, out, err) = harness.output(String(lines[0][prompt.upperBound...]))
            #expect(ok && err.isEmpty, "\(err)")
            #expect(out == lines.dropFirst().joined(separator: "\n") + "\n", "README shows what `\(lines[0])` prints now:\n\(out)")
        }
    }
}
