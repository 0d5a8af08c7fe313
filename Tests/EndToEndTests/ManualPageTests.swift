import Foundation
import Testing

/// man/almanac.1 is committed, made by `make man` from the command line's declaration and the
/// command table; it must say what the binary's help says, and render.
@Suite("Manual page")
struct ManualPageTests {
    static let committedPath = PackageRoot.path + "/man/almanac.1"

    /// One command as `help NAME` describes it.
    struct CommandHelp {
        var name: String
        var usage: String
        var examples: [String]
    }

    /// Every command `help` lists, with the usage and examples `help NAME` gives.
    func commandsFromHelp(_ home: TemporaryHome) throws -> [CommandHelp] {
        let list = try PipeRun.run(["-c", "help"], environment: home.environment())
        #expect(list.status == 0, "\(list)")
        let names = list.stdout.lines.filter { $0.hasPrefix("  ") }.compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(names.count > 10 && names.contains("filter"), "cannot read the command list from help:\n\(list.stdout)")
        return try names.map { name in
            let help = try PipeRun.run(["-c", "help \(name)"], environment: home.environment())
            let lines = help.stdout.lines
            let usage = lines.first { $0.hasPrefix("usage: ") }.map { String($0.dropFirst("usage: ".count)) }
            let examples = lines.drop { $0 != "Examples:" }.dropFirst().filter { $0.hasPrefix("  ") }.map { String($0.dropFirst(2)) }
            return CommandHelp(name: name, usage: try #require(usage, "help \(name) printed no usage:\n\(help)"), examples: examples)
        }
    }

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

    @Test("man -l renders the installed page with every command's syntax and examples, and the sections around them")
    func installedPageRendersEveryCommand() throws {
        let install = try Installation()
        let page = install.root + "/share/man/man1/almanac.1"
        let rendered = try ShellCommand.run("man -l \(ShellCommand.quote(page))",
                                            environment: install.home.environment().with("LC_ALL", "C.UTF-8").with("MANWIDTH", "250"),
                                            directory: install.home.root)
        guard rendered.status == 0 else {
            Issue.record("man -l failed (\(rendered.status)): \(rendered.stderr) — make test installs man-db and groff-base (scripts/install-deps --tests)")
            return
        }
        let text = rendered.stdout
        for command in try commandsFromHelp(install.home) {
            #expect(text.lines.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix(command.usage) },
                    "the page does not show `\(command.usage)`")
            #expect(!command.examples.isEmpty, "help \(command.name) gives no example")
            for example in command.examples {
                #expect(text.lines.contains { $0.trimmingCharacters(in: .whitespaces) == example },
                        "the page does not show the example `\(example)` of \(command.name)")
            }
        }
        let help = try PipeRun.run(["--help"], environment: install.home.environment())
        for option in ["--format", "--data", "--bail", "--interactive", "--no-color", "--no-rc", "--quiet", "--verbose"] {
            #expect(help.stdout.contains(option) && text.contains(option), "\(option) is not on the page")
        }
        for section in ["SYNOPSIS", "DESCRIPTION", "COMMANDS", "KEYS AT THE PROMPT", "ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES"] {
            #expect(text.lines.contains(section), "no \(section) section")
        }
        for variable in ["ALMANAC_DATA", "ALMANAC_HISTORY", "ALMANAC_PAGER", "PAGER", "NO_COLOR"] {
            #expect(text.contains(variable), "\(variable) is not in ENVIRONMENT")
        }
        for key in ["TAB", "Ctrl-R", "Ctrl-C", "Ctrl-D"] {
            #expect(text.lines.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix(key) }, "the key \(key) is not listed")
        }
    }
}
