import AlmanacCore
import Foundation
import Synchronization
import Testing
@testable import AlmanacShell

/// The loads `load` starts are reported by the command (its summary on standard output), never
/// by the announcer of background loads as well, however early a load ends: a load that ended
/// before the command got round to waiting for it used to be announced on standard error too.
@Suite struct LoadReportedOnceTests {
    /// Serves `first` only once `second` has ended and been heard by the catalog's observer,
    /// which puts the end of `second` before `load` waits for it, every time; `second` takes
    /// 0.6 s, long enough for the prompt to announce a load nobody waited for.
    final class GatedTransport: HTTPTransport {
        let secondHeard = Atomic<Bool>(false)

        func get(_ url: URL, limits: HTTPLimits, cancellation: Cancellation) throws(LoadFailure) -> HTTPOutcome {
            let deadline = Date().addingTimeInterval(20)
            if url.path.contains("first") {
                while !secondHeard.load(ordering: .relaxed), Date() < deadline {
                    if cancellation.isCancelled { throw .cancelled }
                    usleep(1_000)
                }
            } else {
                usleep(600_000)
            }
            let name = url.deletingPathExtension().lastPathComponent
            return .response(status: 200, data: Data("{\"name\":\"\(name)\"}\n".utf8), contentType: "application/x-ndjson")
        }
    }

    final class Printed: @unchecked Sendable {
        var out = ""
        var err = ""
    }

    /// `load` run in a session wired as `Launcher.run` wires it; returns what it printed and
    /// what the announcer queued.
    func reloadBoth(interactive: Bool, verbose: Bool) -> (ok: Bool, out: String, err: String, announced: [String]) {
        let transport = GatedTransport()
        let catalog = Catalog(loader: DatasetLoader(http: HTTPFetcher(transport: transport)), preparesIndexes: false,
                              loadsYieldToTyping: false)
        let notifier = Notifier()
        let printed = Printed()
        let output = Output(terminal: .pipe, errorIsTerminal: false) { stream, text in
            if stream == .output { printed.out += text } else { printed.err += text }
        }
        let environment = ShellEnvironment(historyPath: "/nonexistent/history", startupFilePath: "/nonexistent/rc",
                                           dataDirectory: "/nonexistent/data")
        let session = Session(output: output, settings: Settings(color: false), environment: environment, isInteractive: interactive,
                              catalog: catalog, notifier: notifier)
        session.verbose = verbose
        let announcer = LoadAnnouncer(notifier: notifier, interactive: interactive, quiet: false, verbose: verbose)
        catalog.observe { event in
            announcer.announce(event)
            if event.name == "second" { transport.secondHeard.store(true, ordering: .relaxed) }
            notifier.wake()
        }
        for name in ["first", "second"] {
            catalog.register(LoadRequest(name: name, source: .url(URL(string: "http://gated.test/\(name).ndjson")!), model: GenericModel.self))
        }
        // `load` alone reloads every dataset at once and waits for them in order: `second`
        // ends while the command still waits for `first`.
        let ok = Executor(session: session).run(line: "load", at: SourceLocation(source: "test", line: 1))
        return (ok, printed.out, printed.err, notifier.takeMessages())
    }

    @Test("a load `load` waits for is reported once, by the command, even when it ends before the wait",
          arguments: [(interactive: false, verbose: true), (interactive: true, verbose: false)])
    func aLoadThatEndsEarlyIsReportedOnce(mode: (interactive: Bool, verbose: Bool)) {
        let run = reloadBoth(interactive: mode.interactive, verbose: mode.verbose)
        #expect(run.ok, "\(run)")
        #expect(run.announced.isEmpty, "announced as well as reported: \(run)")
        // The announcer's messages go to standard error at the next line or at exit.
        let lines = (run.out + run.err).split(separator: "\n").map(String.init) + run.announced
        for name in ["first", "second"] {
            let reports = lines.filter { $0.hasPrefix("\(name): 1 record") }
            #expect(reports.count == 1, "\(name): \(run)")
        }
        #expect(run.out.split(separator: "\n").contains { $0.hasPrefix("second: 1 record") }, "on standard output: \(run)")
    }
}
