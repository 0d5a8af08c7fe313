import AlmanacCore
import AlmanacPostgres
import PostgresCluster
import Testing

/// Expressions computed in memory (over a generic copy of a bundled dataset) and by the
/// database (over the table it was exported to): the whole answers must be equal — the rows
/// and their order, the groups with their counts and aggregates, the profiles.
@Suite struct ExpressionParityTests {
    typealias Case = MemoryParityTests.Case

    /// Computed filters: `MemoryParityTests` runs them with the other filters.
    static let filters: [Case] = [
        Case(dataset: "countries", text: "population / area > 100"),
        Case(dataset: "countries", text: "population / area <= 1.5"),
        Case(dataset: "countries", text: "name =~ '^Un'"),
        Case(dataset: "countries", text: "name =~ '(?i)^republic'"),
        Case(dataset: "countries", text: "count(borders) = 0"),
        Case(dataset: "countries", text: "count(borders) >= 5 and region = Asia"),
        Case(dataset: "countries", text: "length(name) > 25"),
        Case(dataset: "countries", text: "lower(region) = 'europe'"),
        Case(dataset: "countries", text: "population % 7 = 3"),
        Case(dataset: "countries", text: "area is null"),
        Case(dataset: "countries", text: "gini = null"),
        Case(dataset: "countries", text: "gini is not null and gini * 2 > 80"),
        Case(dataset: "countries", text: "-population < -100000000"),
        Case(dataset: "countries", text: "upper(substr(name, 1, 3)) = 'SAN'"),
        // Simple case mapping in both (STRASSE, a dotted i or FI would match nothing), and
        // no final sigma: Åland Islands, Curaçao, Cyprus (Κύπρος).
        Case(dataset: "countries", text: "upper('straße') || lower('İ') || upper('ﬁ') =~ '^STRAßEiﬁ$' and (upper(name) =~ 'ÅLAND|ÇAO' or lower(upper(nativeName)) =~ 'ύπροσ$')"),
        Case(dataset: "countries", text: "replace(name, ' ', '') ~ 'islands'"),
        Case(dataset: "countries", text: "coalesce(gini, 0) = 0"),
        Case(dataset: "countries", text: "abs(latlng) > 70"),
        Case(dataset: "countries", text: "round(area / 1000) = 1"),
        Case(dataset: "countries", text: "round(population / area, 1) = 0.1"),
        Case(dataset: "countries", text: "sqrt(area) > 1000"),
        Case(dataset: "countries", text: "ln(population) > 19"),
        Case(dataset: "countries", text: "log10(population) >= 8"),
        Case(dataset: "countries", text: "power(area, 0.5) > 1000"),
        Case(dataset: "countries", text: "floor(population / 1000000) = 5"),
        Case(dataset: "countries", text: "ceil(gini) = 40"),
        Case(dataset: "countries", text: "name || capital ~ 'oo'"),
        Case(dataset: "countries", text: "borders = FRA and population / area > 100"),
        Case(dataset: "countries", text: "not (population / area > 100)"),
        Case(dataset: "countries", text: "lower(borders) = 'fra'"),
        Case(dataset: "countries", text: "population / area > 1000 or count(borders) = 0"),
        Case(dataset: "countries", text: "numericCode =~ '^0'"),
        Case(dataset: "countries", text: "name =~ '\\bof\\b' and not name =~ 'd\\B'"),
        Case(dataset: "countries", text: "round(area, 309) = (area) and round(area, -400) = 0"),
        // Digits past an int: the database's round takes at most an int.
        Case(dataset: "countries", text: "round(area, 1e10) = (area) and round(area, -1e10) = 0 and round(-area, -1e10) = 0"),
        Case(dataset: "countries", text: "length(numericCode) = 3 and substr(numericCode, 1, 2) = '00'"),
        Case(dataset: "species", text: "average_height * 2 > 400"),
        Case(dataset: "species", text: "average_lifespan is null"),
        Case(dataset: "species", text: "average_height / 100 >= 1.8 and classification = mammal"),
        Case(dataset: "people", text: "mass / (height / 100 * height / 100) > 25"),
        Case(dataset: "people", text: "year(created) = 2014"),
        Case(dataset: "people", text: "weekday(created) = 6"),
        Case(dataset: "people", text: "day(created) > 15 and month(created) = 12"),
        Case(dataset: "people", text: "edited - created > 0.5"),
        Case(dataset: "people", text: "created + 10 > 2014-12-20"),
        Case(dataset: "people", text: "birth_year + 0 < -100"),
        Case(dataset: "planets", text: "diameter / rotation_period > 500"),
        Case(dataset: "stations", text: "point.latitude - point.longitude > 20"),
        Case(dataset: "stations", text: "round(point.latitude) = 55"),
        Case(dataset: "stations", text: "length(stationTitle) > 30"),
    ]

