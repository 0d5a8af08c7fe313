import Foundation
import Testing

/// `load PATH`, the first thing a new user types to bring a file: a word that names no
/// dataset and reads as a path (a slash, a ~, or an extension load reads) is loaded as
/// `load from PATH` is, under its file's name.
@Suite("load PATH loads a file under its own name")
struct LoadPathTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    static let towns = "city,pop,founded\nVienna,1900000,1156\n\"Graz, Styria\",290000,1128\nLinz,,799\n"

    @Test("an absolute path loads and is used by its file's name")
    func absolutePath() throws {
        let file = try home.write(Self.towns, to: "data/towns.csv")
        let result = try home.run(["load \(file)", "use towns", "filter pop > 1000000", "columns city, founded"], options: ["--no-rc"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "#  city    founded        pop\n─  ──────  ───────  ─────────\n1  Vienna     1156  1,900,000\n", "\(result)")
    }

    @Test("a file in the working folder, named by its extension, and one under ~")
    func relativeAndHomePaths() throws {
        try home.write(Self.towns, to: "towns.csv")
        try home.write(#"[{"quote": "Do or do not.", "by": "Yoda"}, {"quote": "I am your father.", "by": "Vader"}]"#, to: "home/quotes.json")
        let result = try home.run(["load towns.csv", "load ~/quotes.json", "use towns", "count", "use quotes", "count"],
                                  options: ["--no-rc"], directory: home.root)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "3\n2\n", "\(result)")
    }

    @Test("a word that is neither a dataset nor a path is still an unknown dataset")
    func plainWordIsNoPath() throws {
        let result = try home.run(["load atlas"], options: ["--no-rc"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("unknown dataset 'atlas' — to load a file: load PATH, or load NAME from PATH"), "\(result)")
    }
}
