import Foundation
import Synchronization
import Testing

/// No input crashes the shell: the committed corpus (Tests/Fixtures/fuzz-corpus/*.txt, lines
/// that once failed plus hand-written nasty ones) and then a stream of random and mutated
/// command lines go through `almanac --no-rc` with standard input a pipe. Every run must end
/// by itself with status 0 or 1, and its standard error must be nothing but `stdin:N: …`
/// (`stdin:N:COLUMN: …` for an error about one word)
/// lines, at most one per input line, N in order.
///
/// `ALMANAC_FUZZ_LINES` (default 100,000), `ALMANAC_FUZZ_SEED` (default below) and
/// `ALMANAC_FUZZ_PROCESSES` (default 4) change the run. A failing run is minimised (the
/// shortest failing prefix, then chunks removed while it still fails) and the lines are
/// printed and saved to a file that can be dropped into the corpus folder.
extension HeavyReliabilityTests {
@Suite("Fuzzing the shell with hostile lines", .serialized)
struct ShellFuzzTests {
    static let environment = ProcessInfo.processInfo.environment
    // 100,000 lines take ~20 s of the release binary that `make test` runs (115 s of the debug one).
    static let lineCount = Int(environment["ALMANAC_FUZZ_LINES"] ?? "") ?? 100_000
    static let seed = UInt64(environment["ALMANAC_FUZZ_SEED"] ?? "") ?? 20_261_122
    static let processCount = max(1, Int(environment["ALMANAC_FUZZ_PROCESSES"] ?? "") ?? 4)
    static let corpusFolder = PackageRoot.path + "/Tests/Fixtures/fuzz-corpus"

    let home: TemporaryHome
    let folder: String

    init() throws {
        home = try TemporaryHome()
        folder = home.root + "/work"
        try FileManager.default.createDirectory(atPath: folder + "/out", withIntermediateDirectories: true)
    }

    // MARK: - Running and judging

    /// What went wrong with a run, in kinds that minimisation keeps constant.
    enum Failure: Equatable, CustomStringConvertible {
        case killed(String)
        case status(Int32)
        case stderr(String)

        var kind: Int {
            switch self {
            case .killed: 0
            case .status: 1
            case .stderr: 2
            }
        }

        var description: String {
            switch self {
            case let .killed(why): "killed by the harness: \(why)"
            case let .status(status) where status <= 1: "exit status \(status) before the end of the script (its last line, `\(ShellFuzzTests.sentinel)`, never answered)"
            case let .status(status): "exit status \(status)\(status > 128 ? " (signal \(status - 128))" : "")"
            case let .stderr(problem): "standard error: \(problem)"
            }
        }
    }

    func run(_ lines: [[UInt8]], keepOutput: Bool = false, niceness: Int32 = 10) throws -> ByteRunResult {
        var input: [UInt8] = []
        input.reserveCapacity(lines.reduce(0) { $0 + $1.count + 1 })
        for line in lines {
            input += line
            input.append(0x0A)
        }
        // A last line whose answer shows the script ran to its end.
        input += Array("\(Self.sentinel)\n".utf8)
        return try ByteRun.run(["--no-rc"], input: input, environment: home.environment(), directory: folder,
                               keepOutput: keepOutput, niceness: niceness, idleTimeout: .seconds(60),
                               timeout: .seconds(120 + lines.count / 50))
    }

    /// Appended to every script: its answer must end the output (in the table format, whatever the fuzz set).
    static let sentinel = "set format table; help about"
    static let sentinelAnswer: String = {
        guard let home = try? TemporaryHome(),
              let result = try? PipeRun.run(["--no-rc", "-c", sentinel], environment: home.environment(), directory: home.root),
              result.status == 0, !result.stdout.isEmpty else { return "usage: about" }
        return result.stdout
    }()

