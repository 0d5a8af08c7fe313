import Foundation
import Testing

/// Absent values (`null`, `""`, `n/a`, `unknown`, `none`) in listings and `fields`: a blank
/// cell, no kind of their own, not counted as present; a record's name is never blanked.
/// Expected values are computed here from Data/*.json.
@Suite("Absent values in listings and fields")
struct AbsentValueTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    func succeed(_ commands: [String]) throws -> String {
        var arguments = ["--no-rc"]
        for command in commands { arguments += ["-c", command] }
        let result = try PipeRun.run(arguments, environment: home.environment(), directory: home.root)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        return result.stdout
    }

    static func isPresent(_ value: Any?) -> Bool { !ValueReadingTests.isAbsent(value) }

    @Test("a listing leaves absent cells blank but keeps a record's name, even a planet called unknown")
    func listingBlanksAbsentCellsButNotNames() throws {
        let planets = ValueReadingTests.records("planets")
        let position = try #require(planets.firstIndex { ($0["name"] as? String) == "unknown" })
        let listing = try succeed(["use planets", "page"])
        // The listing's columns: name, climate, terrain, population, diameter.
        let present = ["climate", "terrain", "population", "diameter"].compactMap { key in
            Self.isPresent(planets[position][key]) ? (planets[position][key] as? String).map(ValueReadingTests.grouped) : nil
        }
        #expect(present == ["0"], "only the diameter of planet unknown is known")
        let row = try #require(listing.lines.first { $0.hasPrefix("\(position + 1) ") || $0.hasPrefix(" \(position + 1) ") })
        #expect(row.split(separator: " ").map(String.init) == [String(position + 1), "unknown"] + present, "\(listing)")
        for word in ["n/a", "unknown"] {
            #expect(listing.lines.filter { $0.contains(" \(word) ") || $0.hasSuffix(" \(word)") }.count == (word == "unknown" ? 1 : 0),
                    "\(word) only as the name of planet unknown\n\(listing)")
        }
    }
}
