import Foundation

/// The environment almanac is started with: nothing inherited but PATH (and TZ), a temporary home,
/// TERM=xterm, no LANG/LC_* (so the shell's own UTF-8 fallback is what makes Cyrillic work),
/// and NO_COLOR=1 unless a test removes it.
struct TestEnvironment: Sendable {
    var variables: [String: String]

    init(home: TemporaryHome) {
        let inherited = ProcessInfo.processInfo.environment
        variables = [
            "PATH": inherited["PATH"] ?? "/usr/bin:/bin",
            "HOME": home.home,
            "XDG_STATE_HOME": home.stateHome,
            "XDG_CONFIG_HOME": home.configHome,
            "TERM": "xterm",
            "NO_COLOR": "1",
        ]
        // A CI that keeps the datasets elsewhere says so; everything else stays out.
        if let data = inherited["ALMANAC_DATA"] { variables["ALMANAC_DATA"] = data }
        // The tests' clock and the shell's must be in one time zone (`today`, `friday`).
        if let zone = inherited["TZ"] { variables["TZ"] = zone }
    }

    /// A copy with `name` set to `value`, or removed when `value` is nil.
    func with(_ name: String, _ value: String?) -> TestEnvironment {
        var copy = self
        copy.variables[name] = value
        return copy
    }

    /// A copy without `name`.
    func without(_ name: String) -> TestEnvironment { with(name, nil) }

    /// `NAME=value` strings, sorted, for execve.
    var entries: [String] { variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } }
}
