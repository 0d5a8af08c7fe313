import Foundation
import Testing

/// almanac with standard input on a pipe, and with -c and -f: no prompt, errors named
/// `SOURCE:LINE:`, exit status 0 / 1 / 2.
@Suite("Scripting through pipes")
struct ScriptingTests {
    let home: TemporaryHome
    let environment: TestEnvironment

    init() throws {
        home = try TemporaryHome()
        environment = home.environment()
    }

    func run(_ arguments: [String] = [], input: String = "", environment: TestEnvironment? = nil) throws -> PipeResult {
        try PipeRun.run(arguments, input: input, environment: environment ?? self.environment, directory: home.root)
    }

    /// What `set NAME` prints when the format is `format`: the value alone in a table, else a
    /// document of that format (a header and the value, or an object).
    static func shown(_ value: String, setting: String = "format", in format: String? = nil) -> String {
        switch format ?? value {
        case "csv", "tsv": "\(setting)\n\(value)\n"
        case "json", "ndjson": "{\"\(setting)\":\"\(value)\"}\n"
        default: "\(value)\n"
        }
    }

    // MARK: - Exit status

    @Test("every command succeeds: exit 0, no prompt, banner or colour, nothing on stderr")
    func successExitsZero() throws {
        // Colour is allowed by the environment; a script must still have none.
        let result = try run(input: "help\nset\n", environment: environment.without("NO_COLOR"))
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(result.stdout.contains("help"), "\(result)")
        #expect(result.stdout.contains("format     table"), "\(result)")
        #expect(!result.stdout.contains("almanac>"), "no prompt in a script\n\(result)")
        #expect(!result.stdout.contains("Ctrl-D to leave"), "no banner in a script\n\(result)")
        #expect(!result.stdout.contains("\u{1B}") && !result.stderr.contains("\u{1B}"), "no escapes in a script\n\(result)")
    }

