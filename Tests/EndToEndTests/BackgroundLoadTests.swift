import Foundation
import Testing

/// Datasets load in the background. With stations.json a FIFO the test decides when (and how
/// fast) the shell receives it: a load's message must appear above a half-typed line and leave
/// it intact, a waiting command draws a progress bar on a terminal (never through a pipe), and
/// Ctrl-C cancels the wait.
@Suite("Background loads at the prompt", .serialized)
struct BackgroundLoadTests {
    let home: TemporaryHome
    let data: DataFolder

    init() throws {
        home = try TemporaryHome()
        data = try DataFolder(in: home)
    }

    /// The real stations.json.
    static func stationsBytes() throws -> [UInt8] { try DataFolder.realContents("stations") }

    func start(_ extra: [String] = [], rows: Int = 24, columns: Int = 100) throws -> PseudoTerminalSession {
        let session = try PseudoTerminalSession(data.arguments + extra, environment: home.environment(), rows: rows, columns: columns)
        try session.waitForPrompt()
        return session
    }

    func leave(_ session: PseudoTerminalSession) throws {
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0, "\(session.text.tail().visible)")
    }

    func historyLines() -> [String] { home.read(home.historyPath)?.lines ?? [] }

    /// What the bar looks like once bytes have arrived: name, percentage (or "..." while the
    /// size is unknown), the bar, an amount and a rate.
    static let progressBar = #"stations +(\.\.\.|[0-9]+%) ▕[^▏\n]*▏ [0-9.]+ (KB|MB)[^\n]*[0-9.]+ (B|KB|MB)/s"#

    // MARK: - Messages above the prompt

    @Test("a finished load is announced above the prompt; the half-typed line is redrawn and runs")
    func loadMessageKeepsLine() throws {
        let fifo = try data.makeFIFO(for: "stations")
        let session = try start()
        try session.send("search Моск")
        try session.waitForScreen("the half-typed line") { $0.beforeCursor == "almanac> search Моск" }

        // Spread over 0.8 s: the load is slow enough to be worth announcing whenever it is timed from.
        let feeder = FIFOFeeder.start(fifo, bytes: try Self.stationsBytes(), chunks: 5, over: .milliseconds(800))
        try session.waitFor(pattern: #"stations: 4,037 stations in 3,120 cities · 3\.4 MB in [0-9.]+ m?s"#)
        try feeder.wait()
        let screen = try session.waitForScreen("the line redrawn under the message") {
            $0.beforeCursor == "almanac> search Моск"
                && ($0.linesAboveCursor.last ?? "").hasPrefix("stations: 4,037 stations in 3,120 cities")
        }
        #expect(screen.linesAboveCursor.last?.range(of: #"^stations: 4,037 stations in 3,120 cities · 3\.4 MB in [0-9.]+ m?s$"#,
                                                      options: .regularExpression) != nil,
                "the message has a line of its own: \(screen.linesAboveCursor.suffix(3))")
        #expect(screen.lines.filter { $0.contains("search Моск") }.count == 1,
                "the old copy of the line was replaced by the message, not left above it: \(screen.lines.suffix(4))")
        try session.waitFor("almanac> search Моск")  // the redraw

        let shown = try session.enter("")
        #expect(shown.contains("Москва"), "the whole line ran\n\(shown.visible)")
        try leave(session)
        #expect(historyLines() == ["search Моск"])
    }

    @Test("a FIFO with malformed JSON: `load failed` with file:line:column above the prompt")
    func malformedLoadMessage() throws {
        let fifo = try data.makeFIFO(for: "stations")
        let session = try start()
        try session.send("help abo")
        try session.waitForScreen("the half-typed line") { $0.beforeCursor == "almanac> help abo" }

        let malformed = "{\"citiesFrom\": [\n  {\"cityId\": 1,\n   \"x\": tru }\n]}\n"
        let feeder = FIFOFeeder.start(fifo, bytes: Array(malformed.utf8))
        let before = try session.waitFor(pattern: #"stations: load failed: [^\n]*stations\.json:3:9: [^\n]+"#)
        try feeder.wait()
        #expect(!before.contains("help abo\n"), "\(before.visible)")
        let screen = try session.waitForScreen("the line redrawn under the error") {
            $0.beforeCursor == "almanac> help abo" && ($0.linesAboveCursor.last ?? "").hasPrefix("stations: load failed: ")
        }
        #expect(screen.linesAboveCursor.last?.hasPrefix("stations: load failed: \(data.file("stations")):3:9: ") == true,
                "the error names the file as given, line 3, column 9: \(screen.linesAboveCursor.suffix(2))")
        try session.waitFor("almanac> help abo")
        try session.send("ut")
        let shown = try session.enter("")
        #expect(shown.contains("usage: about"), "\(shown.visible)")
        try leave(session)
    }

    @Test("`datasets stations` after a failed load shows the row with its failure, like `datasets`")
    func failedDatasetRow() throws {
        try data.replace("stations", with: "{\"citiesFrom\": [\n  {\"cityId\": 1,\n   \"x\": tru }\n]}\n")
        // `count` waits for the load (and fails with it); then the listings.
        let wait = "use stations; count"
        let all = try PipeRun.run(data.arguments + ["-c", wait, "-c", "datasets"], environment: home.environment(), directory: home.root)
        #expect(all.stderr.hasPrefix("-c:1: stations is not loaded: \(data.file("stations")):3:9: "), "\(all)")
        let row = all.stdout.lines.first { $0.hasPrefix("stations ") } ?? ""
        #expect(row.contains("failed: \(data.file("stations")):3:9: "), "`datasets` shows the failure\n\(all)")

        let one = try PipeRun.run(data.arguments + ["-c", wait, "-c", "datasets stations"], environment: home.environment(), directory: home.root)
        #expect(!one.stderr.contains("-c:2:"), "listing a failed dataset is not an error\n\(one)")
        let oneRow = one.stdout.lines.first { $0.hasPrefix("stations ") } ?? ""
        #expect(oneRow.contains("failed: \(data.file("stations")):3:9: "), "`datasets stations` shows the same row\n\(one)")
    }

    // MARK: - The progress bar

    @Test("a command waiting for a load draws a progress bar, then the answer on a clean line")
    func progressBarOnTerminal() throws {
        let fifo = try data.makeFIFO(for: "stations")
        let session = try start()
        try session.enter("use stations", prompt: "stations> ")
        try session.sendLine("count")
        try session.waitFor("count\n")
        let feeder = FIFOFeeder.start(fifo, bytes: try Self.stationsBytes(), chunks: 12, over: .milliseconds(1500))
        try session.waitFor(pattern: Self.progressBar)
        let answer = try session.waitFor("stations> ")
        try session.waitUntilReady()
        try feeder.wait()
        #expect(answer.hasSuffix("4037\n"), "\(answer.visible)")

        let screen = session.screen
        #expect(screen.beforeCursor == "stations> ", "\(screen.lines.suffix(4))")
        #expect(Array(screen.linesAboveCursor.suffix(2)) == ["stations> count", "4037"],
                "the bar was erased: the count is the last line before the prompt\n\(screen.lines.suffix(6).joined(separator: "\n"))")
        #expect(!screen.lines.contains { $0.contains("▕") }, "no bar is left anywhere on the screen")
        // The bar goes to standard error, which is the terminal here too; it was drawn in place.
        #expect(session.rawText.contains("\r\u{1B}[K"), "the bar redraws its line in place")
        try leave(session)
    }

    @Test("through a pipe a waiting command draws no bar: stdout is the count, stderr is empty")
    func noProgressBarThroughPipe() throws {
        let fifo = try data.makeFIFO(for: "stations")
        let feeder = FIFOFeeder.start(fifo, bytes: try Self.stationsBytes(), chunks: 12, over: .milliseconds(1500))
        let result = try PipeRun.run(data.arguments, input: "use stations\ncount\n", environment: home.environment(),
                                     directory: home.root)
        try feeder.wait()
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "4037\n", "\(result)")
        #expect(!result.stderr.contains("▕") && !result.stderr.contains("\r"), "no bar on stderr\n\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
    }

    // MARK: - Ctrl-C

    @Test("Ctrl-C while a command waits for a load cancels it; the shell goes on")
    func ctrlCCancelsWaitingCommand() throws {
        try data.makeFIFO(for: "stations")  // never fed
        let session = try start()
        try session.enter("use stations", prompt: "stations> ")
        try session.sendLine("count")
        try session.waitFor(pattern: #"stations +\.\.\. ▕"#)  // waiting, with its bar
        let pressed = ContinuousClock.now
        try session.send(Key.ctrlC)
        // Asked for within 1 s; 2 s of slack for a loaded CI machine before calling it a hang.
        try session.waitFor("loading stations cancelled", timeout: .seconds(3))
        let took = ContinuousClock.now - pressed
        #expect(took < .seconds(1), "the cancellation took \(took)")
        try session.waitForPrompt(timeout: .seconds(3))
        // (A second prompt may follow: see ctrlCGivesOnePrompt. Let it come before typing.)
        session.settle()
        session.skipReceived()

        let shown = try session.enter("use countries; count", prompt: "countries> ")
        #expect(shown.contains("250"), "\(shown.visible)")
        try leave(session)
    }

    @Test("one Ctrl-C that cancels a waiting command gives one prompt, not two")
    func ctrlCGivesOnePrompt() throws {
        try data.makeFIFO(for: "stations")  // never fed
        let session = try start()
        try session.enter("use stations", prompt: "stations> ")
        try session.sendLine("count")
        try session.waitFor(pattern: #"stations +\.\.\. ▕"#)
        try session.send(Key.ctrlC)
        try session.waitFor("loading stations cancelled", timeout: .seconds(3))
        try session.waitForPrompt(timeout: .seconds(3))
        session.settle(quiet: .milliseconds(500))
        #expect(!session.unmatchedText.contains("stations> "),
                "a second prompt (the Ctrl-C seen again by the line editor) followed:\n\(session.unmatchedText.visible)")
        try leave(session)
    }

    @Test("Ctrl-C during `load stations from FIFO` keeps the loaded stations")
    func ctrlCKeepsPreviousContents() throws {
        let fifo = try data.makeFIFO(named: "never.json")
        let session = try start()
        #expect(try session.enter("use stations; count", prompt: "stations> ").contains("4037"))
        try session.sendLine("load stations from \(fifo)")
        try session.waitFor(pattern: #"stations +\.\.\. ▕"#)
        try session.send(Key.ctrlC)
        let message = try session.waitFor("stations> ", timeout: .seconds(3))
        #expect(message.contains("loading stations cancelled"), "\(message.visible)")
        #expect(message.contains("the previous contents stay"), "\(message.visible)")
        try session.waitUntilReady()
        session.settle()
        session.skipReceived()
        let shown = try session.enter("use stations; count")
        #expect(shown.contains("4037"), "\(shown.visible)")
        try leave(session)
    }

    @Test("after a cancelled `load … from`, `datasets` still names the file the records came from")
    func cancelledLoadKeepsSource() throws {
        let fifo = try data.makeFIFO(named: "never.json")
        let session = try start(columns: 200)
        #expect(try session.enter("use stations; count", prompt: "stations> ").contains("4037"))
        try session.sendLine("load stations from \(fifo)")
        try session.waitFor(pattern: #"stations +\.\.\. ▕"#)
        try session.send(Key.ctrlC)
        try session.waitFor("loading stations cancelled", timeout: .seconds(3))
        try session.waitForPrompt(timeout: .seconds(3))
        session.settle()
        session.skipReceived()
        let listed = try session.enter("datasets")
        let row = listed.lines.first { $0.hasPrefix("stations ") } ?? ""
        #expect(row.contains("4,037") && row.contains("loaded"), "\(listed.visible)")
        #expect(row.contains(data.file("stations")) && !row.contains("never.json"),
                "the source is still \(data.file("stations")), where the 4,037 records came from: \(row)")
        try leave(session)
    }
}
