import Foundation
import Testing
@testable import AlmanacCore

/// The expression language: tokens with positions, the parser, the binder's type errors, and
/// the evaluator's answers against values computed here from the raw files by Foundation.
@Suite struct ExpressionLanguageTests {
    static func words(_ text: String) -> [(text: String, isQuoted: Bool)] { ExpressionTokens.words(of: text) }

    @Test func canonicalTextParsesBackToTheSameExpression() throws {
        for text in ["population / area", "(population + 1) * 2", "-area", "name || ' ' || capital", "year(created) = 2014",
                     "round(population / area, 2)", "not (a = 1 or b = 2) and c is not null", "a - (b - c)", "coalesce(gini, 0)",
                     "name =~ '^Un'", "created > 2014-12-10", "x = 'it''s'"] {
            let expression = try Expression.parse(text)
            #expect(try Expression.parse(expression.description) == expression, "\(text) → \(expression)")
        }
        #expect(try Expression.parse("population/area").description == "population / area")
        #expect(try Expression.parse("(a * b) + c").description == "a * b + c")
        #expect(try Expression.parse("a - (b - c)").description == "a - (b - c)")
    }

    @Test func aBareWordRightOfAComparisonIsText() throws {
        #expect(try Expression.parse("region = Europe").node
            == .comparison(.equal, Expression(.field("region")), Expression(.text("Europe", bare: true))))
        // In arithmetic, a name is a field.
        guard case let .comparison(_, _, right) = try Expression.parse("population > area * 2").node,
              case .arithmetic(.multiply, _, _) = right.node else { Issue.record("not arithmetic"); return }
        // Values filters always took whole: links, SWAPI's years, time zones.
        for (text, value) in [("url = https://swapi.dev/api/films/1/", "https://swapi.dev/api/films/1/"), ("birth_year = 19BBY", "19BBY"),
                              ("timezones ~ UTC+01", "UTC+01"), ("people ~ /66/", "/66/")] {
            guard case let .comparison(_, _, right) = try Expression.parse(text).node, case let .text(found, _) = right.node else {
                Issue.record("\(text)"); continue
            }
            #expect(found == value)
        }
        #expect(try Expression.parse("a == 1") == Expression.parse("a = 1"))
        #expect(try Expression.parse("iso639-1 = es").fields == ["iso639-1"])
    }

    @Test func tokensKnowTheirWordAndCharacters() throws {
        let tokens = ExpressionTokens.tokens([("population/area", false), (">", false), ("'x'", true)])
        #expect(tokens.map(\.text) == ["population", "/", "area", ">", "'x'"])
        #expect(tokens.map(\.word) == [0, 0, 0, 1, 2])
        #expect(tokens[2].characters == 11..<15)
    }

    @Test func syntaxErrorsSayWhereTheyAre() {
        #expect(throws: ExpressionError.syntax("missing ')'")) { try Expression.parse("(a + b") }
        do {
            _ = try Expression.parse("a + * b")
            Issue.record("parsed")
        } catch {
            #expect(error.message == "expected a value or a field before '*'")
            #expect(error.span?.startWord == 2)
        }
    }

    @Test func aListOfItemsTakesNamesAndDirections() throws {
        let items = try ExpressionList.parse(ExpressionTokens.tokens(Self.words("population / area as density desc, name")),
                                             suffixes: ["asc", "desc"])
        #expect(items.map(\.spec) == ["population / area as density", "name"])
        #expect(items.map(\.suffix) == ["desc", nil])
        #expect(try ComputedField.parse("population / area as density").name == "density")
        #expect(ComputedField.title(of: "population / area as density") == "density")
    }
}

@Suite struct ExpressionEvaluationTests {
    nonisolated(unsafe) static let countries = RawData.object("countries.json") as! [[String: Any]]
    nonisolated(unsafe) static let people = RawData.object("people.json") as! [[String: Any]]

    func names(_ text: String, _ dataset: Dataset) throws -> [String] {
        AlmanacCoreTests.names(try Filter.run(FilterExpression.parse(FilterExpression.tokens(ExpressionTokens.words(of: text))),
                                              on: .all([dataset])))
    }

