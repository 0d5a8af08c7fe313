import Foundation

/// Runs almanac with `-c` commands and `set timer on` first, standard output and error on one
/// pipe, and cuts what it printed into each command's own output: the `time: … ms` line the
/// timer writes after every command (on standard error, after the command's output is
/// flushed) marks where one ends.
enum CommandOutputs {
    struct Run: CustomStringConvertible {
        let commands: [String]
        /// One entry per command: everything it printed (results and messages), in order.
        let outputs: [String]
        let status: Int32
        let raw: String

        var description: String { "almanac \(commands.map { "-c '\($0)'" }.joined(separator: " ")) exited \(status)\n\(raw.tail(3000).visible)" }

        /// The output of the command `command` (the first one with that text after `after`).
        func output(of command: String, after: Int = 0) -> String? {
            guard let index = commands.indices.dropFirst(after).first(where: { commands[$0] == command }) else { return nil }
            return outputs[index]
        }
    }

    static func run(_ commands: [String], arguments: [String] = [], environment: TestEnvironment, directory: String,
                    timeout: Duration = Timeouts.pipeRun) throws -> Run {
        HarnessSetup.once
        let process = Process()
        process.executableURL = URL(fileURLWithPath: AlmanacBinary.path)
        // --echo: every command's output, a shaping command's listing too.
        process.arguments = arguments + ["--echo", "-c", "set timer on"] + commands.flatMap { ["-c", $0] }
        process.environment = environment.variables
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let reader = pipe.fileHandleForReading
        let collected = Collected()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            collected.data = reader.readDataToEndOfFile()
            done.signal()
        }
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        if done.wait(timeout: .now() + seconds) == .timedOut {
            process.terminate()
            throw HarnessError("almanac \(commands) did not finish within \(timeout)")
        }
        process.waitUntilExit()
        let raw = String(decoding: collected.data, as: UTF8.self)
        var outputs: [String] = []
        var current = ""
        for line in raw.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            if line.range(of: #"^time: [0-9.,]+ ms$"#, options: .regularExpression) != nil {
                outputs.append(current)
                current = ""
            } else {
                current += line + "\n"
            }
        }
        // The first time is `set timer on`'s own.
        if !outputs.isEmpty { outputs.removeFirst() }
        guard outputs.count == commands.count, current.isEmpty else {
            throw HarnessError("expected \(commands.count) timed commands, found \(outputs.count) (and \(current.count) bytes after the last)\n"
                + raw.tail(3000).visible)
        }
        return Run(commands: commands, outputs: outputs, status: process.terminationStatus, raw: raw)
    }

    private final class Collected: @unchecked Sendable {
        var data = Data()
    }
}
