import AlmanacCore
import AlmanacShell
import ArgumentParser

#if canImport(Glibc)
import Glibc
#endif

/// The command line. Everything else lives in AlmanacShell; this only parses and hands over.
@main
struct Almanac: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "almanac",
        abstract: "An interactive shell for exploring the world's countries, Star Wars species and Russian stations.",
        discussion: """
        Without -c or -f, almanac opens a prompt when standard input is a terminal and otherwise \
        runs the lines piped into it. The startup file $XDG_CONFIG_HOME/almanac/almanacrc runs first; \
        -c and -f then run in the order given. In a script, commands that shape the results (use, \
        search, filter, sort, columns, limit, back, set) print nothing unless they are the script's \
        last; commands that answer (page, count, show, group…) print as at the prompt.
        """,
        version: AlmanacVersion.versionText
    )

    @Option(name: .customShort("c"), help: ArgumentHelp("Run COMMANDS and exit (repeatable).", valueName: "commands"))
    var commands: [String] = []

    @Option(name: .customShort("f"), help: ArgumentHelp("Run the commands in FILE and exit (repeatable).", valueName: "file"),
            completion: .file())
    var files: [String] = []

    @Option(help: ArgumentHelp("Output format.", valueName: "format"))
    var format: OutputFormat?

    @Option(help: ArgumentHelp("Folder with the datasets (default: $ALMANAC_DATA, else the installed data, else the checkout's Data).", valueName: "dir"),
            completion: .directory)
    var data: String?

    @Flag(help: "Stop at the first command that fails.")
    var bail = false

    @Flag(help: "In a script, list the results after every command that shapes them, not only the last.")
    var echo = false

    @Flag(help: "Open the prompt after running -c and -f.")
    var interactive = false

    @Flag(help: "Never use colour (also: NO_COLOR in the environment).")
    var noColor = false

    @Flag(help: "Skip the startup file.")
    var noRc = false

    @Flag(help: "Print no banner or load summaries.")
    var quiet = false

    @Flag(help: "Print load summaries in scripts too.")
    var verbose = false

    /// `make man`: the page generate-manual made from this declaration, completed (ManualPage).
    @Option(name: .customLong("experimental-manual-page"), help: .private)
    var generatedManualPage: String?

    func run() throws {
        if let generatedManualPage {
            Glibc.exit(ManualPage.run(generatedPath: generatedManualPage, commandLine: Self._dumpHelp()))
        }
        Glibc.exit(Launcher.run(launchOptions(from: Array(CommandLine.arguments.dropFirst())), checkoutDataDirectory: Self.packageDataDirectory))
    }

    /// What the shell is asked to do. `arguments`: the command line this was parsed from, for
    /// the order of -c and -f, which ArgumentParser keeps only within each.
    func launchOptions(from arguments: [String]) -> LaunchOptions {
        var options = LaunchOptions()
        options.scripts = Self.scripts(commands: commands, files: files, in: arguments)
        options.format = format
        options.dataDirectory = data
        options.bail = bail
        options.echo = echo
        options.interactive = interactive
        options.noColor = noColor
        options.noStartupFile = noRc
        options.quiet = quiet
        options.verbose = verbose
        return options
    }

    /// The -c and -f values in the order `arguments` gives them (`-c X`, `-cX`, `-c=X`); if the
    /// arguments cannot be matched to the parsed values, every -c before every -f.
    static func scripts(commands: [String], files: [String], in arguments: [String]) -> [ScriptSource] {
        var kinds: [Character] = []
        var index = 0
        while index < arguments.count, arguments[index] != "--" {
            let argument = arguments[index]
            if argument == "-c" || argument == "-f" {
                kinds.append(argument.last!)
                index += 1
            } else if argument.hasPrefix("-c") || argument.hasPrefix("-f") {
                kinds.append(argument.dropFirst().first!)
            } else if ["--format", "--data", "--experimental-manual-page"].contains(argument) {
                index += 1
            }
            index += 1
        }
        var (nextCommand, nextFile) = (commands.makeIterator(), files.makeIterator())
        guard kinds.count(where: { $0 == "c" }) == commands.count, kinds.count(where: { $0 == "f" }) == files.count else {
            return commands.map(ScriptSource.command) + files.map(ScriptSource.file)
        }
        return kinds.map { $0 == "c" ? .command(nextCommand.next()!) : .file(nextFile.next()!) }
    }

    /// `Data` beside Package.swift, found from this file's path at build time.
    static var packageDataDirectory: String {
        // By bytes: splitting and joining the path's parts cost a third of a million
        // instructions at every start (the generic code's metadata made at run time).
        let file = #filePath
        let suffix = "Sources/almanac/Almanac.swift"
        guard file.utf8.count > suffix.utf8.count, file.hasSuffix("/" + suffix) else {
            var path = file.split(separator: "/", omittingEmptySubsequences: false)
            path.removeLast(min(3, path.count))
            return path.joined(separator: "/") + "/Data"
        }
        return String(decoding: file.utf8.dropLast(suffix.utf8.count), as: UTF8.self) + "Data"
    }

    /// Bad usage exits 2, as shells do; ArgumentParser's own default would be 64.
    static func main() {
        FreedMemory.keepWorkingBuffers()
        // The usual command lines (plain `almanac`, `-c …`, `--version`) are read without the
        // parser, which is most of the start-up's instructions (see QuickCommandLine).
        switch QuickCommandLine.parse(Array(CommandLine.arguments.dropFirst())) {
        case .version?:
            _ = FileDescriptorWriter.write(AlmanacVersion.versionText + "\n", to: 1)
            Glibc.exit(0)
        case let .launch(options)?:
            Glibc.exit(Launcher.run(options, checkoutDataDirectory: packageDataDirectory))
        case nil:
            break
        }
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                Glibc.exit(0)
            }
            FileDescriptorWriter.write(fullMessage(for: error) + "\n", to: 2)
            Glibc.exit(2)
        }
    }
}

extension OutputFormat: ExpressibleByArgument {
    public init?(argument: String) {
        guard let format = OutputFormat.named(argument) else { return nil }
        self = format
    }

    public static var allValueStrings: [String] { all.map(\.name) }
    /// Shell completions offer the formats (ArgumentParser lists only CaseIterable values itself).
    public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}
