import Foundation
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What ExportTests does not cover: a failed export leaves nothing behind (no temporary file,
/// no partial file, an existing file untouched); a reader never sees a half-written file; a
/// dangling symbolic link is never followed.
@Suite("export: whole or nothing, never through a link")
struct ExportSafetyTests {
    let home: TemporaryHome
    let folder: String

    init() throws {
        home = try TemporaryHome()
        folder = try home.makeFolder("out")
    }

    func run(_ commands: [String], in directory: String? = nil) throws -> PipeResult {
        try PipeRun.run(["--no-rc"] + commands.flatMap { ["-c", $0] }, environment: home.environment(), directory: directory ?? folder)
    }

    func everything() -> [String] { home.allFiles() }

    func isSymbolicLink(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK
    }

    @Test("exporting into a folder that does not exist fails with one error line and creates nothing")
    func missingFolder() throws {
        let before = everything()
        let result = try run(["use countries", "export no-such-folder/europe.csv"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.lines.count == 1 && result.stderr.hasPrefix("-c:2: ") && result.stderr.contains("no-such-folder/europe.csv"),
                "\(result)")
        #expect(everything() == before, "nothing was created: \(Set(everything()).subtracting(before))")
    }

    @Test("exporting onto a folder's name fails and leaves the folder and its parent as they were")
    func ontoAFolder() throws {
        try FileManager.default.createDirectory(atPath: folder + "/taken.json", withIntermediateDirectories: true)
        let before = everything()
        for force in ["", " --force"] {
            let result = try run(["use countries", "export taken.json\(force)"])
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.lines.count == 1, "\(result)")
        }
        #expect(everything() == before, "no temporary files: \(Set(everything()).subtracting(before))")
    }

    @Test("a dangling symbolic link is an existing file: refused without --force; --force replaces the link, not its target")
    func danglingLink() throws {
        let target = home.root + "/elsewhere/not-yet.json"
        let link = folder + "/dangling.json"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)

        let refused = try run(["use countries", "filter region = Polar", "export dangling.json"])
        #expect(refused.status == 1 && refused.stderr.contains("--force"), "\(refused)")
        #expect(isSymbolicLink(link), "the link is still there")
        #expect(!FileManager.default.fileExists(atPath: target), "nothing was written through the link")
        #expect(!FileManager.default.fileExists(atPath: home.root + "/elsewhere"), "not even its folder")

        let forced = try run(["use countries", "filter region = Polar", "export dangling.json --force"])
        #expect(forced.status == 0, "\(forced)")
        #expect(!isSymbolicLink(link), "the link itself was replaced")
        #expect(!FileManager.default.fileExists(atPath: target), "its target was never created")
        #expect(try RecordFormats.jsonArray(home.read(link) ?? "").count == 3)
        #expect((try FileManager.default.contentsOfDirectory(atPath: folder)) == ["dangling.json"], "no temporary leftovers")
    }

    @Test("a reader polling the file while a large export replaces it sees the old file or the new one, whole")
    func readerNeverSeesHalf() throws {
        let path = folder + "/stations.json"
        let small = try run(["use stations", "filter stationId = 9362", "export stations.json"])
        #expect(small.status == 0, "\(small)")
        let old = FileManager.default.contents(atPath: path) ?? Data()
        #expect(!old.isEmpty)

        final class Observations: Sendable {
            let stop = Atomic<Bool>(false)
            let sizes = Mutex<[Int: Int]>([:])
            let reads = Atomic<Int>(0)
            let missing = Atomic<Int>(0)
        }
        let observations = Observations()
        let reader = Thread {
            while !observations.stop.load(ordering: .relaxed) {
                if let data = FileManager.default.contents(atPath: path) {
                    observations.sizes.withLock { $0[data.count, default: 0] += 1 }
                    observations.reads.add(1, ordering: .relaxed)
                } else {
                    observations.missing.add(1, ordering: .relaxed)
                }
            }
        }
        reader.start()
        // All 4,037 stations as JSON, a few MB, three times.
        let big = try run(["use stations", "export stations.json --force", "export stations.json --force", "export stations.json --force"])
        pause(milliseconds: 50)
        observations.stop.store(true, ordering: .relaxed)
        while !reader.isFinished { pause(milliseconds: 5) }
        #expect(big.status == 0, "\(big)")
        let new = FileManager.default.contents(atPath: path) ?? Data()
        #expect(new.count > 1_000_000, "the new file is the whole dataset")
        let sizes = observations.sizes.withLock { $0 }
        let partial = sizes.keys.filter { $0 != old.count && $0 != new.count }
        #expect(partial.isEmpty, "sizes seen that are neither the old file (\(old.count)) nor the new (\(new.count)): \(partial.sorted())")
        #expect(observations.missing.load(ordering: .relaxed) == 0, "the file was missing during the export")
        #expect((try FileManager.default.contentsOfDirectory(atPath: folder)) == ["stations.json"], "no temporary leftovers")
        ReliabilityLog.record("export reader", "\(observations.reads.load(ordering: .relaxed)) reads during 3 exports, sizes seen \(sizes.keys.sorted())")
    }

    @Test("a full disk: the export fails, the existing file stays whole, and no temporary file is left",
          .enabled(if: ScratchMount.available, "needs the right to mount a small tmpfs"))
    func fullDisk() throws {
        let mount = try ScratchMount(sizeKilobytes: 256)
        defer { mount.unmount() }
        let small = try run(["use countries", "filter region = Polar", "export polar.json"], in: mount.path)
        #expect(small.status == 0, "\(small)")
        let original = FileManager.default.contents(atPath: mount.path + "/polar.json")

        // All 4,037 stations do not fit in 256 KB.
        for command in ["export polar.json --force", "export everything.csv"] {
            let result = try run(["use stations", command], in: mount.path)
            #expect(result.status == 1, "\(command): \(result)")
            #expect(result.stderr.lines.count == 1 && result.stderr.contains("cannot write"), "\(command): \(result)")
        }
        #expect(FileManager.default.contents(atPath: mount.path + "/polar.json") == original, "the existing file is unchanged")
        #expect((try FileManager.default.contentsOfDirectory(atPath: mount.path)) == ["polar.json"],
                "no partial file and no temporary file left on the full disk")
    }
}