    /// The first thing wrong with `result`, a run of `lineCount` lines (and the sentinel); nil when it is fine.
    static func judge(_ result: ByteRunResult, lineCount: Int) -> (failure: Failure?, errorLines: Int) {
        if let why = result.killedBecause { return (.killed(why), 0) }
        guard let status = result.status, status == 0 || status == 1 else { return (.status(result.status ?? -1), 0) }
        guard result.stdout.hasSuffix(sentinelAnswer) else {
            return (.status(status), 0)  // ended before the last line of its script
        }
        let error = result.standardError
        if error.isEmpty {
            return (status == 0 ? nil : .stderr("exit status 1 but nothing on stderr"), 0)
        }
        if error.last != 0x0A { return (.stderr("the last line has no newline"), 0) }
        var previous = 0
        var count = 0
        for line in error.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
            count += 1
            let text = String(decoding: line, as: UTF8.self)
            // Informational lines by design: `set timer on`, notes beside machine output, and an
            // empty or near-missing filter's explanation (`no records — …`, `also 'mammals' (1)`).
            if text.hasPrefix("time: ") || text.hasPrefix("note: ") || text.hasPrefix("no records — ") || text.hasPrefix("also '") { continue }
            // `stdin:N: ` or, for an error about one word, `stdin:N:COLUMN: `.
            guard let match = text.range(of: #"^stdin:[0-9]+(:[0-9]+)?: "#, options: .regularExpression),
                  let number = Int(text[match].dropFirst("stdin:".count).dropLast(2).prefix(while: \.isNumber)) else {
                return (.stderr("a line that is not `stdin:N: …`: \(text.prefix(300).debugDescription)"), count)
            }
            guard number > previous, number <= lineCount + 1 else {
                return (.stderr("line number \(number) after \(previous) (of \(lineCount) lines): two messages for one line, or out of order: \(text.prefix(300).debugDescription)"), count)
            }
            previous = number
        }
        if status == 0 { return (.stderr("exit status 0 but \(count) error lines"), count) }
        return (nil, count)
    }

    /// Removes lines while the run still fails the same way: first the shortest failing
    /// prefix, then ever smaller chunks. Stops after `budget`.
    func minimise(_ lines: [[UInt8]], failure: Failure, budget: Duration = .seconds(150)) -> [[UInt8]] {
        let deadline = Deadline(budget)
        func fails(_ candidate: [[UInt8]]) -> Bool {
            guard let result = try? run(candidate, niceness: 0) else { return false }
            return Self.judge(result, lineCount: candidate.count).failure?.kind == failure.kind
        }
        var current = lines
        // The shortest prefix that still fails.
        var low = 0
        var high = current.count
        while low < high, !deadline.hasPassed {
            let middle = (low + high) / 2
            if middle > 0, fails(Array(current[..<middle])) { high = middle } else { low = middle + 1 }
        }
        if high < current.count { current = Array(current[..<high]) }
        // Then chunks (delta debugging by complement).
        var chunks = 2
        while current.count > 1, !deadline.hasPassed {
            let size = max(1, current.count / chunks)
            var removedAny = false
            var start = 0
            while start < current.count, !deadline.hasPassed {
                var candidate = current
                candidate.removeSubrange(start..<min(current.count, start + size))
                if !candidate.isEmpty, fails(candidate) {
                    current = candidate
                    removedAny = true
                } else {
                    start += size
                }
            }
            if !removedAny {
                if size == 1 { break }
                chunks = min(current.count, chunks * 2)
            }
        }
        return current
    }

    /// Reports a failing run: minimises it, saves the lines where a developer can copy them
    /// into the corpus, and returns the text for the test failure.
    func explain(_ lines: [[UInt8]], _ result: ByteRunResult, _ failure: Failure, label: String) -> String {
        let smallest = minimise(lines, failure: failure)
        let saved = NSTemporaryDirectory() + "almanac-fuzz-\(label)-\(getpid()).txt"
        var bytes: [UInt8] = []
        for line in smallest { bytes += line + [0x0A] }
        FileManager.default.createFile(atPath: saved, contents: Data(bytes))
        let shown = smallest.prefix(40).enumerated().map { index, line in
            "  \(index + 1): \(String(decoding: line.prefix(300), as: UTF8.self).debugDescription)\(line.count > 300 ? " … (\(line.count) bytes)" : "")"
        }.joined(separator: "\n")
        return """
            \(label): \(failure)
            seed \(Self.seed) (ALMANAC_FUZZ_SEED), \(lines.count) lines; minimised to \(smallest.count) line(s):
            \(shown)
            saved to \(saved) — copy it into Tests/Fixtures/fuzz-corpus/ to replay it on every run
            \(result)
            """
    }

