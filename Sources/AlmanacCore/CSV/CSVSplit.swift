import Synchronization

/// A large CSV text parsed on two threads: the second parses the rows from the line after
/// the middle into a detached builder while the first parses up to there, and the first
/// takes in the second's records (`JSONDocumentBuilder.appendDetached`) when it reaches that
/// line at the start of a row. A line break inside a quoted field is no row's start: the first
/// thread then passes the line mid-row, drops the second's work and goes on alone; so does it
/// when the second found an error (the first reports it, with its true line).
final class CSVSecondPart: @unchecked Sendable {
    /// Texts from this size on are split.
    static let splitFrom = 4 << 20

    /// Where the second part starts: the byte after the first line feed at or after the middle.
    static func start(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard bytes.count >= splitFrom, let base = bytes.baseAddress else { return nil }
        var index = bytes.count / 2
        while index < bytes.count, base[index] != CSVParser.newline { index += 1 }
        return index + 1 < bytes.count ? index + 1 : nil
    }

    struct Parsed {
        var builder: JSONDocumentBuilder
        var records: Int
        var columns: [CSVColumn]
    }

    let start: Int
    /// Bytes parsed so far (for the progress bar).
    let done = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    // Written by the second thread before `finished` is signalled, read after.
    private var parsed: Parsed?
    /// Whether `finished` was waited for (once only: the semaphore is signalled once).
    private var joined = false

    /// Starts the second thread on `bytes` from `start`, with the first row's dialect and columns.
    /// `release`: gives back the pages of bytes it is done with (without it, the second half
    /// of the 100× stations CSV stayed resident until the load ended: 29 MB of its peak).
    init(bytes: UnsafeBufferPointer<UInt8>, start: Int, dialect: CSVDialect, names: [String], source: String,
         release: @escaping (Range<Int>) -> Void = { _ in }) {
        self.start = start
        nonisolated(unsafe) let bytes = bytes
        nonisolated(unsafe) let release = release
        BackgroundThread.start(name: "csv second half", stackSize: Catalog.parsingStackSize, elsewhere: true) { [self] in
            parsed = CSVParser.parsePart(bytes, from: start, dialect: dialect, names: names, source: source, part: self, release: release)
            finished.signal()
        }
    }

    var isStopped: Bool { stopped.load(ordering: .relaxed) }

    /// The second part once parsed; nil when it failed.
    func join() -> Parsed? {
        if !joined {
            finished.wait()
            joined = true
        }
        return parsed
    }

    /// Stops the second thread (its work is not wanted) and waits for it: it reads the bytes.
    func abandon() {
        stopped.store(true, ordering: .relaxed)
        _ = join()
        parsed = nil
    }
}

import Dispatch

extension CSVParser {
    static let releaseMargin = 4 << 20

    /// The rows of `bytes` from `start` into a detached builder; nil on an error or when stopped.
    static func parsePart(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, dialect: CSVDialect, names: [String], source: String,
                          part: CSVSecondPart, release: @escaping (Range<Int>) -> Void = { _ in }) -> CSVSecondPart.Parsed? {
        guard let base = bytes.baseAddress else { return nil }
        var builder = JSONDocumentBuilder(expectedBytes: (bytes.count - start) * 4, detached: true, guessing: true,
                                          valueBytes: (bytes.count - start) * 4)
        builder.pendingLimit = waitingProbes
        var parser = CSVParser(base: base, count: bytes.count, dialect: dialect, source: source, progress: { consumed throws(CancelledError) in
            part.done.store(consumed - start, ordering: .relaxed)
            // A margin behind the position, as the first thread keeps (see `FileContents.releaser`).
            if consumed - start > releaseMargin { release(start..<(consumed - releaseMargin)) }
            if part.isStopped { throw CancelledError() }
        })
        parser.position = start
        parser.lineStart = start
        parser.nextProgress = start + populateInterval
        parser.columns = names.map { CSVColumn(name: $0, key: builder.internKey($0)) }
        var records = 0
        do {
            while true {
                parser.skipBlankLines()
                guard parser.position < parser.count else { break }
                try parser.parseRow(into: &builder)
                records += 1
                if parser.position >= parser.nextProgress { try parser.reportProgress(&builder) }
            }
        } catch {
            return nil
        }
        builder.resolvePending()
        return CSVSecondPart.Parsed(builder: builder, records: records, columns: parser.columns)
    }
}

extension CSVColumn {
    /// What a column is over both parts of a split text: their types joined (the same, or
    /// one part empty, else text), numbers written in either part becoming text with it.
    func merged(with other: CSVColumn) -> CSVColumn {
        var merged = self
        merged.nullWords = nullWords || other.nullWords
        merged.numbersBeforeText = numbersBeforeText || other.numbersBeforeText
        merged.commaNumbers = commaNumbers || other.commaNumbers
        if separator != nil, other.separator != nil, separator != other.separator, kind == .number || other.kind == .number {
            merged.kind = .text
        } else if kind == .empty {
            merged.kind = other.kind
        } else if other.kind != .empty, other.kind != kind {
            merged.kind = .text
        }
        merged.separator = separator ?? other.separator
        if merged.kind == .text, kind == .number || other.kind == .number { merged.numbersBeforeText = true }
        return merged
    }
}
