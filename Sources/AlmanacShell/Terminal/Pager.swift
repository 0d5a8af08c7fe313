#if canImport(Glibc)
import Glibc
#endif
import AlmanacCore

/// Shows long output through a pager: `$ALMANAC_PAGER`, else `$PAGER`, else `less -FRX`.
enum Pager {
    static func command(environment: [String: String]) -> String {
        for name in ["ALMANAC_PAGER", "PAGER"] {
            if let value = environment[name], !value.trimmingCharacters(in: .whitespaces).isEmpty { return value }
        }
        return "less -FRX"
    }

    /// The pager's environment, `NAME=value`: the shell's, with `LESS=FRX` when LESS is not
    /// set (as git does), so a `PAGER=less` shows colours and dim rules, not `ESC[2m`, and
    /// output shorter than a screen stays on it.
    static func environment(_ inherited: [String: String]) -> [String] {
        var variables = inherited
        if variables["LESS"] == nil { variables["LESS"] = "FRX" }
        return variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    }

    /// Runs `command` through /bin/sh with `text` on its standard input and waits for it.
    /// Returns false when it could not be started (the caller prints the text itself).
    static func show(_ text: String, command: String) -> Bool {
        // The pager reads keys from the terminal as the shell found it, not as it keeps it.
        Typeahead.lendingTerminal { run(command, feeding: text) }
    }

    private static func run(_ command: String, feeding text: String) -> Bool {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { return false }
        let (readEnd, writeEnd) = (descriptors[0], descriptors[1])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, readEnd, 0)
        posix_spawn_file_actions_addclose(&actions, writeEnd)
        var process: pid_t = 0
        let arguments = ["/bin/sh", "-c", command]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let variables = environment(ProcessInfo.processInfo.environment)
        let envp = variables.map { strdup($0) } + [nil]
        defer { envp.forEach { free($0) } }
        let spawned = posix_spawn(&process, "/bin/sh", &actions, nil, argv, envp)
        close(readEnd)
        guard spawned == 0 else {
            close(writeEnd)
            return false
        }
        // The pager may quit before reading everything: a failed write just stops writing.
        _ = SystemCalls.writeAll(writeEnd, text)
        close(writeEnd)
        _ = ChildProcess.wait(for: process)
        return true
    }
}

import CShims
import Foundation
