import Testing
@testable import AlmanacShell

/// `near Москва 5 km` said "missing within N km": a closing number and km are the radius when
/// no `within` is given, the same answer as `near Москва within 5 km`; a number alone is not.
@Suite struct NearWithoutWithinTests {
    let shell = ShellHarness(load: ["stations"])

    @Test func aClosingNumberAndKmAreTheRadius() {
        _ = shell.output("use stations")
        let plain = shell.output("near Москва within 5 km")
        #expect(plain.ok, "\(plain.err)")
        #expect(shell.output("near Москва 5 km").out == plain.out)
        #expect(shell.output("near 55.75, 37.62 20 km").out == shell.output("near 55.75, 37.62 within 20 km").out)
        #expect(shell.output("near Москва 5").err.contains("missing within N km"))
        #expect(shell.output("near \"Москва 5 km\"").err.contains("missing within N km"))
    }
}