    static let sorts: [Case] = [
        Case(dataset: "countries", text: "population / area desc"),
        Case(dataset: "countries", text: "length(name) desc"),
        Case(dataset: "countries", text: "lower(capital)"),
        Case(dataset: "countries", text: "coalesce(gini, 0) desc"),
        Case(dataset: "countries", text: "count(borders) desc"),
        Case(dataset: "people", text: "edited - created"),
        Case(dataset: "people", text: "birth_year * -1 desc"),
        Case(dataset: "species", text: "average_height * 2 desc"),
        Case(dataset: "stations", text: "point.latitude + point.longitude"),
    ]

    @Test(arguments: sorts) func aComputedSortOrdersAsInMemory(_ check: Case) throws {
        let table = try TestCluster.shared().bundledTable(check.dataset)
        let memory = try BundledData.generic(check.dataset)
        let descending = check.text.hasSuffix(" desc")
        let key = SortKey(descending ? String(check.text.dropLast(5)) : check.text, descending: descending)
        let expected = names(try Sort.run(.all([memory]), by: [key]))
        let found = try allNames(table, TableQuery(sort: [key]))
        #expect(found == expected)
        if let first = zip(found, expected).enumerated().first(where: { $0.element.0 != $0.element.1 }) {
            Issue.record("first difference at \(first.offset): \(String(describing: first.element.0)) vs \(String(describing: first.element.1))")
        }
    }

    /// A text column of galactic years (`19BBY`) is numbers to the binder, as in memory: the
    /// five born before 100BBY in Data/people.json (896, 600, 200, 112 and 102BBY), in file order.
    @Test func galacticYearsComputeOnATableAsNumbers() throws {
        let table = try TestCluster.shared().bundledTable("people")
        let expression = try parseFilter("birth_year + 0 < -100")
        #expect(try allNames(table, TableQuery(filters: [expression])) == ["C-3PO", "Chewbacca", "Jabba Desilijic Tiure", "Yoda", "Dooku"])
    }

    static let groups: [(dataset: String, spec: GroupSpec)] = [
        ("countries", GroupSpec(fields: ["region"], aggregates: [Aggregate(.avg, "population / area", name: "density"),
                                                                 Aggregate(.max, "length(name)"), Aggregate(.count, "gini * 1"),
                                                                 Aggregate(.sum, "population / 1000")])),
        ("countries", GroupSpec(fields: ["round(log10(population))"])),
        ("countries", GroupSpec(fields: ["count(borders) as neighbours", "region"])),
        ("countries", GroupSpec(fields: ["lower(subregion)"], aggregates: [Aggregate(.min, "upper(name)"), Aggregate(.distinct, "region")])),
        ("people", GroupSpec(fields: ["year(created) as year"], aggregates: [Aggregate(.avg, "mass / (height / 100 * height / 100)")])),
        ("stations", GroupSpec(fields: ["round(point.latitude)"])),
    ]

    @Test func computedGroupsCountAndAggregateAsInMemory() throws {
        for (dataset, spec) in Self.groups {
            let table = try TestCluster.shared().bundledTable(dataset)
            let memory = try BundledData.generic(dataset)
            let expected = Array(try Group.run(.all([memory]), by: spec))
            let found = try table.group(by: spec)
            #expect(found.map(\.values) == expected.map(\.values), "\(spec)")
            #expect(found.map(\.numbers) == expected.map(\.numbers), "\(spec)")
            #expect(found.map(\.count) == expected.map(\.count), "\(spec)")
            for (row, group) in zip(found, expected) {
                for (text, value) in zip(row.aggregates, group.aggregates) {
                    switch (AggregateValue(text: text), value) {
                    case let (.number(a), .number(b)): #expect(abs(a - b) <= 1e-9 * max(1, abs(b)), "\(spec) \(group.values)")
                    case let (a, b): #expect(a == b, "\(spec) \(group.values)")
                    }
                }
            }
        }
    }

