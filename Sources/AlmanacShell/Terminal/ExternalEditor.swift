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
        let path = String(cString: template)
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
        guard let saved = readWhole(path) else { return .failure(.invalid("cannot read \(path): \(systemError())")) }
        let lines = saved.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.last == "\r" ? String(line.dropLast()) : String(line)
        }
        return .success(LineContinuation.commands(in: lines).map(\.text).filter { $0.contains { !$0.isWhitespace } })
    }

    /// Starts `argv` and waits for it; its wait status, or nil when it could not start.
    private static func run(_ argv: [UnsafeMutablePointer<CChar>?]) -> Int32? {
        var process: pid_t = 0
        guard posix_spawn(&process, "/bin/sh", nil, nil, argv, environ) == 0 else { return nil }
        return ChildProcess.wait(for: process)
    }
}
