import AlmanacCore
import Testing
@testable import AlmanacShell

/// What README and near's help say of the Earth's radius is the radius distances use.
@Suite struct EarthRadiusTextTests {
    let radius = NumberFormat.grouped(Haversine.earthRadius, decimals: 4)

    @Test func readmeStatesTheRadiusDistancesUse() throws {
        #expect(radius == "6,371.0088")
        let readme = try String(contentsOfFile: ShellHarness.dataDirectory.replacingOccurrences(of: "/Data", with: "/README.md"), encoding: .utf8)
        #expect(readme.contains("(haversine, \(radius) km, the IUGG mean)"))
        #expect(!readme.contains("6,371 km"))
    }

    @Test func nearsHelpStatesTheRadiusDistancesUse() {
        #expect(NearCommand.spec.discussion.contains("mean Earth radius \(radius) km"))
    }
}
