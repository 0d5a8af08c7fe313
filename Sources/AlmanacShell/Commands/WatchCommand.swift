#if canImport(Glibc)
import Glibc
#endif
import AlmanacCore
import Foundation

/// `watch SECONDS [--count N] COMMAND…` runs an answering command again every SECONDS (psql's
/// `\watch`): at the prompt its answer is redrawn in place, with what changed since the last
/// run, until Ctrl-C; in a script it runs N times and prints each answer. A dataset loaded
/// from a URL, or from a file that changed, is loaded again before each run; an attached
/// table is asked again each time.
public enum WatchCommand: Command {
    static let seconds = Parameter("SECONDS", .text(.nothing))
    static let count = Parameter("N", .number(1...Int.max, or: []), .optional, after: "--count")
    static let command = Parameter("COMMAND", .text(.watchedCommand), .words)

    public static let spec = CommandSpec(
        name: "watch",
        summary: "Run a command again every few seconds, showing what changed (Ctrl-C stops)",
        parameters: [seconds, count, command],
        examples: ["watch 5 count", "watch 2 group region", "watch 10 --count 3 count", "watch 1 page"],
        discussion: """
        COMMAND is one that answers (count, page, group, show, describe…). At the prompt the \
        answer is drawn again in place, under a line with the time and the run's number, and \
        followed by what changed since the last run: rows new (+) and removed (-), numbers \
        changed (~), with the difference. Ctrl-C stops and leaves the last answer on the screen. \
        Before each run, datasets in use loaded from an http(s) URL are loaded again, and those \
        from a file whose size or time changed; an attached PostgreSQL table is asked again. \
        In a script each answer is printed in turn, --count N times (required there).
        """
    )

    /// Commands that write, steer or need a person: not for watching.
    static let unwatchable: Set<String> = ["watch", "edit", "export", "save", "load", "quit", "history", "help"]

    /// Whether watch runs the command: one that answers, and none of those.
    static func watches(_ spec: CommandSpec) -> Bool { spec.role == .answers && !unwatchable.contains(spec.name) }

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        let parsed = try arguments.parse()
        guard let first = parsed[Self.seconds].first?.word else { throw arguments.usageError() }
        guard let seconds = Double(first.text), seconds.isFinite, (0.1...86400).contains(seconds) else {
            throw arguments.usageError("SECONDS is a number from 0.1 to 86400, not '\(SafeText.excerpt(first.text))'", at: first)
        }
        let count = parsed[Self.count].first?.number
        let rest = parsed[Self.command].map(\.word)
        guard let name = rest.first else { throw arguments.usageError() }
        let command = try session.commands.resolve(name)
        guard watches(command.spec) else {
            throw ShellError.at(column: name.column, width: TextWidth.of(name.text),
                                .invalid("watch runs a command that answers (count, page, group, show…), not \(command.spec.name)"))
        }
        let display = session.isInteractive && session.output.terminal.isTerminal
        if count == nil, !session.isInteractive {
            throw arguments.usageError("in a script, say how many runs: watch \(first.text) --count N \(name.text)…")
        }
        let watched = Arguments(Array(rest.dropFirst()), spec: command.spec)
        var sources = WatchedSources(session: session)
        var screen = WatchScreen(session: session, seconds: first.text, command: CommandLog.line(command.spec.name, Array(rest.dropFirst())))
        var run = 0
        while true {
            run += 1
            let result: CommandResult?
            do {
                if run > 1 { try sources.reloadChanged() }
                result = try command.run(watched, in: session)
            } catch where session.cancellation.isCancelled {
                break
            }
            if display {
                screen.draw(result, run: run)
            } else if let result {
                session.render(result)
                session.output.flush()
            }
            if let count, run >= count { break }
            if !wait(seconds, in: session) { break }
        }
        return nil
    }

    /// Waits `seconds`; false when Ctrl-C (or a termination signal) came first.
    private static func wait(_ seconds: Double, in session: Session) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if session.cancellation.isCancelled || session.interruption.terminationRequested { return false }
            let left = deadline - ContinuousClock.now
            let milliseconds = Int32(min(200, max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)))
            session.notifier.wait(milliseconds: milliseconds)
        }
        return !session.cancellation.isCancelled
    }
}

