import Testing
@testable import AlmanacShell

/// The data folder is the first of --data, $ALMANAC_DATA, the install's share/almanac/data,
/// the checkout's Data; and the shell says which.
@Suite struct DataLocationTests {
    let fallbacks: [(String, DataOrigin)] = [("/usr/local/share/almanac/data", .installed), ("/src/almanac/Data", .checkout)]

    func resolve(_ variables: [String: String], option: String? = nil, existing: Set<String>) -> ShellEnvironment {
        ShellEnvironment.resolve(variables, dataDirectory: option, fallbacks: fallbacks, exists: existing.contains)
    }

    @Test("the fallbacks are looked for only when neither --data nor $ALMANAC_DATA names a folder")
    func fallbacksOnlyWhenNeeded() {
        var asked = 0
        func counted() -> [(String, DataOrigin)] {
            asked += 1
            return fallbacks
        }
        _ = ShellEnvironment.resolve([:], dataDirectory: "/given", fallbacks: counted(), exists: { _ in true })
        _ = ShellEnvironment.resolve(["ALMANAC_DATA": "/env"], dataDirectory: nil, fallbacks: counted(), exists: { _ in true })
        #expect(asked == 0)
        let found = ShellEnvironment.resolve([:], dataDirectory: nil, fallbacks: counted(), exists: { _ in true })
        #expect(asked == 1)
        #expect(found.dataDirectory == "/usr/local/share/almanac/data" && found.dataOrigin == .installed)
    }

    @Test("--data wins over everything, even a folder that does not exist")
    func optionComesFirst() {
        let environment = resolve(["ALMANAC_DATA": "/env"], option: "/given", existing: Set(fallbacks.map(\.0)))
        #expect(environment.dataDirectory == "/given" && environment.dataOrigin == .option)
    }

    @Test("$ALMANAC_DATA comes next; empty means unset")
    func environmentComesSecond() {
        let environment = resolve(["ALMANAC_DATA": "/env"], existing: Set(fallbacks.map(\.0)))
        #expect(environment.dataDirectory == "/env" && environment.dataOrigin == .environment)
        let empty = resolve(["ALMANAC_DATA": ""], existing: Set(fallbacks.map(\.0)))
        #expect(empty.dataDirectory == "/usr/local/share/almanac/data" && empty.dataOrigin == .installed)
    }

    @Test("an install's data come before the checkout's, which is the last resort")
    func installedThenCheckout() {
        let installed = resolve([:], existing: ["/usr/local/share/almanac/data", "/src/almanac/Data"])
        #expect(installed.dataDirectory == "/usr/local/share/almanac/data" && installed.dataOrigin == .installed)
        let checkout = resolve([:], existing: ["/src/almanac/Data"])
        #expect(checkout.dataDirectory == "/src/almanac/Data" && checkout.dataOrigin == .checkout)
        let neither = resolve([:], existing: [])
        #expect(neither.dataDirectory == "/src/almanac/Data" && neither.dataOrigin == .checkout)
    }

    @Test("the line about and datasets print names the folder and why")
    func lineSaysWhy() {
        let environment = resolve([:], existing: ["/usr/local/share/almanac/data"])
        #expect(environment.dataFolderLine == "data: /usr/local/share/almanac/data (installed with almanac)")
    }
}
