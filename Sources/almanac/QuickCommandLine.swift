import AlmanacShell

/// The command lines almanac is usually started with, read without ArgumentParser, whose
/// parse reflects over `Almanac`'s declaration and looks up protocol conformances among the
/// thousands of the static binary: 10 of the 14 million instructions of `almanac --version`.
///
/// Only exact, unambiguous forms are read here: `--version` alone; `-c`, `-f`, `--data` and
/// `--format` each followed by a value that does not start with `-`; the long flags, each at
/// most once. Anything else (help, completion scripts, `--data=DIR`, a typo, a value that looks
/// like an option) returns nil and goes to ArgumentParser, which stays the one declaration of
/// the command line: its help, its errors, its completion scripts and its manual page.
/// `QuickCommandLineTests` checks that both read every form accepted here alike.
enum QuickCommandLine {
    enum Outcome: Equatable {
        case version
        case launch(LaunchOptions)
    }

    static func parse(_ arguments: [String]) -> Outcome? {
        if arguments == ["--version"] { return .version }
        var options = LaunchOptions()
        var seenFlags: Set<String> = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "-c", "-f", "--data", "--format":
                guard index + 1 < arguments.count else { return nil }
                let value = arguments[index + 1]
                guard !value.hasPrefix("-") else { return nil }
                switch argument {
                case "-c": options.scripts.append(.command(value))
                case "-f": options.scripts.append(.file(value))
                case "--data":
                    guard options.dataDirectory == nil else { return nil }
                    options.dataDirectory = value
                default:
                    guard options.format == nil, let format = OutputFormat.all.first(where: { $0.name == value }) else { return nil }
                    options.format = format
                }
                index += 2
                continue
            case "--bail": options.bail = true
            case "--echo": options.echo = true
            case "--interactive": options.interactive = true
            case "--no-color": options.noColor = true
            case "--no-rc": options.noStartupFile = true
            case "--quiet": options.quiet = true
            case "--verbose": options.verbose = true
            default: return nil
            }
            guard seenFlags.insert(argument).inserted else { return nil }
            index += 1
        }
        return .launch(options)
    }
}