    static func corpusFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: corpusFolder).filter { $0.hasSuffix(".txt") }.sorted()
    }

    static func lines(of bytes: [UInt8]) -> [[UInt8]] {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines.map(expand)
    }

    /// Corpus lines of 100 KB are stored short: a line `#repeat TEMPLATE` stands for the
    /// TEMPLATE with every `{COUNT*UNIT}` written out COUNT times; `\xHH` is a byte (so NUL,
    /// invalid UTF-8, braces and backslashes can be written). Other lines are taken as they are.
    static func expand(_ line: [UInt8]) -> [UInt8] {
        let marker = Array("#repeat ".utf8)
        guard line.starts(with: marker) else { return line }
        let template = Array(line.dropFirst(marker.count))
        func unescape(_ text: ArraySlice<UInt8>) -> [UInt8] {
            var bytes: [UInt8] = []
            var index = text.startIndex
            while index < text.endIndex {
                if text[index] == UInt8(ascii: "\\"), index + 3 < text.endIndex, text[index + 1] == UInt8(ascii: "x"),
                   let value = UInt8(String(decoding: text[(index + 2)...(index + 3)], as: UTF8.self), radix: 16) {
                    bytes.append(value)
                    index += 4
                } else {
                    bytes.append(text[index])
                    index += 1
                }
            }
            return bytes
        }
        var result: [UInt8] = []
        var index = template.startIndex
        while index < template.endIndex {
            if template[index] == UInt8(ascii: "{"), let close = template[index...].firstIndex(of: UInt8(ascii: "}")),
               let star = template[index..<close].firstIndex(of: UInt8(ascii: "*")),
               let count = Int(String(decoding: template[(index + 1)..<star], as: UTF8.self)) {
                let unit = unescape(template[(star + 1)..<close])
                for _ in 0..<count { result.append(contentsOf: unit) }
                index = close + 1
            } else {
                let next = template[index...].dropFirst().firstIndex(of: UInt8(ascii: "{")) ?? template.endIndex
                result.append(contentsOf: unescape(template[index..<next]))
                index = next
            }
        }
        return result
    }

    // MARK: - Tests

    @Test("the corpus of lines that once failed, and hand-written nasty ones, replays without a crash")
    func corpus() throws {
        let files = try Self.corpusFiles()
        #expect(!files.isEmpty, "the corpus is in \(Self.corpusFolder)")
        // The files run side by side; each is one script.
        final class Results: Sendable { let list = Mutex<[(String, [[UInt8]], Result<ByteRunResult, HarnessError>)]>([]) }
        let results = Results()
        let group = DispatchGroup()
        let this = self
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.corpusFolder + "/" + file)))
            let lines = Self.lines(of: bytes)
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                let result: Result<ByteRunResult, HarnessError>
                do { result = .success(try this.run(lines, niceness: 0)) } catch {
                    result = .failure(error as? HarnessError ?? HarnessError("\(error)"))
                }
                results.list.withLock { $0.append((file, lines, result)) }
            }
        }
        group.wait()
        var total = 0
        for (file, lines, outcome) in results.list.withLock({ $0 }).sorted(by: { $0.0 < $1.0 }) {
            total += lines.count
            let result = try outcome.get()
            let (failure, _) = Self.judge(result, lineCount: lines.count)
            if let failure {
                Issue.record(Comment(rawValue: explain(lines, result, failure, label: "corpus-\(file.dropLast(4))")))
            }
        }
        ReliabilityLog.record("fuzz corpus", "\(files.count) files, \(total) lines")
    }

    @Test("random and mutated command lines never crash, hang or print anything but one `stdin:N:` error per bad line")
    func randomLines() throws {
        let vocabulary = try ShellVocabulary.read(environment: home.environment(), directory: folder)
        let perProcess = (Self.lineCount + Self.processCount - 1) / Self.processCount
        let started = ContinuousClock.now
        struct Outcome: Sendable {
            var index: Int
            var lines: [[UInt8]]
            var result: ByteRunResult?
            var error: String?
        }
        final class Outcomes: Sendable { let list = Mutex<[Outcome]>([]) }
        let outcomes = Outcomes()
        let group = DispatchGroup()
        for index in 0..<Self.processCount {
            let count = min(perProcess, Self.lineCount - index * perProcess)
            guard count > 0 else { continue }
            group.enter()
            let this = self
            Thread.detachNewThread {
                defer { group.leave() }
                var fuzzer = ShellFuzzer(vocabulary: vocabulary, seed: Self.seed &+ UInt64(index) &* 0x1_0000_0001)
                // Small pages keep 100,000 lines of output small; the fuzz changes it later.
                var lines: [[UInt8]] = [Array("set pagesize 7".utf8)]
                while lines.count < count { lines.append(fuzzer.line()) }
                if let dump = Self.environment["ALMANAC_FUZZ_DUMP"] {
                    var bytes: [UInt8] = []
                    for line in lines { bytes += line + [0x0A] }
                    FileManager.default.createFile(atPath: "\(dump)/process\(index).txt", contents: Data(bytes))
                }
                do {
                    let result = try this.run(lines)
                    outcomes.list.withLock { $0.append(Outcome(index: index, lines: lines, result: result)) }
                } catch {
                    outcomes.list.withLock { $0.append(Outcome(index: index, lines: lines, error: "\(error)")) }
                }
            }
        }
        group.wait()
        let elapsed = ContinuousClock.now - started
        var errorLines = 0
        var fuzzed = 0
        var outputBytes = 0
        var slowest = 0.0
        for outcome in outcomes.list.withLock({ $0 }).sorted(by: { $0.index < $1.index }) {
            fuzzed += outcome.lines.count
            guard let result = outcome.result else {
                Issue.record("process \(outcome.index): \(outcome.error ?? "no result")")
                continue
            }
            outputBytes += result.outputByteCount
            slowest = max(slowest, result.seconds)
            let (failure, errors) = Self.judge(result, lineCount: outcome.lines.count)
            errorLines += errors
            if let failure {
                Issue.record(Comment(rawValue: explain(outcome.lines, result, failure, label: "seed\(Self.seed)-process\(outcome.index)")))
            }
        }
        #expect(fuzzed == Self.lineCount)
        // Most lines are nonsense on purpose; many must have been rejected, many accepted.
        #expect(errorLines > fuzzed / 10 && errorLines < fuzzed, "\(errorLines) error lines for \(fuzzed) lines")

        // `export` lines wrote only into out/, whole files, with no temporary leftovers.
        let everything = FileManager.default.enumerator(atPath: folder)?.allObjects.compactMap { $0 as? String } ?? []
        let strays = everything.filter { $0 != "out" && !$0.hasPrefix("out/") }
        #expect(strays.isEmpty, "files written outside out/: \(strays.prefix(10))")
        let leftovers = everything.filter { $0.contains(".almanac-") }
        #expect(leftovers.isEmpty, "temporary files left behind: \(leftovers.prefix(10))")

        ReliabilityLog.record("fuzz random", """
            \(fuzzed) lines in \(Self.processCount) processes (seed \(Self.seed)), \
            \(String(format: "%.1f", ReliabilityLog.milliseconds(elapsed) / 1000)) s wall, slowest process \
            \(String(format: "%.1f", slowest)) s, \(errorLines) error lines, \(outputBytes >> 20) MB of output
            """)
    }
}
}
