#if canImport(Glibc)
import Glibc
#endif

/// Keys typed while a command draws a progress bar are not echoed: the terminal would print
/// them after the bar, and the bar's next redraw (or an Enter) would leave a stale bar line
/// above them. They stay in the terminal's input, and the next prompt shows them on its line.
/// Only echo changes: Ctrl-C still interrupts, and nothing typed is discarded.
struct EchoPause {
    private var saved: termios?

    /// Turns echo off on standard input when it is a terminal that echoes.
    init() {
        var settings = termios()
        guard isatty(0) == 1, tcgetattr(0, &settings) == 0, settings.c_lflag & tcflag_t(ECHO) != 0 else { return }
        saved = settings
        settings.c_lflag &= ~tcflag_t(ECHO | ECHONL)
        // TCSANOW: TCSAFLUSH would throw away what was typed.
        if tcsetattr(0, TCSANOW, &settings) != 0 { saved = nil }
    }

    /// Puts echo back as it was.
    mutating func end() {
        guard var settings = saved else { return }
        var current = termios()
        if tcgetattr(0, &current) == 0 {
            // Only the echo bits: anything else changed meanwhile (by a signal handler) stays.
            current.c_lflag = (current.c_lflag & ~tcflag_t(ECHO | ECHONL)) | (settings.c_lflag & tcflag_t(ECHO | ECHONL))
            settings = current
        }
        tcsetattr(0, TCSANOW, &settings)
        saved = nil
    }
}
