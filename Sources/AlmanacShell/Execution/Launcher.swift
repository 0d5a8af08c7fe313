#if canImport(Glibc)
import Glibc
#endif
import AlmanacCore
import CGlibc

/// Starts the shell in the mode the command line and standard input ask for.
public enum Launcher {
    /// How long the main thread has, after a termination signal, to end the process itself.
    static let terminationGraceMilliseconds: Int32 = 100

    /// Runs almanac and returns its exit status: 0 when every command succeeded, 1 when any failed.
    /// `checkoutDataDirectory` is the package's own `Data`, for a binary run from its build folder.
    public static func run(_ options: LaunchOptions, checkoutDataDirectory: String) -> Int32 {
        openMissingStandardDescriptors()
        LocaleSetup.ensureUTF8()
        let notifier = Notifier()
        notifier.installSignalHandlers()

        let variables = Self.environmentVariables(ShellEnvironment.variableNames + ["NO_COLOR", "TERM"])
        let environment = ShellEnvironment.resolve(
            variables, dataDirectory: options.dataDirectory,
            fallbacks: [(InstallLayout.dataFolder, .installed), (checkoutDataDirectory, .checkout)])
        let stdinIsTerminal = isatty(0) == 1
        let hasScripts = !options.scripts.isEmpty
        let interactive = stdinIsTerminal && (!hasScripts || options.interactive)
        // SIGTERM and SIGHUP (and Ctrl-C in a script) end the process within a fifth of a
        // second whatever it is doing: the main thread normally stops at its next check;
        // if it has not after this grace, the watchdog ends the process itself.
        almanac_watchdog_start(Self.terminationGraceMilliseconds)
        almanac_watchdog_interrupt_ends(interactive ? 0 : 1)
        let output = Output.standard()
        // A folder named on purpose that is not there: say so now, not as "loading" for ever.
        let dataFolderMissing = (environment.dataOrigin == .option || environment.dataOrigin == .environment)
            && !ShellEnvironment.isFolder(environment.dataDirectory)
        if dataFolderMissing {
            output.message("almanac: the data folder \(SafeText.escape(environment.dataDirectory)) does not exist "
                + "(\(environment.dataOrigin.rawValue))" + (interactive ? "; the bundled datasets will not load" : ""))
            if !interactive { return 2 }
        }
        // NO_COLOR (set and not empty), --no-color and a dumb terminal mean no colour escapes at all.
        let colorWanted = !options.noColor && variables["NO_COLOR"].map(\.isEmpty) ?? true && variables["TERM"] != "dumb"
        var settings = Settings(color: interactive && colorWanted && output.terminal.isTerminal)
        if let format = options.format { settings.format = format }
        settings.echo = options.echo

        let catalog = Catalog(preparesIndexes: interactive, loadsYieldToTyping: interactive)
        let session = Session(output: output, settings: settings, environment: environment, isInteractive: interactive,
                              catalog: catalog, notifier: notifier)
        session.verbose = options.verbose
        session.quiet = options.quiet
        let announcer = LoadAnnouncer(notifier: notifier, interactive: interactive, quiet: options.quiet, verbose: options.verbose,
                                      failuresExplained: dataFolderMissing)
        // A finished load also wakes whoever waits for it (`Session.wait(for:)`).
        catalog.observe { event in
            announcer.announce(event)
            notifier.wake()
        }
        // The prompt colours the line again: field names may be known now.
        catalog.observePreparation { _ in notifier.wake() }
        // The prompt must not wait for data: every bundled dataset loads in the background,
        // starting when the first command runs or right after the prompt is first drawn (so
        // the loading threads do not slow the drawing of the prompt itself). A script starts
        // only the datasets it names, as soon as it names them.
        for request in DefaultDatasets.requests(in: environment.dataDirectory) { catalog.register(request) }
        // A script's shaping commands are quiet unless last: see ScriptAnswer.
        let answer = ScriptAnswer()
        let executor = Executor(session: session, scriptAnswer: answer)
        let runner = ScriptRunner(executor: executor, bail: options.bail)
        var succeeded = true

        func finish(_ ok: Bool) -> Bool {
            succeeded = succeeded && ok
            return !(options.bail && !ok) && !session.shouldQuit && !session.interruption.terminationRequested
        }

        var keepGoing = true
        if !options.noStartupFile, access(environment.startupFilePath, F_OK) == 0 {
            keepGoing = finish(runFile(environment.startupFilePath, runner: runner, session: session))
        }
        // -c and -f in the order given; errors name a -c by its position: `-c:2:` is the second.
        var commandsRun = 0
        var remaining = options.scripts[...]
        while keepGoing, let first = remaining.first {
            if case let .file(path) = first {
                keepGoing = finish(runFile(path, runner: runner, session: session))
                remaining = remaining.dropFirst()
                continue
            }
            let commands = remaining.prefix { if case .command = $0 { true } else { false } }
                .compactMap { if case let .command(text) = $0 { text } else { nil } }
            keepGoing = finish(runner.run(commands, source: "-c", firstLine: commandsRun + 1))
            commandsRun += commands.count
            remaining = remaining.dropFirst(commands.count)
        }
        func finishScript() {
            if !session.interruption.terminationRequested, !answer.finish(in: session) { succeeded = false }
        }
        if keepGoing, interactive {
            finishScript()
            // A session at the prompt ends with 0 (Ctrl-D, quit); earlier script errors were shown.
            succeeded = InteractiveShell(session: session, notifier: notifier).run() == 0
        } else if keepGoing, !hasScripts || options.interactive {
            keepGoing = finish(runner.run(DescriptorLines(descriptor: 0, notifier: notifier), source: "stdin"))
            finishScript()
        } else {
            finishScript()
        }
        for message in notifier.takeMessages() where options.verbose { output.message(SafeText.escapeLines(message)) }
        output.flush()
        if let failure = output.writeFailure {
            output.message("almanac: results were lost: cannot write to standard output: \(failure.lowercased())")
            return 1
        }
        // Ended by a signal: the conventional 128 + its number (history is already on disk).
        if let signal = session.interruption.terminationSignal { return 128 + signal }
        if !interactive, session.interruption.interruptCount > 0 { return 128 + SIGINT }
        return succeeded ? 0 : 1
    }

    /// The variables named that are set: not ProcessInfo's whole environment, whose first
    /// reading decodes every variable into a dictionary (0.7 million instructions at start-up).
    static func environmentVariables(_ names: [String]) -> [String: String] {
        var variables: [String: String] = [:]
        for name in names {
            if let value = getenv(name) { variables[name] = String(cString: value) }
        }
        return variables
    }

    /// Started with 0, 1 or 2 closed (`almanac <&-`), the next file opened would take its
    /// place — the signal pipe read as standard input, results written into a data file.
    /// /dev/null opened read-only stands in: standard input is empty, and writing results
    /// fails, so their loss is still reported.
    private static func openMissingStandardDescriptors() {
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", O_RDONLY)
            if opened >= 0, opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
        }
    }

    /// A script file, read line by line as it is run (it may be a pipe or a device).
    private static func runFile(_ path: String, runner: ScriptRunner, session: Session) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            session.output.message("\(SafeText.excerpt(path)): cannot read: \(systemError())")
            return false
        }
        defer { close(descriptor) }
        return runner.run(DescriptorLines(descriptor: descriptor, notifier: session.notifier), source: path)
    }
}

import Foundation
