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

    func succeed(_ commands: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try home.succeed(commands, options: ["--no-rc"], sourceLocation: sourceLocation)
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

    @Test("fields counts the records with a value present: n/a, unknown, \"\" and null are not values")
    func fieldsCountsPresentValues() throws {
        func count(_ field: String, in listing: String) -> Int? {
            let line = listing.lines.first { $0.hasPrefix(field + " ") }
            let words = line?.split(separator: " ").map(String.init) ?? []
            return words.first { Int($0.replacingOccurrences(of: ",", with: "")) != nil }.flatMap { Int($0.replacingOccurrences(of: ",", with: "")) }
        }
        let species = ValueReadingTests.records("species")
        let speciesFields = try succeed(["use species", "fields"])
        for key in ["average_lifespan", "average_height", "language", "classification"] {
            let present = species.filter { Self.isPresent($0[key]) }.count
            #expect(count(key, in: speciesFields) == present, "\(key): \(present) species have one\n\(speciesFields)")
        }
        #expect(species.filter { Self.isPresent($0["average_lifespan"]) }.count == 17)
        let countries = ValueReadingTests.records("countries")
        let countryFields = try succeed(["use countries", "fields"])
        for key in ["capital", "gini", "area"] {
            let present = countries.filter { Self.isPresent($0[key]) }.count
            #expect(count(key, in: countryFields) == present, "\(key): \(present) countries have one\n\(countryFields)")
        }
        #expect(countries.filter { Self.isPresent($0["capital"]) }.count == 245)
    }

    static let sizes = """
        [{"name": "alpha", "size": 10, "year": 1500}, {"name": "beta", "size": "n/a", "year": "unknown"},
         {"name": "gamma", "size": 2, "year": 1900}, {"name": "delta", "size": "unknown", "year": 2000},
         {"name": "epsilon", "size": 100, "year": null}, {"name": "zeta", "size": 25}]
        """

    @Test("a generic number field with some n/a and unknown is a number field: typed, sorted, filtered, grouped and aligned as numbers")
    func numbersWithAbsentWordsAreNumbers() throws {
        let file = try home.write(Self.sizes, to: "sizes.json")
        let load = ["load sizes from \(file)", "use sizes"]
        let fields = try succeed(load + ["fields"])
        let size = try #require(fields.lines.first { $0.hasPrefix("size ") })
        #expect(size.split(separator: " ").prefix(3) == ["size", "number", "4"], "\(fields)")
        #expect(fields.lines.contains("names the records: name"), "size and year are not names\n\(fields)")
        let names = { (output: String) in output.lines.compactMap { line in
            ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"].first { line.contains(" \($0) ") || line.hasSuffix(" \($0)") } } }
        // Numbers in order, absent last (in source order).
        #expect(names(try succeed(load + ["sort size"])) == ["gamma", "alpha", "zeta", "epsilon", "beta", "delta"])
        #expect(names(try succeed(load + ["sort size desc"])) == ["epsilon", "zeta", "alpha", "gamma", "beta", "delta"])
        #expect(names(try succeed(load + ["filter size > 5"])) == ["alpha", "epsilon", "zeta"])
        let groups = try succeed(load + ["group size"])
        #expect(ValueReadingTests.groupLines(groups).dropFirst(2).compactMap { $0.split(separator: " ").first.map(String.init) }
                == ["<none>", "2", "10", "25", "100"], "\(groups)")
        // Right-aligned: 10, 2, 100 and 25 end where the column's title ends.
        let listing = try succeed(load + ["page"])
        let header = Array(try #require(listing.lines.first))
        let end = try #require((0...(header.count - 4)).first { String(header[$0..<$0 + 4]) == "size" }) + 4
        let rows = listing.lines.filter { line in ["alpha", "gamma", "epsilon", "zeta"].contains { line.contains(" \($0) ") } }.map(Array.init)
        #expect(rows.count == 4 && rows.allSatisfy { $0.count >= end && $0[end - 1].isNumber && ($0.count == end || $0[end] == " ") }, "sizes right-aligned\n\(listing)")
    }
}
