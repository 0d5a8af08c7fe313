import Foundation
import Testing

/// What the seeds' screens showed and a new user expects again: the country detail's Flag line,
/// About's Author line (one author for `about`, `--version` and the manual page), and `use NAME`
/// as a fresh start that forgets chosen columns too. Expected values come from Data/*.json.
@Suite("Seed screens: the flag, the author, a fresh start")
struct SeedScreenTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    func run(_ commands: [String], arguments: [String] = []) throws -> PipeResult {
        var all = ["--no-rc"] + arguments
        for command in commands { all += ["-c", command] }
        return try PipeRun.run(all, environment: home.environment(), directory: home.root)
    }

    @Test("the country detail has a Flag line with the flag's URL", arguments: ["NOR", "DEU", "ALA"])
    func countryDetailShowsTheFlag(_ code: String) throws {
        let country = try #require(ValueReadingTests.records("countries").first { $0["alpha3Code"] as? String == code })
        let flag = try #require(country["flag"] as? String)
        let result = try run(["use countries", "show \(code)"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.lines.contains("    Flag               \(flag)"), "\(result)")
    }

    @Test("about, --version and the manual page name the same author")
    func oneAuthorEverywhere() throws {
        let about = try run(["about"])
        let authorLine = try #require(about.stdout.lines.first { $0.hasPrefix("Author: ") }, "\(about)")
        let author = String(authorLine.dropFirst("Author: ".count))
        #expect(author == "the almanac project and its contributors", "\(about)")
        #expect(!about.stdout.contains("Made by"), "\(about)")
        let version = try run([], arguments: ["--version"])
        #expect(version.stdout.lines == ["0.1.0", "Author: \(author)"], "\(version)")
        let parsed = try run([], arguments: ["--no-color", "--version"])  // through ArgumentParser, not the quick path
        #expect(parsed.stdout.lines == version.stdout.lines, "\(parsed)")
        let page = try String(contentsOfFile: PackageRoot.path + "/man/almanac.1", encoding: .utf8)
        let authors = try #require(page.components(separatedBy: ".Sh AUTHORS\n").dropFirst().first, "the page has AUTHORS")
        #expect(authors.hasPrefix("almanac 0.1.0 is written by \(author)."), "\(authors.prefix(200))")
    }

    @Test("use NAME is a fresh start: the chosen columns go too")
    func useForgetsChosenColumns() throws {
        let search = ["set format csv", "search norway"]
        let result = try CommandOutputs.run(["use countries", "columns name, population"] + search + ["use countries"] + search,
                                            environment: home.environment(), directory: home.root)
        let fresh = try CommandOutputs.run(["use countries"] + search, environment: home.environment(), directory: home.root)
        let norway = try #require(ValueReadingTests.records("countries").first { $0["name"] as? String == "Norway" })
        #expect(result.output(of: "search norway") == "name,population\nNorway,\(norway["population"] as? Int ?? -1)\n", "\(result)")
        let again = try #require(result.output(of: "search norway", after: 4))
        #expect(again == fresh.output(of: "search norway") && again.hasPrefix("alpha2Code,alpha3Code,"), "\(result)")
    }
}
