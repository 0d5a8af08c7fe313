import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A data folder for `--data`, inside a temporary home: each dataset file a symbolic link to
/// the real one, until a test replaces one with a file of its own or a FIFO (to decide when,
/// and how fast, the shell receives it).
struct DataFolder: Sendable {
    static let datasets = ["countries", "species", "planets", "people", "stations"]

    /// Where the real datasets are: `$ALMANAC_DATA` when the CI says so, else the package's Data.
    static let realFolder: String = {
        if let folder = ProcessInfo.processInfo.environment["ALMANAC_DATA"], !folder.isEmpty { return folder }
        return PackageRoot.path + "/Data"
    }()

    /// The real file of `dataset`.
    static func realFile(_ dataset: String) -> String { realFolder + "/" + dataset + ".json" }

    /// The real file's bytes.
    static func realContents(_ dataset: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: realFile(dataset)) else {
            throw HarnessError("cannot read \(realFile(dataset))")
        }
        return [UInt8](data)
    }

    let path: String

    /// Makes `home.root/name` with a link to each real dataset file.
    init(in home: TemporaryHome, name: String = "data") throws {
        path = home.root + "/" + name
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for dataset in Self.datasets {
            try FileManager.default.createSymbolicLink(atPath: file(dataset), withDestinationPath: Self.realFile(dataset))
        }
    }

    /// The dataset's file in this folder.
    func file(_ dataset: String) -> String { path + "/" + dataset + ".json" }

    /// Replaces the dataset's file with a FIFO (or makes `fileName` one). Returns its path.
    @discardableResult
    func makeFIFO(for dataset: String) throws -> String {
        try makeFIFO(at: file(dataset))
    }

    /// Makes a FIFO named `fileName` in this folder. Returns its path.
    @discardableResult
    func makeFIFO(named fileName: String) throws -> String {
        try makeFIFO(at: path + "/" + fileName)
    }

    private func makeFIFO(at fifo: String) throws -> String {
        _ = unlink(fifo)
        guard mkfifo(fifo, 0o600) == 0 else {
            throw HarnessError("mkfifo \(fifo) failed: \(String(cString: strerror(errno)))")
        }
        return fifo
    }

    /// Replaces the dataset's file with `text`.
    func replace(_ dataset: String, with text: String) throws {
        _ = unlink(file(dataset))
        try Data(text.utf8).write(to: URL(fileURLWithPath: file(dataset)))
    }

    /// The arguments that point almanac at this folder.
    var arguments: [String] { ["--data", path] }
}

/// Writes bytes into a FIFO from a background thread, the way a slow disk or network would
/// hand a file to the shell: it waits for the shell to open the FIFO for reading (polling,
/// so it never blocks for ever on a reader that does not come), writes the bytes in `chunks`
/// spread over `duration`, and closes it. `wait` reports how it went.
final class FIFOFeeder: @unchecked Sendable {
    let path: String
    private let lock = NSLock()
    private var outcome: Result<Void, HarnessError>?
    private var openedAt: ContinuousClock.Instant?

    private init(path: String) { self.path = path }

    /// Starts feeding `bytes` into the FIFO at `path`.
    /// - Parameters:
    ///   - chunks: how many writes; the first goes as soon as the reader is there.
    ///   - duration: the time from the first write to the last.
    ///   - timeout: how long to wait for a reader, and for each write to be taken.
    static func start(_ path: String, bytes: [UInt8], chunks: Int = 1, over duration: Duration = .zero,
                      timeout: Duration = Timeouts.output) -> FIFOFeeder {
        HarnessSetup.once
        let feeder = FIFOFeeder(path: path)
        Thread.detachNewThread {
            let result = feeder.feed(bytes, chunks: max(1, chunks), over: duration, timeout: timeout)
            feeder.lock.withLock { feeder.outcome = result }
        }
        return feeder
    }

    /// Whether the reader has opened the FIFO (and the writes have begun).
    var hasReader: Bool { lock.withLock { openedAt != nil } }

    /// Whether every byte was written and the FIFO closed.
    var isFinished: Bool { lock.withLock { outcome != nil } }

    /// Waits for the feeding to end; throws if it failed or is not over within `timeout`.
    func wait(timeout: Duration = Timeouts.output) throws {
        let deadline = Deadline(timeout)
        while true {
            if let outcome = lock.withLock({ self.outcome }) {
                try outcome.get()
                return
            }
            if deadline.hasPassed { throw HarnessError("feeding \(path) did not end within \(timeout)") }
            pause(milliseconds: 10)
        }
    }

    private func feed(_ bytes: [UInt8], chunks: Int, over duration: Duration, timeout: Duration) -> Result<Void, HarnessError> {
        // O_NONBLOCK: open fails with ENXIO until a reader has the FIFO open.
        let waitForReader = Deadline(timeout)
        var descriptor: Int32 = -1
        while descriptor < 0 {
            descriptor = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            if descriptor >= 0 { break }
            if errno != ENXIO && errno != EINTR {
                return .failure(HarnessError("cannot open \(path) for writing: \(String(cString: strerror(errno)))"))
            }
            if waitForReader.hasPassed { return .failure(HarnessError("nobody opened \(path) for reading within \(timeout)")) }
            pause(milliseconds: 5)
        }
        defer { close(descriptor) }
        let start = ContinuousClock.now
        lock.withLock { openedAt = start }
        for chunk in 0..<chunks {
            // Chunk k starts at k/(chunks-1) of the duration.
            if chunks > 1 && chunk > 0 {
                let due = start + duration * (Double(chunk) / Double(chunks - 1))
                let wait = due - .now
                if wait > .zero { Thread.sleep(forTimeInterval: Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18) }
            }
            let lower = bytes.count * chunk / chunks
            let upper = bytes.count * (chunk + 1) / chunks
            if case let .failure(error) = write(bytes[lower..<upper], to: descriptor, timeout: timeout) { return .failure(error) }
        }
        return .success(())
    }

    private func write(_ slice: ArraySlice<UInt8>, to descriptor: Int32, timeout: Duration) -> Result<Void, HarnessError> {
        let deadline = Deadline(timeout)
        var offset = slice.startIndex
        while offset < slice.endIndex {
            let count = slice[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                offset += count
                continue
            }
            if count < 0 && errno != EAGAIN && errno != EINTR {
                return .failure(HarnessError("writing to \(path) failed: \(String(cString: strerror(errno)))"))
            }
            if deadline.hasPassed { return .failure(HarnessError("the reader of \(path) took nothing for \(timeout)")) }
            var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            _ = poll(&entry, 1, deadline.pollMilliseconds(cap: 50))
        }
        return .success(())
    }
}
