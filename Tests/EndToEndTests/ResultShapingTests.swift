import Foundation
import Testing

/// Shaping results through pipes — multi-key sort with absent values last, chosen columns,
/// group aggregates, drill-down, back and describe — each answer checked against what the
/// test computes itself from Data/*.json.
@Suite("Shaping results: sort, columns, group, drill-down, back, describe")
struct ResultShapingTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    /// Runs `commands` (one -c each) and returns each command's own output.
    func run(_ commands: [String], format: String = "json") throws -> CommandOutputs.Run {
        let run = try CommandOutputs.run(commands, arguments: ["--format", format], environment: home.environment(), directory: home.root)
        return run
    }

    func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) }

    // MARK: - Data, read independently

    nonisolated(unsafe) static let countries = records("countries")
    nonisolated(unsafe) static let species = records("species")

    static func records(_ name: String) -> [[String: Any]] {
        guard let data = FileManager.default.contents(atPath: DataFolder.realFile(name)),
              let array = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return [] }
        return array
    }

    /// The words data uses for "no value" (almanac's rule).
    static func isAbsent(_ value: Any?) -> Bool {
        guard let value, !(value is NSNull) else { return true }
        guard let text = value as? String else { return false }
        return ["", "n/a", "unknown", "none"].contains(text.trimmingCharacters(in: .whitespaces).lowercased())
    }

    static func fold(_ text: String) -> String { text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil) }

    static func number(_ value: Any?) -> Double? {
        if let number = value as? NSNumber { return number.doubleValue }
        if let text = value as? String { return Double(text.replacingOccurrences(of: ",", with: "")) }
        return nil
    }

    // MARK: - Sort

    @Test("sort KEY, KEY desc: text folded, numbers (written as text) as numbers, absent values last in both directions")
    func multiKeySortWithAbsentLast() throws {
        let output = try run(["use species", "sort classification, average_lifespan desc", "sort average_lifespan", "sort average_lifespan desc"])
        #expect(output.status == 0, "\(output)")
        // Expected, computed here: absent last per key; numbers numerically; stable.
        func key(_ record: [String: Any], _ field: String, numeric: Bool) -> (absent: Bool, number: Double, text: String) {
            let value = record[field]
            if numeric {
                let number = Self.isAbsent(value) ? nil : Self.number(value)
                return (number == nil, number ?? 0, "")
            }
            return (Self.isAbsent(value), 0, Self.isAbsent(value) ? "" : Self.fold(value as? String ?? ""))
        }
        let indexed = Self.species.enumerated().map { ($0.offset, $0.element) }
        let expected = indexed.sorted { a, b in
            let (x, y) = (key(a.1, "classification", numeric: false), key(b.1, "classification", numeric: false))
            if x.absent != y.absent { return !x.absent }
            if x.text != y.text { return x.text < y.text }
            let (p, q) = (key(a.1, "average_lifespan", numeric: true), key(b.1, "average_lifespan", numeric: true))
            if p.absent != q.absent { return !p.absent }
            if p.number != q.number { return p.number > q.number }
            return a.0 < b.0
        }.map { $0.1["name"] as? String ?? "" }
        let sorted = try #require(try json(output.output(of: "sort classification, average_lifespan desc") ?? "") as? [[String: Any]])
        #expect(sorted.map { $0["name"] as? String ?? "" } == expected)

        let absent = Set(Self.species.filter { Self.number($0["average_lifespan"]) == nil }.compactMap { $0["name"] as? String })
        #expect(absent.contains("Droid"), "indefinite is no number, so absent in a field of numbers")
        for command in ["sort average_lifespan", "sort average_lifespan desc"] {
            let records = try #require(try json(output.output(of: command) ?? "") as? [[String: Any]])
            let names = records.map { $0["name"] as? String ?? "" }
            #expect(Set(names.suffix(absent.count)) == absent, "\(command): absent values last\n\(names)")
            let numbers = records.prefix(records.count - absent.count).compactMap { Self.number($0["average_lifespan"]) }
            #expect(numbers == (command.hasSuffix("desc") ? numbers.sorted(by: >) : numbers.sorted()), "\(command): \(numbers)")
            // Each keeps its own text.
            #expect(records.contains { $0["average_lifespan"] as? String == "indefinite" })
            #expect(records.contains { $0["average_lifespan"] as? String == "unknown" })
        }
    }

    @Test("a sorted field is shown as a column; sort takes several keys by commas")
    func sortShowsItsField() throws {
        let output = try run(["use countries", "sort area desc", "set format csv", "sort region, area"], format: "table")
        let table = output.output(of: "sort area desc") ?? ""
        #expect(table.lines.first?.split(separator: " ").contains("area") == true, "\(table.prefix(300))")
        // The largest area first: computed from the data.
        let largest = Self.countries.max { (Self.number($0["area"]) ?? -1) < (Self.number($1["area"]) ?? -1) }?["name"] as? String
        #expect(table.lines.dropFirst(2).first?.contains(largest ?? "?") == true, "\(table.prefix(400))")
    }

    // MARK: - Columns

    @Test("columns chooses the columns of table, csv and json; +F, -F, reset; a sort field is added; without chosen columns export writes whole records")
    func columnsChooseWhatIsShown() throws {
        let folder = home.root
        let output = try run(["use countries", "columns name, population", "set format csv", "columns +area", "columns -population",
                              "sort capital", "columns reset", "columns", "export \(folder)/all.json"])
        #expect(output.status == 0, "\(output)")
        let chosen = try #require(try json(output.output(of: "columns name, population") ?? "") as? [[String: Any]])
        #expect(chosen.count == Self.countries.count && chosen.allSatisfy { Set($0.keys) == ["name", "population"] })
        #expect(chosen.first { $0["name"] as? String == "Norway" }?["population"] as? Int == 5_379_475)
        func header(_ command: String) -> [String] {
            (output.output(of: command) ?? "").lines.first?.split(separator: ",").map(String.init) ?? []
        }
        #expect(header("columns +area") == ["name", "population", "area"])
        #expect(header("columns -population") == ["name", "area"])
        #expect(header("sort capital") == ["name", "area", "capital"], "the sort field is shown")
        #expect(header("columns reset").contains("alpha2Code") && header("columns reset").contains("translations.de"),
                "without chosen columns csv writes whole records")
        let exported = try #require(try json(home.read(folder + "/all.json") ?? "") as? [[String: Any]])
        #expect(exported.count == Self.countries.count && exported.allSatisfy { $0["translations"] != nil })
    }

    @Test("a sign inside a computed column is arithmetic, not +FIELD or -FIELD; -NAME drops the column computed as NAME")
    func signedArithmeticInColumns() throws {
        let output = try run(["use countries", "filter name = Norway", "columns name, population + 1 as p, -area as west, area - 1 as a1",
                              "columns -p", "columns name, -area"])
        let norway = try #require(Self.countries.first { $0["name"] as? String == "Norway" })
        let population = try #require(Self.number(norway["population"])), area = try #require(Self.number(norway["area"]))
        let computed = try #require(try json(output.output(of: output.commands[2]) ?? "") as? [[String: Any]], "\(output)")
        #expect(computed.count == 1 && Set(computed[0].keys) == ["name", "p", "west", "a1"])
        #expect((computed[0]["p"] as? NSNumber)?.doubleValue == population + 1)
        #expect((computed[0]["west"] as? NSNumber)?.doubleValue == -area)
        #expect((computed[0]["a1"] as? NSNumber)?.doubleValue == area - 1)
        let dropped = try #require(try json(output.output(of: "columns -p") ?? "") as? [[String: Any]])
        #expect(dropped.count == 1 && Set(dropped[0].keys) == ["name", "west", "a1"])
        #expect(output.output(of: "columns name, -area")?.contains("either name the columns, or add and drop") == true, "\(output)")
    }

    // MARK: - Group

    @Test("group with aggregates: count, percent, sum, avg, min, max, distinct per region, as the data gives them")
    func groupAggregatesMatchTheData() throws {
        let output = try run(["use countries", "group region sum population, avg area, min population, max population, distinct subregion, count gini"])
        let groups = try #require(try json(output.output(of: output.commands[1]) ?? "") as? [[String: Any]], "\(output)")
        var byRegion: [String: [[String: Any]]] = [:]
        for country in Self.countries { byRegion[Self.isAbsent(country["region"]) ? "" : country["region"] as! String, default: []].append(country) }
        #expect(groups.count == byRegion.count)
        for group in groups {
            let region = group["region"] as? String ?? ""
            let members = try #require(byRegion[region], "\(region)")
            #expect(group["count"] as? Int == members.count, "\(region)")
            #expect(group["percent"] as? Double == (Double(members.count) * 1000 / Double(Self.countries.count)).rounded() / 10, "\(region)")
            let populations = members.compactMap { Self.number($0["population"]) }
            #expect((group["sum population"] as? NSNumber)?.doubleValue == populations.reduce(0, +), "\(region)")
            #expect((group["min population"] as? NSNumber)?.doubleValue == populations.min(), "\(region)")
            #expect((group["max population"] as? NSNumber)?.doubleValue == populations.max(), "\(region)")
            let areas = members.compactMap { Self.number($0["area"]) }
            if let average = (group["avg area"] as? NSNumber)?.doubleValue {
                #expect(abs(average - areas.reduce(0, +) / Double(areas.count)) < 1e-6, "\(region)")
            } else {
                #expect(areas.isEmpty, "\(region)")
            }
            let subregions = Set(members.compactMap { Self.isAbsent($0["subregion"]) ? nil : $0["subregion"] as? String })
            #expect(group["distinct subregion"] as? Int == subregions.count, "\(region)")
            #expect(group["count gini"] as? Int == members.filter { Self.number($0["gini"]) != nil }.count, "\(region)")
        }
        // Largest first, equal counts by value.
        let keys = groups.map { (count: $0["count"] as? Int ?? 0, region: Self.fold($0["region"] as? String ?? "")) }
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0.count > $1.count || ($0.count == $1.count && $0.region <= $1.region) })
    }

    @Test("group on a list field counts each element, with a <none> group for records without one")
    func groupListFieldCountsElements() throws {
        let output = try run(["use countries", "group languages.name", "group capital"])
        let languages = try #require(try json(output.output(of: "group languages.name") ?? "") as? [[String: Any]])
        let english = Self.countries.filter { (($0["languages"] as? [[String: Any]]) ?? []).contains { $0["name"] as? String == "English" } }.count
        #expect(languages.first?["languages.name"] as? String == "English" && languages.first?["count"] as? Int == english)
        let capitals = try #require(try json(output.output(of: "group capital") ?? "") as? [[String: Any]])
        let none = capitals.first { $0["capital"] is NSNull }
        #expect(none?["count"] as? Int == Self.countries.filter { Self.isAbsent($0["capital"]) }.count, "\(capitals.prefix(3))")
        let table = try run(["use countries", "group capital"], format: "table")
        #expect(table.output(of: "group capital")?.contains("<none>") == true)
    }

    // MARK: - Drill-down and back

    @Test("show #N after group lists group N's records; back undoes one step at a time, then says there is nothing")
    func drillDownAndBack() throws {
        let output = try run(["use countries", "filter population > 1000000", "group region", "show #2", "count", "back", "count",
                              "sort area desc", "back", "back", "count", "back"])
        let filtered = Self.countries.filter { (Self.number($0["population"]) ?? 0) > 1_000_000 }
        let groups = try #require(try json(output.output(of: "group region") ?? "") as? [[String: Any]])
        let second = groups[1]["region"] as? String ?? ""
        let drilled = try #require(try json(output.output(of: "show #2") ?? "") as? [[String: Any]])
        let expected = filtered.filter { $0["region"] as? String == second }.compactMap { $0["name"] as? String }
        #expect(drilled.compactMap { $0["name"] as? String } == expected, "group #2 is \(second)")
        #expect(drilled.count == groups[1]["count"] as? Int)
        func count(after: Int) throws -> Int? {
            try (json(output.output(of: "count", after: after) ?? "") as? [String: Any])?["count"] as? Int
        }
        #expect(try count(after: 4) == expected.count)
        #expect(try count(after: 6) == filtered.count, "back undid the drill-down")
        #expect(try count(after: 10) == Self.countries.count, "back undid the sort, then the filter")
        #expect(output.outputs.last?.contains("nothing to undo") == true, "\(output.outputs.last ?? "")")
        #expect(output.status == 1)
    }

    @Test("back undoes a columns change")
    func backUndoesColumns() throws {
        let output = try run(["use countries", "columns name", "back", "columns"])
        let columns = try #require(try json(output.output(of: "columns") ?? "") as? [String: Any])
        #expect(columns["chosen"] as? Bool == false)
        #expect((columns["columns"] as? [String])?.first == "name" && (columns["columns"] as? [String])?.count ?? 0 > 1)
    }

    // MARK: - Describe

    @Test("describe: present, absent, distinct, min, max, mean, quartiles and common values, as the data gives them")
    func describeMatchesTheData() throws {
        let output = try run(["use countries", "describe population, area, region"])
        let profiles = try #require(try json(output.output(of: output.commands[1]) ?? "") as? [[String: Any]], "\(output)")
        #expect(profiles.map { $0["field"] as? String ?? "" } == ["population", "area", "region"])
        for profile in profiles.prefix(2) {
            let field = profile["field"] as! String
            let numbers = Self.countries.compactMap { Self.number($0[field]) }.sorted()
            #expect(profile["present"] as? Int == numbers.count, "\(field)")
            #expect(profile["absent"] as? Int == Self.countries.count - numbers.count, "\(field)")
            #expect(profile["distinct"] as? Int == Set(numbers).count, "\(field)")
            #expect((profile["min"] as? NSNumber)?.doubleValue == numbers.first, "\(field)")
            #expect((profile["max"] as? NSNumber)?.doubleValue == numbers.last, "\(field)")
            func quantile(_ fraction: Double) -> Double {
                let position = fraction * Double(numbers.count - 1)
                let low = Int(position.rounded(.down))
                let high = min(low + 1, numbers.count - 1)
                return numbers[low] + (numbers[high] - numbers[low]) * (position - Double(low))
            }
            let mean = numbers.reduce(0, +) / Double(numbers.count)
            for (key, value) in [("mean", mean), ("q1", quantile(0.25)), ("median", quantile(0.5)), ("q3", quantile(0.75))] {
                let shown = (profile[key] as? NSNumber)?.doubleValue ?? .nan
                #expect(abs(shown - value) <= 0.0005 * max(1, abs(value)), "\(field) \(key): \(shown) vs \(value)")
            }
        }
        let region = profiles[2]
        var counts: [String: Int] = [:]
        for country in Self.countries where !Self.isAbsent(country["region"]) { counts[country["region"] as! String, default: 0] += 1 }
        let common = (region["common"] as? [[String: Any]]) ?? []
        let top = counts.sorted { $0.value > $1.value }.prefix(5)
        #expect(common.map { $0["count"] as? Int ?? 0 } == top.map(\.value))
        #expect(common.allSatisfy { counts[$0["value"] as? String ?? ""] == $0["count"] as? Int })
    }

    @Test("describe draws each numeric field's distribution: histogram's twelve bins, counted from the data, as a sparkline")
    func describeDrawsTheDistribution() throws {
        let output = try run(["use countries", "describe population, area, region", "histogram population 12", "histogram area 12"])
        let profiles = try #require(try json(output.output(of: output.commands[1]) ?? "") as? [[String: Any]], "\(output)")
        for (index, field) in ["population", "area"].enumerated() {
            let distribution = try #require(profiles[index]["distribution"] as? [Int], "\(field): \(profiles[index])")
            // The bins are histogram's: its bounds, with the values of the data file counted into them here.
            // (Standard error shares the pipe: histogram's note on records without a value is left out.)
            let histogram = (output.output(of: output.commands[2 + index]) ?? "").lines.filter { !$0.hasPrefix("note:") }.joined(separator: "\n")
            let bins = try #require(try json(histogram) as? [[String: Any]], "\(histogram)")
            let numbers = Self.countries.compactMap { Self.number($0[field]) }
            let counted = bins.enumerated().map { place, bin in
                let lower = (bin["lower"] as! NSNumber).doubleValue, upper = (bin["upper"] as! NSNumber).doubleValue
                return numbers.filter { $0 >= lower && ($0 < upper || (place == bins.count - 1 && $0 <= upper)) }.count
            }
            #expect(distribution == counted, "\(field)")
            #expect(distribution.count == 12 && distribution.reduce(0, +) == numbers.count, "\(field)")
        }
        #expect(profiles[2]["distribution"] is NSNull, "text has no distribution")
        // People see it drawn: each bin's height in eighths of the largest, any non-empty bin at least ▂.
        let table = try run(["use countries", "describe population"], format: "table")
        let line = try #require(table.output(of: "describe population")?.lines.first { $0.hasPrefix("population") }, "\(table)")
        let counts = try #require(profiles[0]["distribution"] as? [Int])
        let levels = Array("▁▂▃▄▅▆▇█")
        let largest = Double(counts.max()!)
        let expected = String(counts.map { count in
            count == 0 ? levels[0] : levels[min(7, max(1, Int((Double(count) / largest * 7).rounded(.up))))]
        })
        #expect(line.contains(expected), "\(line) should show \(expected)")
    }

    // MARK: - Display

    @Test("set expanded on: one line per field, the field's name then its value, for each record")
    func expandedThroughAPipe() throws {
        let output = try run(["use countries", "set expanded on", "search norway"], format: "table")
        let lines = output.output(of: "search norway")?.lines ?? []
        #expect(lines.first?.hasPrefix("─[ 1 ]") == true, "\(lines)")
        #expect(lines.contains { $0.range(of: #"^name +Norway$"#, options: .regularExpression) != nil }, "\(lines)")
        #expect(lines.contains { $0.range(of: #"^population +5,379,475$"#, options: .regularExpression) != nil }, "\(lines)")
    }

    @Test("set timer on: each command's time on standard error, standard output unchanged")
    func timerGoesToStandardError() throws {
        let result = try PipeRun.run(["--format", "json", "-c", "use countries", "-c", "set timer on", "-c", "count"],
                                     environment: home.environment(), directory: home.root)
        #expect(result.status == 0, "\(result)")
        #expect(try (json(result.stdout) as? [String: Any])?["count"] as? Int == Self.countries.count, "\(result)")
        // One line after `set timer on` itself, one after `count`.
        #expect(result.stderr.lines.count == 2 && result.stderr.lines.allSatisfy { $0.range(of: #"^time: [0-9.,]+ ms$"#, options: .regularExpression) != nil },
                "\(result)")
    }
}