    @Test func computedProfilesAndColumnsAsInMemory() throws {
        let table = try TestCluster.shared().bundledTable("countries")
        let memory = try BundledData.generic("countries")
        let specs = ["population / area", "length(name)", "upper(region)"]
        let expected = try Describe.run(.all([memory]), fields: specs).map(\.profile)
        let found = try table.describe(fields: specs)
        #expect(found.map(\.field) == expected.map(\.field))
        #expect(found.map(\.present) == expected.map(\.present))
        #expect(found.map(\.absent) == expected.map(\.absent))
        #expect(found.map(\.distinct) == expected.map(\.distinct))
        #expect(found.map(\.type) == expected.map(\.type))
        for (a, b) in zip(found, expected) {
            #expect(a.minimum.map { ($0 * 1e6).rounded() } == b.minimum.map { ($0 * 1e6).rounded() }, "\(a.field)")
            #expect(a.maximum.map { ($0 * 1e6).rounded() } == b.maximum.map { ($0 * 1e6).rounded() }, "\(a.field)")
            #expect(a.distribution == b.distribution, "\(a.field)")
            #expect(a.common.map(\.value) == b.common.map(\.value), "\(a.field)")
        }
        // A computed column: the database adds it to each row.
        let spec = "population / area as density"
        let page = try table.page(limit: 1000, computed: [spec]).rows
        let densities = try ComputedValues.evaluate(ComputedField.parse(spec).expression, over: .all([memory])).numbers
        let sent = try #require(page.extras[ComputedColumns.self]?.values[spec])
        let read = sent.map { value -> Double in
            switch value {
            case let .integer(number): Double(number)
            case let .decimal(number): number
            default: .nan
            }
        }
        #expect(read.count == densities.count)
        #expect(zip(read, densities).allSatisfy { $0.isNaN ? $1.isNaN : abs($0 - $1) <= 1e-9 * max(1, abs($1)) })
    }

    @Test func whatCannotBeTranslatedSaysSo() throws {
        let table = try TestCluster.shared().bundledTable("countries")
        #expect(throws: (any Error).self) { try table.count(TableQuery(filters: [try parseFilter("name / 2 > 1")])) }
        do {
            _ = try table.count(TableQuery(filters: [try parseFilter("name / 2 > 1")]))
        } catch {
            #expect("\(error)" == "'name' is text; '/' needs numbers")
        }
        // Flags set after a pattern's start, which memory's ICU reads and PostgreSQL rejects
        // with no word of where ("quantifier operand invalid"), are refused saying so; at the
        // start they are the same answer: the 4 names beginning "united" in any case.
        for pattern in ["^(?i)united", "(?i:UNITED)", "Uni(?i)TED", "(?i-x)^united"] {
            let group = ["^(?i)united": "(?i)", "(?i:UNITED)": "(?i:…)", "Uni(?i)TED": "(?i)", "(?i-x)^united": "(?i-x)"][pattern]!
            #expect(throws: PostgresError.invalid("the pattern '\(pattern)' sets flags with \(group), which PostgreSQL's regular "
                + "expressions take only as one (?flags) at the very start: write '(?i)^un', not '^(?i)un' or '(?i:un)'")) {
                try table.count(TableQuery(filters: [try parseFilter("name =~ '\(pattern)'")]))
            }
        }
        #expect(try table.count(TableQuery(filters: [try parseFilter("name =~ '(?i)^united'")])) == 4)
        #expect(try table.count(TableQuery(filters: [try parseFilter("name =~ '[(?i)]x' or name =~ '\\(?i\\)'")])) == 0)
        // Every literal is a parameter.
        let sql = try table.countSQL(TableQuery(filters: [try parseFilter("name || 'x'' OR 1=1' ~ 'land' and population / 7 > 3")]))
        #expect(!sql.text.contains("OR 1=1") && !sql.text.contains("land") && !sql.text.contains(" 7"))
        #expect(sql.parameters.contains("x' OR 1=1"))
    }

    /// The kinds of columns a table has (Fixtures.swift's five `kinds` rows): integers divide as
    /// reals, dates compute as dates, an object is null only when it is itself.
    @Test func aTablesOwnColumnsComputeAsMemoryReadsThem() throws {
        let cluster = try TestCluster.shared()
        try cluster.kindsTable()
        let table = try PostgresTable.attach(name: "kinds", url: PostgresURL(cluster.url(table: "kinds")))
        func count(_ text: String) throws -> Int { try table.count(TableQuery(filters: [try parseFilter(text)])) }
        // 30000 / 7 is 4285.71…: integer division would leave Åland out.
        #expect(try count("population / 7 > 4285.7") == 4)
        #expect(try count("score / 0 is null") == 5)
        #expect(try count("year(born) = 1147") == 1)
        #expect(try count("born + 1 > 2020-12-31") == 1)
        #expect(try count("info.address is null") == 2)
        #expect(try count("info.address = null") == 2)
        #expect(try count("info is not null") == 5)
        #expect(try count("count(tags) = 0") == 1)
        #expect(try count("upper(city) = 'ZÜRICH'") == 1)
    }
}
