import Foundation
import Testing
@testable import AlmanacCore
#if canImport(Glibc)
import Glibc
#endif

/// A plan's faults reach only the files under its folder, counted per call, so these tests
/// run alongside every other in parallel.
@Suite struct FaultPlanScopeTests {
    let mine = Scratch()
    let theirs = Scratch()

    @Test("a plan fails calls on paths under its folder and on descriptors opened there, and nothing else")
    func scopedToItsFolder() throws {
        let faults = FaultPlan(folder: mine.directory, [.failing(.write, EIO), .failing(.open, EACCES, from: 2)]).install()
        defer { faults.remove() }
        let outside = SystemCalls.open(theirs.directory + "/free", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        #expect(outside >= 0)
        #expect(SystemCalls.writeAll(outside, "free") == .written)
        _ = SystemCalls.close(outside)
        // A sibling whose name starts with the folder's is not under it.
        let sibling = SystemCalls.open(mine.directory + "-sibling", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        #expect(sibling >= 0)
        _ = SystemCalls.close(sibling)
        unlink(mine.directory + "-sibling")

        let inside = SystemCalls.open(mine.directory + "/first", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        #expect(inside >= 0, "the first open under the folder is not faulted")
        #expect(SystemCalls.writeAll(inside, "x") == .failed(EIO))
        _ = SystemCalls.close(inside)
        let refused = SystemCalls.open(mine.directory + "/second", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        let code = errno
        #expect(refused == -1 && code == EACCES)
        #expect(faults.calls(.open) == 2 && faults.injected(.open) == 1)
        #expect(faults.injected(.write) == 1)
    }

    @Test("once removed, or once its descriptor is closed, a plan fails nothing")
    func removalAndClosing() throws {
        let faults = FaultPlan(folder: mine.directory, [.failing(.write, ENOSPC)]).install()
        let descriptor = SystemCalls.open(mine.directory + "/file", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        #expect(SystemCalls.writeAll(descriptor, "a") == .failed(ENOSPC))
        _ = SystemCalls.close(descriptor)
        // The same number, now another file's.
        let reused = SystemCalls.open(theirs.directory + "/file", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        #expect(SystemCalls.writeAll(reused, "b") == .written)
        _ = SystemCalls.close(reused)
        faults.remove()
        let again = SystemCalls.open(mine.directory + "/file", O_WRONLY | O_CLOEXEC)
        #expect(SystemCalls.writeAll(again, "c") == .written)
        _ = SystemCalls.close(again)
        #expect(try String(contentsOfFile: mine.directory + "/file", encoding: .utf8) == "c")
    }

    @Test("the one write loop retries EINTR and completes short writes")
    func writeLoop() throws {
        let faults = FaultPlan(folder: mine.directory, [
            Fault(.write, .fails(EINTR), nth: 1, times: 3),
            Fault(.write, .short(7), nth: 4, times: Fault.always),
        ]).install()
        defer { faults.remove() }
        let text = String(repeating: "0123456789", count: 10)
        let descriptor = SystemCalls.open(mine.directory + "/out", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        #expect(SystemCalls.writeAll(descriptor, text) == .written)
        _ = SystemCalls.close(descriptor)
        #expect(try String(contentsOfFile: mine.directory + "/out", encoding: .utf8) == text)
        // 3 interrupted, then 100 bytes 7 at a time.
        #expect(faults.calls(.write) == 3 + 15)
    }
}

/// Export's atomic write under a full disk, a failing disk and interruptions: the file is whole
/// or absent, an old file stays as it was, no temporary file is left, and the error names the
/// file and the reason.
@Suite struct AtomicFileFaultTests {
    let scratch = Scratch()
    let contents = Array(String(repeating: "{\"name\": \"Norway\"},\n", count: 200_000).utf8)  // 4 MB: several writes

    func everything() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: scratch.directory).sorted()) ?? [] }

    func failure(_ body: () throws -> Void) -> String? {
        do { try body() } catch { return "\(error)" }
        return nil
    }

    @Test("a disk that fills after a short write: the old file is intact and no temporary file is left",
          arguments: [true, false])
    func fullDisk(replacing: Bool) throws {
        let path = scratch.file("export.json", "old\n")
        if !replacing { unlink(path) }
        let faults = FaultPlan(folder: scratch.directory, [Fault(.write, .short(1000)), .failing(.write, ENOSPC, from: 2)]).install()
        defer { faults.remove() }
        let error = failure { try AtomicFile.write(contents, to: path, overwrite: replacing) }
        #expect(error == "cannot write \(path): no space left on device")
        #expect(faults.injected(.write) == 2)
        #expect(everything() == (replacing ? ["export.json"] : []), "nothing half-written, no temporary file")
        if replacing { #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n") }
    }

    @Test("EIO from fsync: nothing is renamed into place, and the error says why")
    func failingFlush() throws {
        let path = scratch.file("export.csv", "old\n")
        let faults = FaultPlan(folder: scratch.directory, [.failing(.fsync, EIO)]).install()
        defer { faults.remove() }
        let error = failure { try AtomicFile.write(contents, to: path, overwrite: true) }
        #expect(error == "cannot write \(path): input/output error")
        #expect(faults.calls(.rename) == 0)
        #expect(everything() == ["export.csv"])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n")
    }

    @Test("EIO from the rename, or from close: the old file is intact and the temporary file is gone",
          arguments: [Fault.Call.rename, .close])
    func failingRenameOrClose(call: Fault.Call) throws {
        let path = scratch.file("export.ndjson", "old\n")
        let faults = FaultPlan(folder: scratch.directory, [.failing(call, EIO)]).install()
        defer { faults.remove() }
        #expect(failure { try AtomicFile.write(contents, to: path, overwrite: true) } == "cannot write \(path): input/output error")
        #expect(everything() == ["export.ndjson"])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n")
    }

    @Test("interrupted writes and fsync (EINTR) and short writes: the file is written whole, as without them")
    func interruptionsAndShortWrites() throws {
        let path = scratch.file("export.md", "old\n")
        let faults = FaultPlan(folder: scratch.directory, [
            Fault(.write, .fails(EINTR), nth: 1, times: 2),
            Fault(.write, .short(4095), nth: 3, times: 5),
            Fault(.write, .fails(EINTR), nth: 8),
            Fault(.fsync, .fails(EINTR)),
        ]).install()
        defer { faults.remove() }
        try AtomicFile.write(contents, to: path, overwrite: true)
        #expect(faults.injected(.write) == 8 && faults.injected(.fsync) == 1)
        #expect(FileManager.default.contents(atPath: path) == Data(contents))
        #expect(everything() == ["export.md"])
    }

    @Test("a streamed export whose disk fills part-way leaves the old file and no temporary file")
    func streamedFullDisk() throws {
        let path = scratch.file("table.csv", "old\n")
        let faults = FaultPlan(folder: scratch.directory, [.failing(.write, ENOSPC, from: 3)]).install()
        defer { faults.remove() }
        var pieces = 0
        let error = failure {
            try AtomicFile.write(to: path, overwrite: true) { append in
                for _ in 0..<10 {
                    try append(Array("a,b\n".utf8))
                    pieces += 1
                }
            }
        }
        #expect(error == "cannot write \(path): no space left on device")
        #expect(pieces == 2, "the write that failed ended the export")
        #expect(everything() == ["table.csv"])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n")
    }
}

/// Loading under a failing disk and interruptions: EIO mid-read is a clear error naming the file
/// and the dataset keeps its previous contents; EINTR is retried without anyone noticing.
@Suite struct LoadingFaultTests {
    let scratch = Scratch()

    /// `count` records, about 60 bytes each.
    func records(_ count: Int) -> String {
        "[" + (0..<count).map { #"{"alpha3Code": "C\#($0)", "name": "Country number \#($0)"}"# }.joined(separator: ",\n") + "]"
    }

    @Test("EIO after the first 4 KB were read: the error names the file and the reason; the old contents stay")
    func failingDiskMidRead() throws {
        let path = scratch.file("countries.json", records(3))
        let catalog = Catalog()
        #expect(try load("countries", path, catalog: catalog).count == 3)
        try records(500).write(toFile: path, atomically: true, encoding: .utf8)
        // Not mapped (a mapped file's failing page is a SIGBUS, which the guard handles): read.
        let faults = FaultPlan(folder: scratch.directory, [
            .failing(.mmap, ENODEV), Fault(.pread, .short(4096)), .failing(.pread, EIO, from: 2),
        ]).install()
        defer { faults.remove() }
        let message = failure { try load("countries", path, catalog: catalog) }
        #expect(message == "\(path): input/output error")
        #expect(faults.injected(.pread) == 2)
        #expect(catalog.dataset("countries")?.count == 3, "the dataset as it was")
        #expect(catalog.statuses().first?.failure?.description == message)
    }

    @Test("EINTR on open and on every other read, and short reads: the load is as without them",
          arguments: [false, true])
    func interruptedReads(mapped: Bool) throws {
        let path = scratch.file("countries.json", records(500))
        var faults = [Fault(.open, .fails(EINTR), nth: 1, times: 2)]
        if !mapped {
            faults += [.failing(.mmap, ENODEV), Fault(.pread, .fails(EINTR), nth: 1, times: 3), Fault(.pread, .short(1000), nth: 4, times: 10)]
        }
        let plan = FaultPlan(folder: scratch.directory, faults).install()
        defer { plan.remove() }
        let dataset = try load("countries", path)
        #expect(dataset.count == 500)
        #expect(dataset.name(of: 499) == "Country number 499")
        #expect(plan.injected(.open) == 2)
        #expect(plan.injected(.pread) == (mapped ? 0 : 13))
    }

    @Test("a named pipe whose reads are interrupted loads whole")
    func interruptedPipe() throws {
        let path = scratch.directory + "/fifo.json"
        #expect(mkfifo(path, 0o600) == 0)
        let plan = FaultPlan(folder: scratch.directory, [Fault(.read, .fails(EINTR), nth: 1, times: 2), Fault(.read, .short(100), nth: 3, times: 5)]).install()
        defer { plan.remove() }
        let text = records(40)
        let writer = Thread {
            let handle = FileHandle(forWritingAtPath: path)!
            handle.write(Data(text.utf8))
            handle.closeFile()
        }
        writer.start()
        let dataset = try load("fifo", path)
        #expect(dataset.count == 40)
        #expect(plan.injected(.read) == 7)
    }
}
