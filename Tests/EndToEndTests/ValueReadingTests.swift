import Foundation
import Testing

/// How values read for people, the same in every view: absent values (`null`, `""`, `n/a`,
/// `unknown`, `none`) are left out of details and listings and count as "<none>" in `group`;
/// numbers show as written, grouped in thousands unless the field holds years or identifiers.
/// Expected values are computed here from Data/*.json.
@Suite("Values read the same in every view")
struct ValueReadingTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    func succeed(_ commands: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try home.succeed(commands, options: ["--no-rc"], sourceLocation: sourceLocation)
    }

    static func records(_ dataset: String) -> [[String: Any]] {
        guard let data = FileManager.default.contents(atPath: DataFolder.realFile(dataset)),
              let array = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return [] }
        return array
    }

    static func isAbsent(_ value: Any?) -> Bool {
        guard let value, !(value is NSNull) else { return true }
        guard let text = value as? String else { return false }
        return ["", "n/a", "unknown", "none"].contains(text.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// `1000` → `1,000` (what the test expects of a quantity).
    static func grouped(_ digits: String) -> String {
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }

    @Test("species details leave out n/a and unknown: no such rows, no such words in the prose")
    func speciesDetailsLeaveOutAbsentValues() throws {
        let species = Self.records("species")
        let ids = species.compactMap { ($0["url"] as? String)?.split(separator: "/").last.map(String.init) }
        let shown = try succeed(["use species"] + ids.map { "show \($0)" })
        for word in ["n/a", "unknown", "none"] {
            #expect(!shown.lowercased().contains(word), "no species detail says \(word)\n\(shown)")
        }
        // One Language row per species that has a language; likewise the other rows.
        for (label, key) in [("Language", "language"), ("Classification", "classification"),
                             ("Average height", "average_height"), ("Average lifespan", "average_lifespan")] {
            let rows = shown.lines.filter { $0.hasPrefix("    \(label)  ") }.count
            let present = species.filter { !Self.isAbsent($0[key]) }.count
            #expect(rows == present, "\(label): \(rows) rows for \(present) species that have one")
        }
        // A species whose hair is n/a says nothing about hair.
        let hairless = try #require(species.first { ($0["hair_colors"] as? String) == "n/a" && ($0["eye_colors"] as? String) == "unknown" }
                                    ?? species.first { Self.isAbsent($0["hair_colors"]) })
        let name = try #require(hairless["name"] as? String)
        let detail = try succeed(["use species", "show \"\(name)\""])
        #expect(!detail.contains("hair") && !detail.contains("Hair"), "\(detail)")
    }

    @Test("country details leave out a currency the source leaves empty (null, (none))")
    func countryCurrenciesLeaveOutAbsentValues() throws {
        let countries = Self.records("countries")
        let codes = countries.compactMap { $0["alpha3Code"] as? String }
        let shown = try succeed(["use countries"] + codes.map { "show \($0)" })
        #expect(!shown.contains("(none)") && !shown.contains("Currency           ?"), "\(shown)")
        // One Currency row per currency with a name, code or symbol: East Timor's second
        // currency, all null, has none.
        let present = countries.flatMap { ($0["currencies"] as? [[String: Any]]) ?? [] }.filter { currency in
            ["name", "code", "symbol"].contains { !Self.isAbsent(currency[$0]) && (currency[$0] as? String) != "(none)" }
        }
        #expect(present.count < countries.flatMap { ($0["currencies"] as? [[String: Any]]) ?? [] }.count)
        #expect(shown.lines.filter { $0.hasPrefix("    Currency ") }.count == present.count, "\(shown)")
    }

    @Test("Hutt's lifespan reads 1,000 in the table, the detail and group")
    func oneFieldReadsTheSameEverywhere() throws {
        let hutt = try #require(Self.records("species").first { ($0["name"] as? String) == "Hutt" })
        let lifespan = Self.grouped(try #require(hutt["average_lifespan"] as? String))
        #expect(lifespan == "1,000")
        let table = try succeed(["use species", "search hutt"])
        let row = try #require(table.lines.first { $0.contains("Hutt") })
        #expect(row.split(separator: " ").contains(Substring(lifespan)), "\(table)")
        let detail = try succeed(["use species", "show Hutt"])
        #expect(detail.contains("Average lifespan  \(lifespan) years"), "\(detail)")
        #expect(detail.contains("Their average lifespan is \(lifespan) years."), "\(detail)")
        let groups = try succeed(["use species", "group average_lifespan"])
        #expect(Self.groupLines(groups).contains { $0.hasPrefix(lifespan + " ") }, "\(groups)")
    }

    @Test("sorting puts absent values last, with missing ones, in both directions")
    func sortPutsAbsentLast() throws {
        let species = Self.records("species")
        let absent = Set(species.filter { Self.isAbsent($0["average_lifespan"]) }.compactMap { $0["name"] as? String })
        #expect(!absent.isEmpty)
        for direction in ["asc", "desc"] {
            let output = try succeed(["use species", "set format csv", "sort average_lifespan \(direction)"])
            let names = try RecordFormats.table(try RecordFormats.csv(output)).records.compactMap { $0["name"] }
            #expect(names.count == species.count, "\(output)")
            #expect(Set(names.suffix(absent.count)) == absent, "\(direction): absent lifespans last\n\(names)")
        }
    }

    /// A group listing's lines without the group numbers (`#`, for `show #N`) before the values.
    static func groupLines(_ listing: String) -> [String] {
        listing.lines.map { line in
            guard let match = line.range(of: #"^ *[0-9]+  "#, options: .regularExpression) else { return line }
            return String(line[match.upperBound...])
        }
    }

    @Test("group counts absent values under <none>, with missing ones")
    func groupCountsAbsentAsNone() throws {
        let people = Self.records("people")
        let absent = people.filter { Self.isAbsent($0["hair_color"]) }.count
        let groups = try succeed(["use people", "group hair_color"])
        let line = try #require(Self.groupLines(groups).first { $0.hasPrefix("<none>") }, "\(groups)")
        // The count, then the percent, then the share's bar (eighth blocks).
        let words = line.split(separator: " ").filter { !$0.allSatisfy { "▏▎▍▌▋▊▉█".contains($0) } }
        #expect(words.dropLast().last.map(String.init) == String(absent), "count, then percent\n\(groups)")
        for word in ["n/a", "unknown"] { #expect(!Self.groupLines(groups).contains { $0.hasPrefix(word + " ") }, "\(groups)") }
    }

    @Test("numbers show as written: big and overflowing literals stay, years and ids are not grouped")
    func numbersAsWritten() throws {
        let big = "123456789012345678901234567890"
        let file = try home.write("""
            [{"title": "Alpha", "year": 1500, "stationId": 98640, "population": 1500, "big": \(big), "huge": 1e999, "note": "n/a", "empty": "", "gone": null},
             {"title": "Beta", "year": 2024, "stationId": 12, "population": 7, "big": 2, "huge": 1.50, "note": "kept"}]
            """, to: "numbers.json")
        let table = try succeed(["load numbers from \(file)", "use numbers", "filter title = Alpha"])
        let row = try #require(table.lines.first { $0.contains("Alpha") })
        let cells = row.split(separator: " ").map(String.init)
        for cell in ["1500", "98640", "1,500", Self.grouped(big)] { #expect(cells.contains(cell), "\(cell) in\n\(table)") }
        #expect(!table.contains("e+29") && !table.contains("877719597056"), "\(table)")
        #expect(!cells.contains("n/a"), "\(table)")
        let detail = try succeed(["load numbers from \(file)", "use numbers", "show Alpha"])
        #expect(detail.contains("big         \(Self.grouped(big))"), "\(detail)")
        #expect(detail.contains("huge        1e999") && !detail.contains("inf"), "\(detail)")
        #expect(detail.contains("year        1500") && detail.contains("population  1,500"), "\(detail)")
        for label in ["note", "empty", "gone"] { #expect(!detail.contains("    \(label) "), "\(label) is absent\n\(detail)") }
        let groups = try succeed(["load numbers from \(file)", "use numbers", "group huge", "group big", "group year"])
        for value in ["1e999", "1.50", Self.grouped(big), "1500", "2024"] {
            #expect(Self.groupLines(groups).contains { $0.hasPrefix(value + " ") }, "\(value) in\n\(groups)")
        }
        #expect(!groups.contains("e+29") && !groups.contains("inf"), "\(groups)")
        // Sorting still compares the numbers.
        let sorted = try succeed(["load numbers from \(file)", "use numbers", "sort big desc"])
        let order = sorted.lines.compactMap { $0.contains("Alpha") ? "Alpha" : $0.contains("Beta") ? "Beta" : nil }
        #expect(order == ["Alpha", "Beta"], "\(sorted)")
    }
}