    func bind(_ text: String, _ dataset: Dataset) throws -> BoundExpression {
        try ExpressionBinder(DatasetFields(dataset, catalog: dataset.fields)).bind(Expression.parse(text))
    }

    func values(_ text: String, _ dataset: Dataset) throws -> ValueVector {
        try ExpressionEvaluator(dataset: dataset, catalog: dataset.fields, rows: Array(0..<dataset.count)).evaluate(bind(text, dataset))
    }

    @Test func densityIsRealDivisionAndAbsentWithoutAnArea() throws {
        let expected = Self.countries.filter { country in
            guard let population = country["population"] as? Double, let area = country["area"] as? Double, area != 0 else { return false }
            return population / area > 1000
        }.map { $0["name"] as! String }
        #expect(try names("population / area > 1000", RealData.countries) == expected)
        #expect(expected.count == 12)
        let density = try values("population / area", RealData.countries).numbers
        let withoutArea = Self.countries.indices.filter { Self.countries[$0]["area"] == nil }
        #expect(withoutArea.count == 10)
        #expect(withoutArea.allSatisfy { density[$0].isNaN })
        #expect(try names("population / 0 > 0 or population / 0 <= 0", RealData.countries).isEmpty)
        #expect(try names("population / 0 is null", RealData.countries).count == Self.countries.count)
    }

    @Test func regularExpressionsCountsAndYears() throws {
        let un = Self.countries.compactMap { $0["name"] as? String }.filter { $0.hasPrefix("Un") }
        #expect(try names("name =~ '^Un'", RealData.countries) == un)
        let noBorders = Self.countries.filter { ($0["borders"] as? [Any])?.isEmpty ?? true }.map { $0["name"] as! String }
        #expect(try names("count(borders) = 0", RealData.countries) == noBorders)
        let created2014 = Self.people.filter { ($0["created"] as! String).hasPrefix("2014") }.map { $0["name"] as! String }
        #expect(try names("year(created) = 2014", RealData.people) == created2014)
        let longNames = Self.countries.compactMap { $0["name"] as? String }.filter { $0.unicodeScalars.count > 40 }
        #expect(try names("length(name) > 40", RealData.countries) == longNames)
    }

    @Test func numbersWrittenAsTextComputeAsNumbers() throws {
        let expected = Self.people.filter { person in
            guard let height = Double(person["height"] as! String), let mass = Double((person["mass"] as! String).replacingOccurrences(of: ",", with: "")) else { return false }
            return mass / (height / 100 * height / 100) > 30
        }.map { $0["name"] as! String }
        #expect(try names("mass / (height / 100 * height / 100) > 30", RealData.people) == expected)
        #expect(!expected.isEmpty)
    }

    @Test func aTypeErrorIsRefusedWithTheOperandsPlace() throws {
        do {
            _ = try bind("name / 2", RealData.countries)
            Issue.record("bound")
        } catch let error as ExpressionError {
            #expect(error.message == "'name' is text; '/' needs numbers")
            #expect(error.span?.startWord == 0 && error.span?.endCharacter == 4)
        }
        #expect(throws: ExpressionError.self) { try bind("lenght(name)", RealData.countries) }
        do {
            _ = try bind("lenght(name)", RealData.countries)
        } catch {
            #expect("\(error)" == "unknown function 'lenght' — did you mean length?")
        }
    }

    /// `help expressions` lists group's aggregates beside the functions: one written outside
    /// group said "unknown function 'sum' — 'help expressions' lists them", where it is listed.
    @Test func anAggregateOutsideGroupSaysOnlyGroupComputesIt() throws {
        for (text, name, word) in [("sum(population)", "sum", 0), ("area / MAX(area)", "max", 2), ("avg(gini) > 30", "avg", 0)] {
            do {
                _ = try bind(text, RealData.countries)
                Issue.record("bound \(text)")
            } catch let error as ExpressionError {
                #expect(error.message == "\(name)(…) is an aggregate, which only group computes, after its keys: group region \(name)(population)")
                // The caret under the name alone.
                #expect(error.span?.startWord == word && error.span?.startCharacter == 0 && error.span?.endCharacter == 3, "\(text)")
            }
        }
    }

