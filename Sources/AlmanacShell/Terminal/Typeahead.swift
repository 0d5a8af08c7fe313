#if canImport(Glibc)
import Glibc
#endif

/// While the shell is busy (a command runs, a load's progress bar is drawn) the keys typed
/// wait for the next prompt exactly as typed. The terminal leaves canonical mode and echo:
/// in canonical mode a Ctrl-D is not a key but an end of file, which the prompt would then
/// read as a NUL, and echo would print the keys next to the command's output (after a
/// progress bar, leaving a stale bar above them). Signals stay: Ctrl-C still interrupts.
/// Nothing typed is discarded; the next prompt shows it on its line.
struct Typeahead {
    /// The local modes this turns off.
    private static let modes = tcflag_t(ICANON | ECHO | ECHONL)
    /// The terminal as the outermost typeahead found it: what programs started meanwhile get.
    nonisolated(unsafe) private static var found: termios?

    private var saved: termios?

    /// Keeps typed keys for the prompt, when standard input is a terminal in canonical mode
    /// or echoing (otherwise it already is, or it is no terminal).
    init() {
        var settings = termios()
        guard isatty(0) == 1, tcgetattr(0, &settings) == 0, settings.c_lflag & Self.modes != 0 else { return }
        saved = settings
        Self.found = settings
        Self.keepKeys(&settings)
        // TCSANOW: TCSAFLUSH would throw away what was typed.
        if tcsetattr(0, TCSANOW, &settings) != 0 { saved = nil; Self.found = nil }
    }

    /// Puts the terminal's modes back as they were.
    mutating func end() {
        guard let saved else { return }
        Self.restore(saved)
        self.saved = nil
        Self.found = nil
    }

    /// Leaves the terminal as it is to the line editor, which sets its own modes and puts
    /// back the canonical ones when it returns a line: nothing to restore here then.
    mutating func handOver() {
        saved = nil
        Self.found = nil
    }

    /// Runs `program` (a pager, an editor) with the terminal as the shell found it before
    /// typeahead began, and keeps typed keys again afterwards.
    static func lendingTerminal<Result>(to program: () -> Result) -> Result {
        guard let found else { return program() }
        restore(found)
        defer {
            var settings = termios()
            if tcgetattr(0, &settings) == 0 {
                keepKeys(&settings)
                tcsetattr(0, TCSANOW, &settings)
            }
        }
        return program()
    }

    private static func keepKeys(_ settings: inout termios) {
        settings.c_lflag &= ~modes
        // One key at a time, however long it takes, as in the line editor.
        withUnsafeMutableBytes(of: &settings.c_cc) { characters in
            characters[Int(VMIN)] = 1
            characters[Int(VTIME)] = 0
        }
    }

    /// Only the modes and characters this changes: anything else changed meanwhile (by a
    /// signal handler, a program) stays.
    private static func restore(_ saved: termios) {
        var settings = termios()
        guard tcgetattr(0, &settings) == 0 else { return }
        settings.c_lflag = (settings.c_lflag & ~modes) | (saved.c_lflag & modes)
        withUnsafeMutableBytes(of: &settings.c_cc) { characters in
            withUnsafeBytes(of: saved.c_cc) { old in
                characters[Int(VMIN)] = old[Int(VMIN)]
                characters[Int(VTIME)] = old[Int(VTIME)]
            }
        }
        tcsetattr(0, TCSANOW, &settings)
    }
}