    @Test("a failing line: exit 1, `stdin:LINE:` on stderr, and the run goes on")
    func failureExitsOne() throws {
        let result = try run(input: "set format csv\nbogus\nset format\n")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr == "stdin:2:1: unknown command 'bogus' — type 'help' for the list\n", "\(result)")
        #expect(result.stdout == Self.shown("csv"), "the line after the error ran\n\(result)")
    }

    @Test("bad command-line usage exits 2 with a message", arguments: [
        ["--bogus"],
        ["--format", "xml", "-c", "set"],
        ["-c"],
    ])
    func badUsageExitsTwo(arguments: [String]) throws {
        let result = try run(arguments, input: "set\n")
        #expect(result.status == 2, "\(result)")
        #expect(!result.stderr.isEmpty, "\(result)")
        #expect(!result.stdout.contains("format     table"), "nothing ran\n\(result)")
    }

    @Test("--version and --help exit 0", arguments: ["--version", "--help"])
    func versionAndHelp(flag: String) throws {
        let result = try run([flag])
        #expect(result.status == 0, "\(result)")
        if flag == "--version" {
            #expect(result.stdout.range(of: #"^\d+\.\d+\.\d+"#, options: .regularExpression) != nil, "\(result)")
        } else {
            for option in ["-c", "-f", "--bail", "--interactive", "--no-color", "--no-rc", "--format"] {
                #expect(result.stdout.contains(option), "--help mentions \(option)\n\(result)")
            }
        }
    }

    // MARK: - Error messages and line numbers

    @Test("errors name the line they come from, counting comments and blank lines")
    func lineNumbers() throws {
        let script = """
            # a comment line
            set format csv

            hlep
            set format
            set a b c
            "unterminated
            set format json; set format
            """
        let result = try run(input: script + "\n")
        #expect(result.status == 1, "\(result)")
        let errors = result.stderr
        #expect(errors.contains("stdin:4:1: unknown command 'hlep' — did you mean 'help'?\n"), "\(result)")
        #expect(errors.contains("stdin:6:9: "), "\(result)")
        #expect(errors.contains("usage: set [NAME [VALUE]]"), "\(result)")
        #expect(errors.contains("stdin:7: unterminated double quote starting at column 1\n"), "\(result)")
        #expect(result.stderr.lines.filter { $0.hasPrefix("stdin:") }.count == 3, "three errors, one per bad line\n\(result)")
        #expect(result.stdout == Self.shown("csv") + Self.shown("json"), "\(result)")
    }

    @Test("the last line needs no newline")
    func lastLineWithoutNewline() throws {
        let result = try run(input: "set format tsv\nset format")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == Self.shown("tsv"), "\(result)")
    }

    @Test("--bail stops at the first error")
    func bailStops() throws {
        let result = try run(["--bail"], input: "set format json\nnope\nset format\nalso-bad\n")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.isEmpty, "nothing after the error ran\n\(result)")
        #expect(result.stderr == "stdin:2:1: unknown command 'nope' — type 'help' for the list\n", "\(result)")
    }

    @Test("without --bail every bad line is reported")
    func noBailReportsEveryError() throws {
        let result = try run(input: "nope\nset format\nalso-bad\n")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout == "table\n", "\(result)")
        #expect(result.stderr.lines.map { String($0.prefix(8)) } == ["stdin:1:", "stdin:3:"], "\(result)")
    }

    // MARK: - -c and -f

    @Test("-c runs each option in order and does not read standard input")
    func commandOptions() throws {
        let result = try run(["-c", "set format tsv", "-c", "set format", "-c", "set pagesize 5; set pagesize"],
                             input: "set format csv\nset format\n")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == Self.shown("tsv") + Self.shown("5", setting: "pagesize", in: "tsv"), "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
    }

    @Test("-c errors are named -c:N by the option's position")
    func commandOptionErrors() throws {
        let result = try run(["-c", "set format csv", "-c", "xyz", "-c", "set format"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr == "-c:2:1: unknown command 'xyz' — type 'help' for the list\n", "\(result)")
        #expect(result.stdout == Self.shown("csv"), "the third -c still ran\n\(result)")
    }

    @Test("--bail with -c stops at the failing option")
    func commandOptionsBail() throws {
        let result = try run(["--bail", "-c", "hlep", "-c", "set format"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr == "-c:1:1: unknown command 'hlep' — did you mean 'help'?\n", "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
    }

    @Test("-f FILE runs the file; its errors are FILE:LINE")
    func scriptFile() throws {
        let path = try home.write("""
            # setup
            set format ndjson

            set format
            frobnicate
            set format 'csv'; set format
            """, to: "scripts/setup.alm")
        let result = try run(["-f", path], input: "set format json\n")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr == "\(path):5:1: unknown command 'frobnicate' — type 'help' for the list\n", "\(result)")
        #expect(result.stdout == Self.shown("ndjson") + Self.shown("csv"), "standard input was not read\n\(result)")
    }

    @Test("-f with a relative path names the file as given")
    func scriptFileRelative() throws {
        try home.write("set format\nset a b c\n", to: "relative.alm")
        let result = try run(["-f", "relative.alm"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.hasPrefix("relative.alm:2:9: "), "\(result)")
        #expect(result.stderr.contains("usage: set [NAME [VALUE]]"), "\(result)")
        #expect(result.stdout == "table\n", "\(result)")
    }

    @Test("several -f files run in order; a missing one is an error")
    func severalFiles() throws {
        let first = try home.write("set format csv\n", to: "one.alm")
        let second = try home.write("set format\n", to: "two.alm")
        let ok = try run(["-f", first, "-f", second])
        #expect(ok.status == 0, "\(ok)")
        #expect(ok.stdout == Self.shown("csv"), "\(ok)")

        let missing = home.root + "/missing.alm"
        let failed = try run(["-f", missing, "-f", second])
        #expect(failed.status == 1, "\(failed)")
        #expect(failed.stderr.contains(missing), "\(failed)")
    }

    @Test("-c with --interactive through a pipe runs -c, then standard input, with no prompt")
    func commandThenInteractiveThroughPipe() throws {
        let result = try run(["-c", "set format csv", "--interactive"], input: "set format\nbogus\n")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout == Self.shown("csv"), "\(result)")
        #expect(result.stderr == "stdin:2:1: unknown command 'bogus' — type 'help' for the list\n", "\(result)")
        #expect(!result.stdout.contains("almanac>") && !result.stderr.contains("almanac>"), "\(result)")
    }

    @Test("--format sets the starting format")
    func formatOption() throws {
        let result = try run(["--format", "json"], input: "set format\n")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == Self.shown("json"), "\(result)")
    }

    // MARK: - The startup file

    enum Mode: String, CaseIterable, Sendable { case pipe, commandOption, scriptFile }

    private func runStartupProbe(_ mode: Mode, extra: [String] = []) throws -> PipeResult {
        switch mode {
        case .pipe:
            return try run(extra, input: "set format\n")
        case .commandOption:
            return try run(extra + ["-c", "set format"])
        case .scriptFile:
            let path = try home.write("set format\n", to: "probe.alm")
            return try run(extra + ["-f", path])
        }
    }

    @Test("the startup file runs first in pipe, -c and -f modes", arguments: Mode.allCases)
    func startupFileRuns(mode: Mode) throws {
        try home.writeStartupFile("# my settings\nset format json\n")
        let result = try runStartupProbe(mode)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == Self.shown("json"), "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
    }

    @Test("--no-rc skips the startup file", arguments: Mode.allCases)
    func noRcSkipsStartupFile(mode: Mode) throws {
        try home.writeStartupFile("set format json\nbogus\n")
        let result = try runStartupProbe(mode, extra: ["--no-rc"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "table\n", "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
    }

    @Test("an error in the startup file names the file and line, and the run goes on")
    func startupFileError() throws {
        try home.writeStartupFile("set format csv\nbogus\n")
        let result = try run(input: "set format\n")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr == "\(home.startupFilePath):2:1: unknown command 'bogus' — type 'help' for the list\n", "\(result)")
        #expect(result.stdout == Self.shown("csv"), "\(result)")
    }

    @Test("the startup file is found through HOME when XDG_CONFIG_HOME is unset")
    func startupFileUnderHome() throws {
        try home.write("set format tsv\n", to: home.home + "/.config/almanac/almanacrc")
        let result = try run(input: "set format\n", environment: environment.without("XDG_CONFIG_HOME"))
        #expect(result.stdout == Self.shown("tsv"), "\(result)")
    }

    // MARK: - History

    @Test("scripts never write history")
    func scriptsWriteNoHistory() throws {
        let path = try home.write("help\nset format csv\n", to: "script.alm")
        try home.writeStartupFile("set pagesize 10\n")
        let before = home.allFiles()
        _ = try run(input: "help\nset format json\nabout\nbogus\n")
        _ = try run(["-c", "help", "-c", "set format csv"])
        _ = try run(["-f", path])
        _ = try run(["-c", "set", "--interactive"], input: "help set\n")
        #expect(home.allFiles() == before, "no file appeared: \(home.allFiles())")
        #expect(!home.exists(home.historyPath))
    }

    enum HistoryLocation: String, CaseIterable, Sendable { case almanacHistory, xdgStateHome, home }

    @Test("`history` in a script lists the history file from its usual places", arguments: HistoryLocation.allCases)
    func historyCommandReadsFile(location: HistoryLocation) throws {
        var environment = self.environment
        let path: String
        switch location {
        case .almanacHistory:
            path = home.root + "/elsewhere/hist"
            environment = environment.with("ALMANAC_HISTORY", path)
        case .xdgStateHome:
            path = home.historyPath
        case .home:
            path = home.home + "/.local/state/almanac/history"
            environment = environment.without("XDG_STATE_HOME")
        }
        try home.write("help set\nabout\n", to: path)
        let result = try run(input: "history\nhistory 1\n", environment: environment)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.lines.map { $0.trimmingCharacters(in: .whitespaces) } == ["1  help set", "2  about", "2  about"], "\(result)")
        #expect(home.read(path) == "help set\nabout\n", "the script left the file alone")
    }

    // MARK: - The language

    @Test("`;` separates commands, `#` comments, quotes and backslashes make words", arguments: [
        ("set format csv; set format", "csv\n"),
        ("set format csv;set format", "csv\n"),
        ("set format csv ; set format # set format json", "csv\n"),
        ("# set format json", ""),
        ("set format 'json'; set format", "json\n"),
        ("set format \"tsv\"; set format", "tsv\n"),
        ("set format c\\sv; set format", "csv\n"),
        ("set format \"c\"'s'v; set format", "csv\n"),
        ("SET format ndjson; Set format", "ndjson\n"),
        (";;set format;", "table\n"),
    ])
    func language(line: String, expected: String) throws {
        let expected = expected.isEmpty ? "" : Self.shown(String(expected.dropLast()))
        let result = try run(input: line + "\n")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == expected, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
    }

    @Test("quoted or mid-word `;` and `#` are part of the word", arguments: [
        ("set format 'a;b'; set format", "'a;b'"),
        ("set format \"x # y\"; set format", "'x # y'"),
        ("set format json#x; set format", "'json#x'"),
        ("set format a\\;b; set format", "'a;b'"),
    ])
    func quotedSpecialCharacters(line: String, word: String) throws {
        let result = try run(input: line + "\nset format\n")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.hasPrefix("stdin:1:12: "), "\(result)")
        #expect(result.stderr.contains(word), "the error names the whole word \(word)\n\(result)")
        // The failing statement skipped the rest of its line; the next line ran.
        #expect(result.stdout == "table\n", "\(result)")
    }

    @Test("a failing command skips the rest of its line only")
    func failureSkipsRestOfLine() throws {
        let result = try run(input: "set format csv; nope; set format json\nset format\n")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout == Self.shown("csv"), "\(result)")
        #expect(result.stderr == "stdin:1:17: unknown command 'nope' — type 'help' for the list\n", "\(result)")
    }

    @Test("unterminated quotes are reported with their column", arguments: [
        ("set format 'csv", "unterminated single quote starting at column 12"),
        ("set format \"csv", "unterminated double quote starting at column 12"),
    ])
    func unterminatedQuote(line: String, message: String) throws {
        let result = try run(input: line + "\n")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr == "stdin:1: \(message)\n", "\(result)")
        #expect(result.stdout.isEmpty, "nothing on the line ran\n\(result)")
    }

    @Test("a wrong argument prints the usage line")
    func usageLine() throws {
        let result = try run(input: "set a b c\nhelp quit extra\n")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("usage: set [NAME [VALUE]]"), "\(result)")
        #expect(result.stderr.contains("usage: help [COMMAND|keys]"), "\(result)")
    }

    @Test("help lists the commands and explains one")
    func help() throws {
        let result = try run(input: "help\nhelp set\nHELP HISTORY\n")
        #expect(result.status == 0, "\(result)")
        for name in ["help", "about", "set", "history", "quit"] {
            #expect(result.stdout.lines.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix(name + " ") }, "help lists \(name)\n\(result)")
        }
        #expect(result.stdout.contains("usage: set [NAME [VALUE]]"), "\(result)")
        #expect(result.stdout.contains("usage: history [N]"), "\(result)")
    }

    @Test("`quit` and `exit` stop a script; later lines do not run", arguments: ["quit", "exit", "QUIT"])
    func quitStopsScript(command: String) throws {
        let result = try run(input: "set format csv\n\(command)\nset format\nbogus\n")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")

        let sameLine = try run(input: "\(command); set format\nset format\n")
        #expect(sameLine.status == 0, "\(sameLine)")
        #expect(sameLine.stdout.isEmpty, "\(sameLine)")
    }

    @Test("`quit` in -c stops the later -c options")
    func quitInCommandOption() throws {
        let result = try run(["-c", "set format csv; set format", "-c", "quit", "-c", "set format"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == Self.shown("csv"), "\(result)")
    }

    @Test("an error about one word names its column, as compilers do: the value of the wrong type, the unknown field")
    func errorsNameTheColumn() throws {
        let result = try run(input: "use countries\nfilter population > abc\nsort  nme\nfilter region = Europe and area >= '12 k'\n")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr == """
            stdin:2:21: population is a number; 'abc' is not a number
            stdin:3:7: unknown field 'nme' — did you mean 'name'?
            stdin:4:36: area is a number; '12 k' is not a number

            """, "\(result)")
    }

    @Test("Cyrillic words are reported intact")
    func cyrillicInScript() throws {
        let result = try run(input: "set Москва\nset format Париж\n")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("stdin:1:5: ") && result.stderr.contains("Москва"), "\(result)")
        #expect(result.stderr.contains("stdin:2:12: ") && result.stderr.contains("Париж"), "\(result)")
    }
}
