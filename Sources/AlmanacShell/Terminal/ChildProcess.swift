#if canImport(Glibc)
import Glibc
#endif
import CShims

/// Programs the shell starts and waits for (a pager, an editor).
enum ChildProcess {
    /// Waits for `process` to end and returns its wait status. SIGTERM or SIGHUP for the
    /// shell ends the program too, so the shell can end.
    static func wait(for process: pid_t) -> Int32 {
        var status: Int32 = 0
        var forwarded = false
        while waitpid(process, &status, 0) < 0, errno == EINTR {
            if !forwarded, almanac_signal_count(SIGTERM) > 0 || almanac_signal_count(SIGHUP) > 0 {
                kill(process, SIGTERM)
                forwarded = true
            }
        }
        return status
    }
}