/// The datasets in use that a watch loads again: those from a URL every run, those from a
/// file when its size or time changed. The current results are then made again from the new
/// contents (the same steps), so the watched command answers for what is there now.
struct WatchedSources {
    let session: Session
    private var stamps: [String: String] = [:]

    init(session: Session) {
        self.session = session
        for name in session.scopeNames { stamps[name] = stamp(of: name) }
    }

    private func stamp(of name: String) -> String? {
        guard case let .file(path)? = session.catalog.request(for: name)?.source else { return nil }
        var info = stat()
        guard SystemCalls.stat(path, &info) == 0 else { return nil }
        return "\(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }

    mutating func reloadChanged() throws {
        var reloaded = false
        for name in session.scopeNames where session.catalog.table(name) == nil {
            guard var request = session.catalog.request(for: name) else { continue }
            if case .file = request.source {
                let now = stamp(of: name)
                guard now != stamps[name] else { continue }
                stamps[name] = now
            }
            request.bounds = session.settings.fetchBounds
            let load = session.catalog.load(request, watched: true)
            try session.wait(for: load)
            if LoadCommand.report(load, in: session) != nil { reloaded = true }
        }
        guard reloaded, let memory = session.source as? MemoryResults else { return }
        session.keep(try memory.replayed(on: try session.datasetsInScope(), cancellation: session.cancellation))
    }
}

/// The watch at the prompt: each run's frame drawn over the last one.
struct WatchScreen {
    let session: Session
    let seconds: String
    let command: String
    private var drawnLines = 0
    private var previous: WatchSnapshot?
    /// The last change seen, which stays on the screen until the next: its run, time and lines.
    private var lastChange: (run: Int, time: String, lines: [String])?

    init(session: Session, seconds: String, command: String) {
        self.session = session
        self.seconds = seconds
        self.command = command
    }

    mutating func draw(_ result: CommandResult?, run: Int) {
        let terminal = session.output.terminal
        let columns = max(20, terminal.columns)
        let snapshot = WatchSnapshot(result)
        let time = Date().formatted(.dateTime.hour(.twoDigits(amPM: .omitted)).minute(.twoDigits).second(.twoDigits))
        var lines = ["every \(seconds) s: \(command) · \(time) · run \(run) · Ctrl-C stops"]
        var answer: [String] = []
        if let result {
            let sink = TextSink(cancellation: session.cancellation)
            var context = session.renderContext
            context.color = false
            context.width = columns
            session.settings.format.renderer.render(result, to: sink, context: context)
            answer = sink.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }
        let found = previous.map { snapshot.changes(since: $0, limit: 5) } ?? []
        previous = snapshot
        if !found.isEmpty { lastChange = (run, time, found) }
        var changes: [String]
        if let lastChange {
            changes = [(lastChange.run == run ? "changed since the last run: " : "unchanged since run \(lastChange.run) (\(lastChange.time)), which changed: ")
                + lastChange.lines[0]] + lastChange.lines.dropFirst()
        } else {
            changes = run == 1 ? [] : ["no change since run 1"]
        }
        // The frame fits the screen, so the next one can be drawn over it.
        let room = max(1, terminal.rows - 2 - lines.count - changes.count)
        if answer.count > room {
            let cut = answer.count - (room - 1)
            answer = Array(answer.prefix(room - 1)) + ["… \(cut) more line\(cut == 1 ? "" : "s")"]
        }
        lines += answer + changes
        lines = lines.map { TextWidth.truncate(SafeText.escape($0), to: columns - 1) }
        session.output.flush()
        if drawnLines > 0 { FileDescriptorWriter.write("\u{1B}[\(drawnLines)A\r\u{1B}[J", to: 1) }
        for line in lines { session.output.print(line) }
        session.output.flush()
        drawnLines = lines.count
    }
}
