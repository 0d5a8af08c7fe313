import CPTY
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a run of almanac through pipes produced.
struct PipeResult: Sendable, CustomStringConvertible {
    let arguments: [String]
    let standardOutput: String
    let standardError: String
    /// The exit code, or 128 + the signal number that ended the process.
    let status: Int32

    var stdout: String { standardOutput }
    var stderr: String { standardError }

    var description: String {
        """
        almanac \(arguments.map { "'\($0)'" }.joined(separator: " ")) exited \(status)
        --- stdout ---
        \(standardOutput.tail().visible)
        --- stderr ---
        \(standardError.tail().visible)
        """
    }
}

/// Runs almanac with standard input, output and error on pipes (so it is in script mode),
/// feeding it `input` and collecting everything it prints.
enum PipeRun {
    /// Runs `arguments` with `input` on standard input (closed once written). Kills the
    /// process and throws after `timeout`.
    static func run(
        _ arguments: [String] = [],
        input: String = "",
        environment: TestEnvironment,
        directory: String? = nil,
        timeout: Duration = Timeouts.pipeRun
    ) throws -> PipeResult {
        HarnessSetup.once
        let binary = AlmanacBinary.path
        var inputPipe: [Int32] = [-1, -1]
        var outputPipe: [Int32] = [-1, -1]
        var errorPipe: [Int32] = [-1, -1]
        defer {
            for descriptor in inputPipe + outputPipe + errorPipe where descriptor >= 0 { close(descriptor) }
        }
        guard cpty_pipe(&inputPipe) == 0, cpty_pipe(&outputPipe) == 0,
              cpty_pipe(&errorPipe) == 0 else {
            throw HarnessError("pipe failed: \(String(cString: strerror(errno)))")
        }
        let pid: pid_t = withCStringArray([binary] + arguments) { argv in
            withCStringArray(environment.entries) { envp in
                if let directory {
                    return cpty_spawn_piped(binary, argv, envp, inputPipe[0], outputPipe[1], errorPipe[1], directory)
                }
                return cpty_spawn_piped(binary, argv, envp, inputPipe[0], outputPipe[1], errorPipe[1], nil)
            }
        }
        guard pid > 0 else { throw HarnessError("cannot start \(binary) (set ALMANAC_BIN to the binary)") }
        // The child has its copies; closing ours lets end-of-file arrive.
        close(inputPipe[0]); inputPipe[0] = -1
        close(outputPipe[1]); outputPipe[1] = -1
        close(errorPipe[1]); errorPipe[1] = -1
        for descriptor in [inputPipe[1], outputPipe[0], errorPipe[0]] { setNonBlocking(descriptor) }

        let deadline = Deadline(timeout)
        let pending = Array(input.utf8)
        var written = 0
        var standardOutput: [UInt8] = []
        var standardError: [UInt8] = []
        var outputOpen = true
        var errorOpen = true
        if pending.isEmpty { close(inputPipe[1]); inputPipe[1] = -1 }

        while outputOpen || errorOpen {
            if deadline.hasPassed {
                let status = killAndReap(pid)
                throw HarnessError("""
                    timed out after \(timeout); killed almanac (status \(status))
                    \(PipeResult(arguments: arguments, standardOutput: String(decoding: standardOutput, as: UTF8.self),
                                 standardError: String(decoding: standardError, as: UTF8.self), status: status))
                    """)
            }
            var descriptors: [pollfd] = []
            if outputOpen { descriptors.append(pollfd(fd: outputPipe[0], events: Int16(POLLIN), revents: 0)) }
            if errorOpen { descriptors.append(pollfd(fd: errorPipe[0], events: Int16(POLLIN), revents: 0)) }
            if inputPipe[1] >= 0 { descriptors.append(pollfd(fd: inputPipe[1], events: Int16(POLLOUT), revents: 0)) }
            let ready = poll(&descriptors, nfds_t(descriptors.count), deadline.pollMilliseconds(cap: 100))
            if ready < 0 && errno != EINTR { throw HarnessError("poll failed: \(String(cString: strerror(errno)))") }
            for entry in descriptors where entry.revents != 0 {
                if entry.fd == outputPipe[0] {
                    outputOpen = readAvailable(entry.fd, into: &standardOutput)
                } else if entry.fd == errorPipe[0] {
                    errorOpen = readAvailable(entry.fd, into: &standardError)
                } else if entry.fd == inputPipe[1] {
                    let count = pending.withUnsafeBytes { bytes in
                        write(entry.fd, bytes.baseAddress! + written, bytes.count - written)
                    }
                    if count > 0 { written += count }
                    // EPIPE: the process ended without reading everything, which is its right.
                    if written == pending.count || (count < 0 && errno != EAGAIN && errno != EINTR) {
                        close(inputPipe[1]); inputPipe[1] = -1
                    }
                }
            }
        }
        if inputPipe[1] >= 0 { close(inputPipe[1]); inputPipe[1] = -1 }
        let status = try waitForExit(pid, deadline: deadline, timeout: timeout)
        return PipeResult(arguments: arguments,
                          standardOutput: String(decoding: standardOutput, as: UTF8.self),
                          standardError: String(decoding: standardError, as: UTF8.self),
                          status: status)
    }

    /// Waits for `pid` to end; kills it at the deadline.
    static func waitForExit(_ pid: pid_t, deadline: Deadline, timeout: Duration) throws -> Int32 {
        while true {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { return shellStatus(status) }
            if result < 0 && errno != EINTR { throw HarnessError("waitpid failed: \(String(cString: strerror(errno)))") }
            if deadline.hasPassed {
                let killed = killAndReap(pid)
                throw HarnessError("almanac closed its output but did not exit within \(timeout); killed (status \(killed))")
            }
            pause(milliseconds: 5)
        }
    }
}

/// Kills `pid` with SIGKILL and collects it. Returns its shell status.
@discardableResult
func killAndReap(_ pid: pid_t) -> Int32 {
    kill(pid, SIGKILL)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return shellStatus(status)
}