    @Test func calendarPartsAndYearNamedColumnsAreNotGroupedInThousands() {
        for spec in ["year(closed)", "year(closed) as y", "month(created)", "day(created) as d", "weekday(created)", "birth_year",
                     "cityId", "population / area as year"] {
            #expect(!ComputedField.groupsThousands(spec), "\(spec)")
        }
        // Quantities: arithmetic on a year is not a year; a field or another function is grouped.
        for spec in ["population", "population / area as density", "year(closed) * 1 as z", "year(closed) + 1", "length(name)",
                     "round(area)", "closed"] {
            #expect(ComputedField.groupsThousands(spec), "\(spec)")
        }
        #expect(ExpressionFunction.all.filter(\.isCalendarPart).map(\.name) == ["year", "month", "day", "weekday"])
    }

    @Test func oldFiltersAnswerAsBefore() throws {
        let europe = Self.countries.filter { $0["region"] as? String == "Europe" }.map { $0["name"] as! String }
        #expect(try names("region = Europe", RealData.countries) == europe)
        #expect(try names("region == europe", RealData.countries) == europe)
        #expect(try names("(region = Europe)", RealData.countries) == europe)
    }

    @Test func anObjectIsNullOnlyWhenItIsNullOrMissing() throws {
        let dataset = try MapTests.generic("""
            [{"n": "a", "milestone": {"title": "v2.0", "due_on": null}},
             {"n": "b", "milestone": null},
             {"n": "c"},
             {"n": "d", "milestone": {"title": "v1.0", "due_on": "2024-06-30"}}]
            """)
        let rows = { (text: String) in try self.names(text, dataset) }
        #expect(try rows("milestone = null") == ["b", "c"])
        #expect(try rows("milestone is null") == ["b", "c"])
        #expect(try rows("milestone != null") == ["a", "d"])
        #expect(try rows("milestone.due_on is null") == ["a", "b", "c"])
        #expect(try rows("milestone.title = v2.0") == ["a"])
        #expect(try rows("milestone.due_on - 2024-06-01 = 29") == ["d"])
    }

