import CGlibc
import Testing

@Suite struct ArgumentsTests {
    /// `Arguments.c` stands in for the Swift runtime's search for argv in static builds; in
    /// this (shared-runtime) test binary the runtime found them its own way: both must agree.
    @Test func theKeptArgumentsAreTheOnesTheSwiftRuntimeFinds() {
        var count: Int32 = 0
        let argv = almanac_arguments(&count)
        let kept = (0..<Int(count)).map { String(cString: argv![$0]!) }
        #expect(kept == CommandLine.arguments)
        #expect(kept.count >= 1)
        #expect(argv?[Int(count)] == nil, "argv ends with a null pointer")
    }
}
