import AlmanacCore
import Foundation
import Testing
@testable import AlmanacShell
#if canImport(Glibc)
import Glibc
#endif

/// The shell's files under failing system calls (`FaultPlan`, scoped to a folder of each
/// test's own): export is whole or absent, history keeps whole lines and the session goes on,
/// results reach standard output whole through interruptions and short writes.
@Suite struct FileFaultTests {
    let folder: String = {
        let path = NSTemporaryDirectory() + "almanac-faults-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    func everything() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: folder).sorted()) ?? [] }

    func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    /// The bundled countries, counted from the file.
    static let countries = (try? JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: ShellHarness.dataDirectory + "/countries.json"))) as? [Any])??.count

    // MARK: - Export

    @Test("export on a full disk, or with fsync failing: one error naming the file and the reason, the old file intact, nothing else left",
          arguments: [(Fault.Call.write, ENOSPC, "no space left on device"), (.fsync, EIO, "input/output error")])
    func exportFails(call: Fault.Call, code: Int32, reason: String) throws {
        let shell = ShellHarness(load: ["countries"])
        let path = folder + "/countries.json"
        #expect(shell.output("use countries; filter region = Polar; export \(path)").ok)
        let old = bytes(path)
        #expect(old != nil)
        #expect(shell.output("back").ok)

        let faults = FaultPlan(folder: folder, [Fault(.write, .short(100)), .failing(call, code, from: call == .write ? 2 : 1)]).install()
        defer { faults.remove() }
        for command in ["export \(path) --force", "export \(folder)/new.csv"] {
            let result = shell.output(command)
            #expect(!result.ok, "\(command)")
            let target = command.split(separator: " ")[1]
            #expect(result.err == "test:1: cannot write \(target): \(reason)\n", "\(command)")
            #expect(result.out.isEmpty)
        }
        #expect(faults.injected(call) >= 2)
        #expect(bytes(path) == old, "the existing file is unchanged")
        #expect(everything() == ["countries.json"], "no partial file, no temporary file")
        // The session goes on: the same export works once the disk does.
        faults.remove()
        #expect(shell.output("export \(folder)/new.csv").ok)
    }

    @Test("export through interrupted (EINTR) and short writes: the same bytes as without them")
    func exportInterrupted() throws {
        let shell = ShellHarness(load: ["countries"])
        let plain = folder + "/plain.json"
        #expect(shell.output("use countries; export \(plain)").ok)
        let exported = try JSONSerialization.jsonObject(with: bytes(plain) ?? Data()) as? [Any]
        #expect(exported?.count == Self.countries)

        let interrupted = folder + "/interrupted.json"
        let faults = FaultPlan(folder: folder, [
            Fault(.write, .fails(EINTR), nth: 1, times: 2),
            Fault(.write, .short(1000), nth: 3, times: 50),
            Fault(.write, .fails(EINTR), nth: 53, times: 3),
            Fault(.fsync, .fails(EINTR)),
        ]).install()
        defer { faults.remove() }
        #expect(shell.output("export \(interrupted)").ok)
        #expect(faults.injected(.write) == 55 && faults.injected(.fsync) == 1)
        #expect(bytes(interrupted) == bytes(plain))
        #expect(everything() == ["interrupted.json", "plain.json"])
    }

    // MARK: - History

    @Test("history on a full or failing disk: the file keeps its whole lines, one warning says history is not saved, the session goes on",
          arguments: [(ENOSPC, "No space left on device"), (EIO, "Input/output error")])
    func historyFails(code: Int32, reason: String) throws {
        let path = folder + "/history"
        let store = HistoryStore(path: path)
        #expect(store.add("use countries"))
        #expect(store.add("count"))
        let saved = bytes(path)
        #expect(saved == Data("use countries\ncount\n".utf8))

        // Three bytes go in, then the disk fails.
        let faults = FaultPlan(folder: folder, [Fault(.write, .short(3)), .failing(.write, code, from: 2)]).install()
        defer { faults.remove() }
        #expect(store.add("filter region = Europe"))
        #expect(store.warnings == ["cannot write history file \(path): \(reason); this session's history will not be saved"])
        #expect(bytes(path) == saved, "the three bytes were cut off again")
        #expect(store.add("group region"))
        #expect(store.entries == ["use countries", "count", "filter region = Europe", "group region"], "kept in memory")
        #expect(store.warnings.count == 1, "said once")
        #expect(faults.calls(.write) == 2, "no more writes once the file failed")
        faults.remove()
        #expect(HistoryStore(path: path).entries == ["use countries", "count"])
        #expect(everything() == ["history"])
    }

    @Test("a history file whose read fails (EIO): one warning, the session goes on in memory, the file is never written")
    func historyUnreadable() throws {
        let path = folder + "/history"
        try "use countries\ncount\n".write(toFile: path, atomically: true, encoding: .utf8)
        let faults = FaultPlan(folder: folder, [.failing(.read, EIO)]).install()
        defer { faults.remove() }
        let store = HistoryStore(path: path)
        #expect(store.warnings == ["cannot read history file \(path): Input/output error; this session's history will not be saved"])
        #expect(store.add("group region"))
        #expect(store.entries == ["group region"])
        #expect(faults.calls(.write) == 0)
        #expect(bytes(path) == Data("use countries\ncount\n".utf8))
    }

    @Test("compacting an overgrown history file on a full disk: every kept line loads, the file stays whole, no temporary file")
    func historyCompactionFails() throws {
        let path = folder + "/history"
        let total = HistoryStore.capacity + HistoryStore.capacity / 10 + 100
        let text = (0..<total).map { "line \($0)" }.joined(separator: "\n") + "\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let faults = FaultPlan(folder: folder, [.failing(.write, ENOSPC)]).install()
        defer { faults.remove() }
        let store = HistoryStore(path: path)
        #expect(faults.injected(.write) == 1, "compaction was tried")
        #expect(store.entries.count == HistoryStore.capacity)
        #expect(store.entries.first == "line \(total - HistoryStore.capacity)")
        #expect(store.entries.last == "line \(total - 1)")
        #expect(store.warnings.isEmpty, "nothing was lost")
        #expect(bytes(path) == Data(text.utf8))
        #expect(everything() == ["history"])
    }

    @Test("compaction goes through the one atomic write: the file is replaced whole and stays 0600")
    func historyCompaction() throws {
        let path = folder + "/history"
        let total = HistoryStore.capacity + HistoryStore.capacity / 10 + 100
        try ((0..<total).map { "line \($0)" }.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let faults = FaultPlan(folder: folder, []).install()
        defer { faults.remove() }
        _ = HistoryStore(path: path)
        #expect(faults.calls(.mkstemp) == 1 && faults.calls(.fsync) == 1 && faults.calls(.rename) == 1)
        let kept = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(kept.count == HistoryStore.capacity && kept.last == "line \(total - 1)")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        #expect(everything() == ["history"])
    }

    // MARK: - Output

    /// Open it once the plan is in force: a plan covers the descriptors opened under it.
    func output(to name: String) -> (Output, Int32) {
        let descriptor = SystemCalls.open(folder + "/" + name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        return (Output.standard(output: descriptor, error: descriptor), descriptor)
    }

    @Test("results through interrupted (EINTR) and short writes arrive whole")
    func outputInterrupted() throws {
        let faults = FaultPlan(folder: folder, [Fault(.write, .fails(EINTR), nth: 1, times: 3), Fault(.write, .short(4000), nth: 4, times: 40)]).install()
        defer { faults.remove() }
        let (output, descriptor) = output(to: "out")
        defer { _ = SystemCalls.close(descriptor) }
        let lines = (0..<20_000).map { "row \($0)" }
        for line in lines { output.print(line) }
        output.endCommand()
        #expect(output.writeFailure == nil)
        #expect(faults.injected(.write) == 43)
        #expect(bytes(folder + "/out") == Data((lines.joined(separator: "\n") + "\n").utf8))
    }

    @Test("results on a full disk: the failure is kept for the end of the run, and the shell goes on")
    func outputFullDisk() throws {
        let faults = FaultPlan(folder: folder, [.failing(.write, ENOSPC)]).install()
        defer { faults.remove() }
        let (output, descriptor) = output(to: "out")
        defer { _ = SystemCalls.close(descriptor) }
        output.print("lost")
        output.endCommand()
        #expect(output.writeFailure == "No space left on device")
        output.print("also lost")
        output.endCommand()
        #expect(output.writeFailure == "No space left on device", "the first failure is the one reported")
    }
}
