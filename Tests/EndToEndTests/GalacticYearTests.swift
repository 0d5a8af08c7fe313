import Foundation
import Testing

/// SWAPI's galactic years (`19BBY`, `41.9BBY`, `4ABY`) are signed years on the Battle of Yavin
/// calendar wherever a number is read — sort, filter, describe, histogram, in memory and on a
/// PostgreSQL table — and show as written; `fields` and `describe` give a field one type.
/// Expected values come from Data/people.json, read here with a parser of the test's own.
@Suite("Galactic years and field types")
struct GalacticYearTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    nonisolated(unsafe) static let people = ValueReadingTests.records("people")

    /// `19BBY` → −19, `4ABY` → 4; nil for anything else.
    static func year(_ value: Any?) -> Double? {
        guard let text = value as? String, text.count > 3 else { return nil }
        let number = Double(text.dropLast(3))
        if text.hasSuffix("BBY") { return number.map { -$0 } }
        if text.hasSuffix("ABY") { return number }
        return nil
    }

    func json(_ commands: [String], source: String = "people") throws -> [Any] {
        // --echo: every listing, one document each (a script otherwise answers once, at the end).
        let result = try PipeRun.run(["--no-rc", "--echo", "--format", "json", "-c", "use \(source)"] + commands.flatMap { ["-c", $0] },
                                     environment: home.environment(), directory: home.root)
        // Only notes (histogram's "note: 43 of 82 people have a value") and an empty filter's
        // explanation ("no records — birth_year > 4ABY removed all 82 records; …") on standard error.
        #expect(result.status == 0 && result.stderr.lines.allSatisfy { $0.hasPrefix("note: ") || $0.hasPrefix("no records — ") },
                "\(result)")
        return try JSONDocuments.split(result.stdout)
    }

    /// The people in birth order: galactic years ascending (stably), those without one last.
    static var namesByBirth: [String] {
        let dated = people.enumerated().compactMap { index, person in year(person["birth_year"]).map { (index, $0, person["name"] as! String) } }
        let sorted = dated.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }.map(\.2)
        return sorted + people.filter { year($0["birth_year"]) == nil }.map { $0["name"] as! String }
    }

    @Test("sort birth_year orders by the galactic year, earliest first; desc latest first; absent last either way")
    func sortsByYear() throws {
        let answers = try json(["sort birth_year", "sort birth_year desc"])
        let ascending = try #require(answers.first as? [[String: Any]]).map { $0["name"] as? String ?? "?" }
        #expect(ascending == Self.namesByBirth)
        #expect(ascending.first == "Yoda" && ascending[1] == "Jabba Desilijic Tiure", "896BBY, then 600BBY")
        let descending = try #require(answers.last as? [[String: Any]]).map { $0["birth_year"] as? String ?? "" }
        let years = descending.compactMap { Self.year($0) }
        #expect(years == years.sorted(by: >) && years.count == Self.people.compactMap { Self.year($0["birth_year"]) }.count)
        #expect(descending.first == "8BBY", "\(descending.prefix(3))")
    }

    @Test("filter birth_year < 100BBY: born more than 100 years before the battle", arguments: [
        ("<", "100BBY", -100.0), (">=", "19BBY", -19.0), ("<=", "41.9BBY", -41.9), (">", "4ABY", 4.0), ("<", "-100", -100.0),
    ])
    func filtersByYear(_ op: String, _ literal: String, _ bound: Double) throws {
        let answer = try json(["filter birth_year \(op) \(literal)"])
        let names = Set(try #require(answer.first as? [[String: Any]]).map { $0["name"] as? String ?? "?" })
        let expected = Set(Self.people.filter { person in
            guard let year = Self.year(person["birth_year"]) else { return false }
            switch op {
            case "<": return year < bound
            case "<=": return year <= bound
            case ">": return year > bound
            default: return year >= bound
            }
        }.map { $0["name"] as! String })
        #expect(names == expected)
        if literal == "100BBY" { #expect(names == ["Yoda", "Jabba Desilijic Tiure", "Chewbacca", "C-3PO", "Dooku"]) }
    }

    @Test("describe birth_year: a number as text, its statistics written as galactic years")
    func describesYears() throws {
        let profile = try #require((try json(["describe birth_year"]).first as? [[String: Any]])?.first)
        let years = Self.people.compactMap { Self.year($0["birth_year"]) }.sorted()
        func quartile(_ fraction: Double) -> Double {
            let position = fraction * Double(years.count - 1)
            let low = Int(position.rounded(.down))
            return years[low] + (years[min(low + 1, years.count - 1)] - years[low]) * (position - Double(low))
        }
        func written(_ year: Double) -> String {
            let rounded = (year * 1000).rounded() / 1000
            let digits = rounded == rounded.rounded() ? String(Int(abs(rounded))) : String(abs(rounded))
            return digits + (rounded > 0 ? "ABY" : "BBY")
        }
        #expect(profile["type"] as? String == "number (as text)")
        #expect(profile["present"] as? Int == years.count)
        #expect(profile["min"] as? String == "896BBY" && profile["max"] as? String == "8BBY", "\(profile)")
        #expect(profile["median"] as? String == written(quartile(0.5)), "\(profile)")
        #expect(profile["q1"] as? String == written(quartile(0.25)) && profile["q3"] as? String == written(quartile(0.75)), "\(profile)")
        #expect(profile["mean"] as? String == written(years.reduce(0, +) / Double(years.count)), "\(profile)")
        // People read it in the table too.
        let table = try PipeRun.run(["--no-rc", "-c", "use people", "-c", "describe birth_year"], environment: home.environment(), directory: home.root)
        #expect(table.stdout.contains("896BBY") && table.stdout.contains("8BBY") && !table.stdout.contains("-896"), "\(table)")
    }

    @Test("histogram birth_year bins the years, labelled as galactic years, every value counted in its bin")
    func histogramOfYears() throws {
        for bins in [nil, 9] as [Int?] {
            let answer = try json(["histogram birth_year" + (bins.map { " \($0)" } ?? "")])
            let rows = try #require(answer.first as? [[String: Any]])
            let years = Self.people.compactMap { Self.year($0["birth_year"]) }
            #expect(rows.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == years.count)
            if let bins { #expect(rows.count == bins) }
            for (index, row) in rows.enumerated() {
                let lower = try #require(Self.year(row["lower"]), "\(row)")
                let upper = try #require(Self.year(row["upper"]), "\(row)")
                let inside = years.filter { $0 >= lower && ($0 < upper || (index == rows.count - 1 && $0 == upper)) }.count
                #expect(row["count"] as? Int == inside, "\(row)")
            }
        }
        let table = try PipeRun.run(["--no-rc", "-c", "use people", "-c", "histogram birth_year 9"], environment: home.environment(), directory: home.root)
        #expect(table.stdout.contains("BBY – ") && !table.stdout.contains("-9"), "\(table)")
    }

    @Test("fields and describe give every field the same type; ISO timestamps are dates in both", arguments: ["people", "species", "planets", "countries"])
    func fieldsAndDescribeAgree(_ dataset: String) throws {
        let answers = try json(["fields", "describe"], source: dataset)
        let fields = try #require(answers.first as? [[String: Any]])
        let profiles = try #require(answers.last as? [[String: Any]])
        var types: [String: String] = [:]
        for field in fields { types[field["field"] as? String ?? "?"] = field["type"] as? String }
        for profile in profiles {
            let name = profile["field"] as? String ?? "?"
            #expect(types[name] == profile["type"] as? String, "\(dataset).\(name): fields says \(types[name] ?? "-"), describe \(profile["type"] ?? "-")")
        }
        if dataset != "countries" {
            #expect(types["created"] == "date" && types["edited"] == "date", "\(types)")
        }
        if dataset == "people" { #expect(types["birth_year"] == "number (as text)" && types["height"] == "number (as text)", "\(types)") }
    }

    @Test("on a PostgreSQL table galactic years sort and filter as in memory")
    func galacticYearsInPostgres() throws {
        let (file, url) = try Database.exported("people", as: "galactic_people", in: home)
        let script = ["sort birth_year", "filter birth_year < 100BBY", "count", "filter clear", "filter birth_year >= 19BBY", "sort birth_year desc",
                      "filter clear"]
        func names(_ source: String) throws -> [[String]] {
            let run = try PipeRun.run(["--no-rc", "--echo", "--format", "json", "-c", "load d from \(source)", "-c", "use d"] + script.flatMap { ["-c", $0] },
                                      environment: home.environment(), directory: home.root)
            #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
            return try JSONDocuments.split(run.stdout).compactMap { ($0 as? [[String: Any]])?.map { $0["name"] as? String ?? "?" } }
        }
        let memory = try names(file)
        let database = try names(url)
        #expect(memory.first == Self.namesByBirth)
        #expect(database == memory)
        #expect(Set(database[1]) == ["Yoda", "Jabba Desilijic Tiure", "Chewbacca", "C-3PO", "Dooku"])
    }

    /// `describe FIELD` of the people loaded from `source`, as JSON.
    func profile(_ field: String, from source: String) throws -> [String: Any] {
        let run = try PipeRun.run(["--no-rc", "--format", "json", "-c", "load d from \(source)", "-c", "use d", "-c", "describe \(field)"],
                                  environment: home.environment(), directory: home.root)
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
        return try #require((try JSONDocuments.split(run.stdout).first as? [[String: Any]])?.first)
    }

    @Test("on a PostgreSQL table describe writes galactic years' statistics as memory does")
    func describeInPostgres() throws {
        let (file, url) = try Database.exported("people", as: "galactic_people_describe", in: home)
        let memory = try profile("birth_year", from: file)
        let database = try profile("birth_year", from: url)
        #expect(memory["min"] as? String == "896BBY" && memory["max"] as? String == "8BBY", "\(memory)")
        for key in ["min", "max", "mean", "q1", "median", "q3", "present", "absent", "distinct"] {
            #expect(String(describing: memory[key] ?? "-") == String(describing: database[key] ?? "-"), "\(key): memory \(memory[key] ?? "-"), table \(database[key] ?? "-")")
        }
    }

    @Test("on a PostgreSQL table a text column of ISO timestamps is described as dates, as in memory")
    func describesTextDatesInPostgres() throws {
        let (file, url) = try Database.exported("people", as: "dated_people_describe", in: home)
        // Every `created` is written alike (`2014-12-09T13:50:51.644Z`): the text orders as the instant.
        let created = Self.people.compactMap { $0["created"] as? String }.sorted()
        let memory = try profile("created", from: file)
        let database = try profile("created", from: url)
        #expect(memory["type"] as? String == "date" && memory["min"] as? String == created.first && memory["max"] as? String == created.last,
                "\(memory)")
        for key in ["type", "min", "max", "mean", "q1", "median", "q3", "present", "absent", "distinct", "distribution"] {
            #expect(String(describing: memory[key] ?? "-") == String(describing: database[key] ?? "-"), "\(key): memory \(memory[key] ?? "-"), table \(database[key] ?? "-")")
        }
    }

    /// The key a field, or an expression (then every key and aggregate is computed as a vector).
    @Test("group's min, max and mean of galactic years are written as such, in memory and on a table", arguments: [
        ("gender min birth_year, max birth_year, avg birth_year", "galactic_people_group"),
        ("lower(gender) as gender min(birth_year), max(birth_year), avg(birth_year)", "galactic_people_group_computed"),
    ])
    func groupAggregates(_ spec: String, _ table: String) throws {
        let (file, url) = try Database.exported("people", as: table, in: home)
        func groups(_ source: String) throws -> [[String: Any]] {
            let run = try PipeRun.run(["--no-rc", "--format", "json", "-c", "load d from \(source)", "-c", "use d",
                                       "-c", "group \(spec)"],
                                      environment: home.environment(), directory: home.root)
            #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
            return try #require(try JSONDocuments.split(run.stdout).first as? [[String: Any]])
        }
        func written(_ year: Double) -> String {
            let rounded = (year * 1000).rounded() / 1000
            return (rounded == rounded.rounded() ? String(Int(abs(rounded))) : String(abs(rounded))) + (rounded > 0 ? "ABY" : "BBY")
        }
        let memory = try groups(file)
        for group in memory {
            let gender = group["gender"] as? String
            let years = Self.people.filter { ($0["gender"] as? String).flatMap { ValueReadingTests.isAbsent($0) ? nil : $0 } == gender }
                .compactMap { Self.year($0["birth_year"]) }
            guard !years.isEmpty else { continue }
            #expect(group["min birth_year"] as? String == written(years.min()!), "\(group)")
            #expect(group["max birth_year"] as? String == written(years.max()!), "\(group)")
            #expect(group["avg birth_year"] as? String == written(years.reduce(0, +) / Double(years.count)), "\(group)")
        }
        #expect(memory.contains { $0["min birth_year"] as? String == "896BBY" })
        let database = try groups(url)
        #expect(try database.map(PostgresDifferentialTests.canonical) == memory.map(PostgresDifferentialTests.canonical))
    }
}
