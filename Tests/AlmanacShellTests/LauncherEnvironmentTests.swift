#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import AlmanacShell

/// The launcher reads only the variables it uses, with getenv, instead of ProcessInfo's whole
/// environment: the ones set come back exactly, empty ones too, unset ones not at all.
@Suite struct LauncherEnvironmentTests {
    @Test func setVariablesComeBackAndUnsetOnesAreLeftOut() {
        setenv("ALMANAC_TEST_SET", "/tmp/данные dir", 1)
        setenv("ALMANAC_TEST_EMPTY", "", 1)
        unsetenv("ALMANAC_TEST_UNSET")
        defer {
            unsetenv("ALMANAC_TEST_SET")
            unsetenv("ALMANAC_TEST_EMPTY")
        }
        let variables = Launcher.environmentVariables(["ALMANAC_TEST_SET", "ALMANAC_TEST_EMPTY", "ALMANAC_TEST_UNSET"])
        #expect(variables == ["ALMANAC_TEST_SET": "/tmp/данные dir", "ALMANAC_TEST_EMPTY": ""])
    }

    @Test func theResolvedVariablesAreAllRead() {
        #expect(ShellEnvironment.variableNames.sorted() == ["ALMANAC_DATA", "ALMANAC_HISTORY", "HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"])
    }
}
