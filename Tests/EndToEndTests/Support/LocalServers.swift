import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The test SWAPI server (Tests/Fixtures/swapi_server.py) on a free local port, serving the
/// real species.json: `/species/`, `/stall/`, `/missing/`, `/redirect-ftp/` and the rest (see
/// its docstring). One per test process; it exits when the process does (its stdin closes).
final class SWAPIServer: @unchecked Sendable {
    let process = Process()
    let lifeline = Pipe()
    let port: Int

    static let shared: Result<SWAPIServer, HarnessError> = {
        do { return .success(try SWAPIServer()) } catch let error as HarnessError { return .failure(error) } catch {
            return .failure(HarnessError("\(error)"))
        }
    }()

    static func get() throws -> SWAPIServer { try shared.get() }

    private init() throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", PackageRoot.path + "/Tests/Fixtures/swapi_server.py", DataFolder.realFile("species")]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardInput = lifeline
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { throw HarnessError("cannot start swapi_server.py: \(error)") }
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw HarnessError("swapi_server.py did not print its port: \(String(decoding: line, as: UTF8.self))")
        }
        self.port = port
    }

    func url(_ path: String, credentials: String? = nil) -> String {
        "http://\(credentials.map { $0 + "@" } ?? "")127.0.0.1:\(port)\(path)"
    }
}

/// A small tmpfs mounted for a test (a full disk, a read-only filesystem): tests may run as
/// root, where permissions stop nothing, but a read-only or full filesystem still refuses.
/// Needs the right to mount; `available` says whether this machine gives it.
final class ScratchMount {
    let path: String
    private var mounted = false

    /// Whether tmpfs can be mounted here (tried once).
    static let available: Bool = {
        guard let probe = try? ScratchMount(sizeKilobytes: 64) else { return false }
        probe.unmount()
        return true
    }()

    init(sizeKilobytes: Int, in folder: String = NSTemporaryDirectory()) throws {
        var template = Array((folder + "/almanac-mount.XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw HarnessError("mkdtemp failed: \(String(cString: strerror(errno)))")
        }
        path = String(cString: made)
        try Self.mountCommand(["-t", "tmpfs", "-o", "size=\(sizeKilobytes)k,mode=0755", "tmpfs", path])
        mounted = true
    }

    /// Makes the filesystem read-only (what is on it stays readable).
    func makeReadOnly() throws {
        try Self.mountCommand(["-o", "remount,ro", path])
    }

    func unmount() {
        if mounted {
            _ = try? Self.mountCommand(["-l", path], program: "/bin/umount")
            mounted = false
        }
        rmdir(path)
    }

    deinit { unmount() }

    private static func mountCommand(_ arguments: [String], program: String = "/bin/mount") throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { throw HarnessError("cannot run \(program): \(error)") }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw HarnessError("\(program) \(arguments.joined(separator: " ")) failed (\(process.terminationStatus))")
        }
    }
}

/// Runs a /bin/sh command line (pipelines, closed descriptors) with the test environment.
enum ShellCommand {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    static func run(_ script: String, environment: TestEnvironment, directory: String, timeout: TimeInterval = 30) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.environment = environment.variables
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both while it runs, so a full pipe never stalls it.
        let collected = Collected()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            collected.output.withLock { $0 = data }
            group.leave()
        }
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        if group.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            throw HarnessError("sh -c \(script) did not finish within \(timeout) s")
        }
        process.waitUntilExit()
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return Result(status: status,
                      stdout: String(decoding: collected.output.withLock { $0 }, as: UTF8.self),
                      stderr: String(decoding: errorData, as: UTF8.self))
    }

    private final class Collected: Sendable {
        let output = Mutex<Data>(Data())
    }

    /// `text` quoted for sh.
    static func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