    @Test func datesSubtractToDaysAndFunctionsApply() throws {
        let dataset = try MapTests.generic("""
            [{"n": "a", "at": "2024-06-30", "x": 2.675, "s": "  Hello  "}, {"n": "b", "at": "2024-01-01T12:00:00Z", "x": -4, "s": "n/a"}]
            """)
        #expect(try values("at - 2024-01-01", dataset).numbers == [181, 0.5])
        #expect(try values("weekday(at)", dataset).numbers == [7, 1])
        #expect(try values("round(x, 2)", dataset).numbers == [2.68, -4])
        // Past 300 digits either way: the number itself, or 0 (as PostgreSQL's numeric answers).
        #expect(try values("round(x, 309)", dataset).numbers == [2.675, -4])
        #expect(try values("round(x, -400)", dataset).numbers == [0, 0])
        // A tiny number rounded to 1e10 digits is itself, and to -1e10 digits 0 (it was NaN).
        #expect(try values("round(x * 1e-300, 1e10)", dataset).numbers == [2.675 * 1e-300, -4 * 1e-300])
        #expect(try values("round(x * 1e300, -1e10)", dataset).numbers == [0, 0])
        // Under half a unit of the last place is 0, also below Decimal's reach (1e-320).
        #expect(try values("round(x * 1e-320, 1)", dataset).numbers == [0, 0])
        #expect(try values("round(x / 100, 1)", dataset).numbers == [0, 0])
        #expect(try values("round(x / 50, 1)", dataset).numbers == [0.1, -0.1])
        #expect(try values("sqrt(x)", dataset).numbers.map(\.isNaN) == [false, true])
        #expect(try values("upper(trim(s))", dataset).texts == ["HELLO", nil])
        // Simple case mapping, one character for one, as PostgreSQL and DuckDB map case.
        #expect(try values("upper('straße') || lower('İSTANBUL') || upper('ᾳﬁŉ') || lower('ΟΔΟΣ') || upper('ǆé')", dataset).texts
                == ["STRAßE" + "istanbul" + "ᾼﬁŉ" + "οδοσ" + "ǄÉ", "STRAßE" + "istanbul" + "ᾼﬁŉ" + "οδοσ" + "ǄÉ"])
        #expect(try values("coalesce(s, 'none')", dataset).texts == ["  Hello  ", "none"])
        #expect(try values("substr('almanac', 2, 3)", dataset).texts == ["lma", "lma"])
        #expect(try values("at + 1", dataset).text(at: 0) == "2024-07-01T00:00:00Z")
    }

    @Test func computedGroupsSortsHistogramsAndProfiles() throws {
        // Average density per region, computed here from the raw records.
        var sums: [String: (sum: Double, count: Int, records: Int)] = [:]
        for country in Self.countries {
            let region = country["region"] as! String
            var entry = sums[region] ?? (0, 0, 0)
            entry.records += 1
            if let population = country["population"] as? Double, let area = country["area"] as? Double, area != 0 {
                entry.sum += population / area
                entry.count += 1
            }
            sums[region] = entry
        }
        let groups = try Group.run(.all([RealData.countries]), by: GroupSpec(fields: ["region"],
                                   aggregates: [Aggregate(.avg, "population / area", name: "density")]))
        #expect(groups.count == sums.count)
        for group in groups {
            let expected = sums[group.values[0]]!
            #expect(group.count == expected.records)
            guard case let .number(average) = group.aggregates[0] else { Issue.record("no average"); continue }
            #expect(abs(average - expected.sum / Double(expected.count)) < 1e-9)
        }
        // By a computed key, named.
        let years = try Group.run(.all([RealData.people]), by: GroupSpec(fields: ["year(created) as year"]))
        #expect(years.map(\.values) == [["2014"]] && years.first?.count == Self.people.count)
        let members = try Group.members(of: years[0], by: GroupSpec(fields: ["year(created) as year"]), in: .all([RealData.people]))
        #expect(members.count == Self.people.count)
        // Sorted by length of name, longest first; equal lengths keep their order.
        let sorted = AlmanacCoreTests.names(try Sort.run(.all([RealData.countries]), by: [SortKey("length(name)", descending: true)]))
        let expected = Self.countries.map { $0["name"] as! String }.enumerated()
            .sorted { $0.element.unicodeScalars.count != $1.element.unicodeScalars.count
                ? $0.element.unicodeScalars.count > $1.element.unicodeScalars.count : $0.offset < $1.offset }.map(\.element)
        #expect(sorted == expected)
        // Histogram and describe of a computed value.
        let withDensity = Self.countries.filter { ($0["population"] as? Double ?? 0) > 0 && ($0["area"] as? Double ?? 0) > 0 }.count
        let measured = try FieldMeasurements.read("log10(population / area)", from: .all([RealData.countries]))
        #expect(measured.recordsWithValue == withDensity)
        #expect(measured.histogram(bins: 8).bins.map(\.count).reduce(0, +) == withDensity)
        let profile = try Describe.run(.all([RealData.countries]), fields: ["population / area"]).first!.profile
        #expect(profile.present == Self.countries.filter { $0["area"] != nil }.count)
        #expect(profile.type == "number")
    }

    @Test func aFieldOnlyOneDatasetHasIsAbsentInTheOthers() throws {
        let dense = Self.countries.filter { country in
            guard let population = country["population"] as? Double, let area = country["area"] as? Double, area != 0 else { return false }
            return population / area > 5000
        }.count
        let tall = Self.people.filter { Double($0["height"] as! String).map { $0 / 100 > 2 } ?? false }.count
        let results = try Filter.run(FilterExpression.parse(FilterExpression.tokens(ExpressionTokens.words(of: "population / area > 5000 or height / 100 > 2"))),
                                     on: .all([RealData.countries, RealData.people]))
        #expect(results.count == dense + tall)
        #expect(dense == 5 && tall > 0)
        let sorted = try Sort.run(.all([RealData.countries, RealData.people]), by: [SortKey("population / area", descending: true)])
        #expect(sorted.count == Self.countries.count + Self.people.count)
    }
}
