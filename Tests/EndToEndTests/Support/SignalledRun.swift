import CPTY
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// almanac started with standard input from any descriptor (a device, a pipe fed by another
/// program, a file), its output to files or a pipe nobody reads, then sent a signal: how long
/// it takes to end is the figure.
final class SignalledRun {
    let pid: pid_t
    private var status: Int32?
    /// A program feeding standard input, when there is one (killed at the end).
    private var feeder: pid_t?

    /// Starts almanac with `arguments`; `input`, `output`, `error` become its 0, 1, 2.
    init(_ arguments: [String], input: Int32, output: Int32, error: Int32, environment: TestEnvironment,
         directory: String, feeder: pid_t? = nil) throws {
        HarnessSetup.once
        let binary = AlmanacBinary.path
        pid = withCStringArray([binary] + arguments) { argv in
            withCStringArray(environment.entries) { envp in
                cpty_spawn_piped(binary, argv, envp, input, output, error, directory)
            }
        }
        self.feeder = feeder
        guard pid > 0 else { throw HarnessError("cannot start \(binary)") }
    }

    deinit {
        if status == nil { killAndReap(pid) }
        if let feeder { killAndReap(feeder) }
    }

    /// Starts `/bin/sh -c script` writing into a new pipe; returns its pid and the pipe's read
    /// end (the caller closes it once almanac has it).
    static func feeder(_ script: String, directory: String) throws -> (pid: pid_t, output: Int32) {
        var pipe: [Int32] = [-1, -1]
        guard cpty_pipe(&pipe) == 0 else { throw HarnessError("pipe failed") }
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { close(null); close(pipe[1]) }
        let pid = withCStringArray(["/bin/sh", "-c", script]) { argv in
            withCStringArray(["PATH=/usr/bin:/bin"]) { envp in cpty_spawn_piped("/bin/sh", argv, envp, null, pipe[1], null, directory) }
        }
        guard pid > 0 else { close(pipe[0]); throw HarnessError("cannot start /bin/sh") }
        return (pid, pipe[0])
    }

    /// Whether it still runs.
    var isRunning: Bool {
        if status != nil { return false }
        var raw: Int32 = 0
        if waitpid(pid, &raw, WNOHANG) == pid {
            status = shellStatus(raw)
            return false
        }
        return true
    }

    /// Sends `signal`, waits for the exit (at most `timeout`) and returns the status and how
    /// many milliseconds it took; nil status when it had to be killed.
    func signal(_ signal: Int32, timeout: Duration = .seconds(10)) -> (status: Int32?, milliseconds: Double) {
        let sent = ContinuousClock.now
        kill(pid, signal)
        let status = waitForExit(timeout: timeout)
        return (status, ReliabilityLog.milliseconds(ContinuousClock.now - sent))
    }

    /// Waits for the exit; kills it and returns nil after `timeout`.
    func waitForExit(timeout: Duration) -> Int32? {
        let deadline = Deadline(timeout)
        while isRunning {
            if deadline.hasPassed {
                status = killAndReap(pid)
                return nil
            }
            pause(milliseconds: 1)
        }
        return status
    }

    /// A line of /proc/PID/status (`VmHWM`, `VmRSS`) in bytes, while it runs.
    func memory(_ key: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
            if let kilobytes = line.split(separator: " ").compactMap({ Int($0.trimmingCharacters(in: .whitespaces)) }).first {
                return kilobytes * 1024
            }
        }
        return nil
    }
}
