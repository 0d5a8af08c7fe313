#if canImport(Glibc)
import Glibc
#endif
import CShims
import Foundation

/// Commands written in the user's editor (Ctrl-X Ctrl-E at the prompt, the `edit` command):
/// `$VISUAL`, else `$EDITOR`, else `vi`, on a temporary file holding the text to start from;
/// what is saved is the commands to run, one per line (a line ending in `\` continues).
enum ExternalEditor {
    static func command(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        for name in ["VISUAL", "EDITOR"] {
            if let value = environment[name], !value.trimmingCharacters(in: .whitespaces).isEmpty { return value }
        }
        return "vi"
    }

    /// Opens the editor on `text` and waits for it. Returns the saved commands (none for an
    /// empty file), or an error worded for the user when the editor failed or could not start.
    /// The terminal must be as the editor expects it (cooked, the cursor on a fresh line).
    static func edit(_ text: String, command: String = command()) -> Result<[String], ShellError> {
        var template = Array((NSTemporaryDirectory() + "/almanac-edit-XXXXXX.txt").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 4) }
        guard descriptor >= 0 else { return .failure(.invalid("cannot make a file to edit: \(systemError())")) }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(path) }
        let written = writeAll(descriptor, text.isEmpty ? "" : text + "\n")
        close(descriptor)
        guard written else { return .failure(.invalid("cannot write \(path): \(systemError())")) }

        // Through the shell, so `EDITOR="code --wait"` works; the path is an argument, never parsed.
        let arguments = ["/bin/sh", "-c", command + " \"$1\"", "sh", path]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        guard let status = Typeahead.lendingTerminal(to: { run(argv) }) else {
            return .failure(.invalid("cannot start the editor '\(SafeText.escape(command))': \(systemError())"))
        }
        let exit = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + status & 0x7F
        guard exit == 0 else {
            return .failure(.invalid("the editor '\(SafeText.escape(command))' exited with status \(exit) — nothing was run"))
        }
        return commands(saved: path)
    }

    /// The commands in the saved file, read as a script's lines are: a line over 1 MiB (the
    /// limit for a command line) refuses the whole edit — nothing is run, echoed or kept in
    /// history — and so does Ctrl-C while a huge file is read (an editor that wrote 300 MB
    /// cost 924 MB, echoed it all and ignored Ctrl-C).
    static func commands(saved path: String) -> Result<[String], ShellError> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(.invalid("cannot read \(path): \(systemError())")) }
        defer { close(descriptor) }
        let interruptsBefore = almanac_signal_count(SIGINT)
        var lines: [String] = []
        var reader = DescriptorLines(descriptor: descriptor)
        while let line = reader.next() {
            switch line {
            case let .text(text): lines.append(text)
            case .tooLong, .endless:
                return .failure(.invalid("line \(lines.count + 1) of what you saved is longer than \(ScriptLine.limitText), "
                    + "the limit for a command line — nothing was run"))
            case let .unreadable(reason): return .failure(.invalid("cannot read \(path): \(reason)"))
            }
        }
        guard almanac_signal_count(SIGINT) == interruptsBefore else { return .failure(.invalid("edit cancelled — nothing was run")) }
        let commands = LineContinuation.commands(in: lines).map(\.text).filter { $0.contains { !$0.isWhitespace } }
        if let long = commands.firstIndex(where: { $0.utf8.count > ScriptLine.maximumBytes }) {
            return .failure(.invalid("command \(long + 1) of what you saved (its lines joined by \\) is longer than \(ScriptLine.limitText), "
                + "the limit for a command line — nothing was run"))
        }
        return .success(commands)
    }

    /// Starts `argv` and waits for it; its wait status, or nil when it could not start.
    private static func run(_ argv: [UnsafeMutablePointer<CChar>?]) -> Int32? {
        var process: pid_t = 0
        guard posix_spawn(&process, "/bin/sh", nil, nil, argv, environ) == 0 else { return nil }
        return ChildProcess.wait(for: process)
    }
}
