import Foundation
import Testing
@testable import AlmanacShell

@Suite struct CompletionTests {
    let shell = ShellHarness()

    func complete(_ text: String) -> Completer.Result {
        Completer().complete(text, in: shell.session)
    }

    @Test func commandNames() {
        #expect(complete("he").insertion == "help ")
        let several = complete("s")
        #expect(several.candidates.map(\.text).contains("search"))
        #expect(several.candidates.map(\.text).contains("set"))
    }

    @Test func longestCommonPrefix() {
        // search, set, show, sort: the common prefix of "se" is "se" itself, so nothing is inserted.
        #expect(complete("se").insertion == nil)
        #expect(complete("sea").insertion == "search ")
    }

    /// link DATASET.FIELD to DATASET.KEY: the datasets with their dot, then the fields of the
    /// dataset named (nothing was offered but the keywords before).
    @Test func linkCompletesDatasetsThenTheirFields() {
        _ = shell.output("use countries")
        _ = shell.output("count")
        #expect(complete("link cou").insertion == "countries.")
        #expect(complete("link countries.alpha").candidates.map(\.text) == ["countries.alpha2Code", "countries.alpha3Code"])
        #expect(complete("link countries.alpha3Code to countries.alpha3").insertion == "countries.alpha3Code ")
        #expect(complete("link countries.alpha3Code to nosuch.").candidates.isEmpty)
    }

    @Test func datasetNames() {
        #expect(complete("use cou").insertion == "countries ")
        #expect(complete("use ").candidates.map(\.text).contains("all"))
    }

    @Test func accentedNamesAreQuotedWhenNeeded() throws {
        _ = shell.output("use countries")
        _ = shell.output("count")
        #expect(complete("show aland").insertion == "\"Åland Islands\" ")
    }

    @Test("after near, TAB offers its distance beside the fields that start alike")
    func stepColumnIsOffered() throws {
        _ = shell.output("use stations")
        _ = shell.output("near Москва within 50 km")
        for line in ["sort dist", "histogram dist", "columns stationTitle, dist", "filter dist"] {
            #expect(complete(line).candidates.map(\.text).sorted() == ["distance", "districtTitle"], "\(line)")
        }
    }

    @Test("under use all, TAB offers dataset as a field, and the datasets as its values with their counts")
    func datasetFieldUnderUseAll() throws {
        _ = shell.output("use all")
        _ = shell.output("count")
        for line in ["group datas", "sort datas", "filter datas"] {
            #expect(complete(line).insertion == "dataset ", "\(line)")
        }
        let species = try #require(FileManager.default.contents(atPath: ShellHarness.dataDirectory + "/species.json"))
        let count = try #require(try JSONSerialization.jsonObject(with: species) as? [Any]).count
        #expect(complete("filter dataset = spe").candidates.map(\.listed) == ["species (\(count))"])
        #expect(complete("filter dataset = spe").insertion == "species ")
        // One dataset in use: no such field.
        _ = shell.output("use species")
        #expect(complete("group datas").candidates.isEmpty)
    }

    @Test func cyrillicNames() throws {
        _ = shell.output("use stations")
        _ = shell.output("count")
        let result = complete("show Чистопол")
        #expect(result.candidates.map(\.text).contains("Чистополь"))
    }

    @Test func fieldValuesWhenFew() throws {
        _ = shell.output("use countries")
        _ = shell.output("count")
        // Most records first, each with its count (listed beside it, not inserted).
        let regions = complete("filter region = ").candidates
        #expect(regions.map(\.text) == ["Africa", "Americas", "Europe", "Asia", "Oceania", "Polar"])
        let data = try #require(FileManager.default.contents(atPath: ShellHarness.dataDirectory + "/countries.json"))
        let records = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(regions.map(\.listed) == regions.map { region in "\(region.text) (\(records.filter { $0["region"] as? String == region.text }.count))" })
        #expect(complete("filter region = Eu").insertion == "Europe ")
        #expect(complete("filter popu").insertion == "population ")
        #expect(complete("filter currencies.co").insertion == "currencies.code ")
    }

    /// Inside an open quote a parenthesis is part of the value, not a function call: TAB offers
    /// the values that start with the quoted text (it offered `Virgin Islands (region` and the
    /// other fields).
    @Test func aQuotedValueKeepsItsParenthesis() throws {
        _ = shell.output("use countries")
        _ = shell.output("count")
        let data = try #require(FileManager.default.contents(atPath: ShellHarness.dataDirectory + "/countries.json"))
        let records = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        let names = records.compactMap { $0["name"] as? String }.filter { $0.hasPrefix("Virgin Islands (") }.sorted()
        #expect(names == ["Virgin Islands (British)", "Virgin Islands (U.S.)"])
        #expect(complete("filter name = \"Virgin Islands (").candidates.map(\.text).sorted() == names)
        let british = complete("filter name = \"Virgin Islands (B")
        #expect(british.candidates.map(\.text) == ["Virgin Islands (British)"])
        #expect(british.insertion == "\"Virgin Islands (British)\" ")
        // Unquoted, the parenthesis still opens an expression.
        #expect(complete("filter lower(na").candidates.map(\.text).contains("lower(name"))
    }

    @Test func declaredKeywordsFlagsAndWords() {
        _ = shell.output("use stations")
        _ = shell.output("count")
        func texts(_ line: String) -> [String] { complete(line).candidates.map(\.text) }
        #expect(texts("trip ") == ["from", "--map", "--countries"])
        #expect(Array(texts("trip from 9864 ").suffix(3)) == ["to", "--map", "--countries"])
        #expect(texts("trip from 9864 to 9362 on ") == ["today", "tomorrow", "monday", "tuesday", "wednesday", "thursday", "friday",
                                                      "saturday", "sunday", "next"])
        #expect(texts("map ") == ["world", "--size"])
        #expect(texts("map world ") == ["--size"])
        #expect(texts("map --size ") == [])
        #expect(texts("export out.csv ") == ["all", "--force"])
        #expect(texts("load quotes ") == ["from"])
        #expect(texts("load ") == ["countries", "species", "planets", "people", "stations", "from"])
        // A word with a slash where the name goes is a path (load PATH): files complete there.
        #expect(texts("load \(ShellHarness.dataDirectory)/stat") == ["\(ShellHarness.dataDirectory)/stations.json"])
        #expect(texts("load stat") == ["stations"])
        #expect(texts("set format ") == ["table", "expanded", "json", "ndjson", "csv", "tsv", "markdown"])
        #expect(texts("set format json ") == [])
        #expect(texts("page ") == ["next", "prev", "first", "last"])
        #expect(texts("help so") == ["sort"])
        #expect(texts("help k") == ["keys"])
    }

    /// watch runs the commands that answer: TAB offers those, then the chosen one's own words.
    @Test func watchOffersTheCommandsThatAnswerThenTheirArguments() {
        _ = shell.output("use countries")
        _ = shell.output("count")
        func texts(_ line: String) -> [String] { complete(line).candidates.map(\.text) }
        let offered = texts("watch 5 ")
        let answering = shell.session.commands.commands.compactMap { command -> String? in command.spec.role == .answers ? command.spec.name : nil }
        #expect(offered == answering.filter { !["watch", "edit", "export", "save", "load", "quit", "history", "help"].contains($0) })
        #expect(offered.contains("count") && offered.contains("group") && offered.contains("page"))
        #expect(!offered.contains("filter") && !offered.contains("sort") && !offered.contains("watch") && !offered.contains("export"))
        #expect(texts("watch 5 gr") == ["group"])
        #expect(texts("watch 5 --count 3 gr") == ["group"])
        // After the command, what it completes alone (group's fields, page's words), then
        // watch's own --count, which may come last (watch 5 count --count 3).
        #expect(texts("watch 5 group reg") == texts("group reg"))
        #expect(texts("watch 5 group reg").contains("region"))
        #expect(texts("watch 5 page ") == ["next", "prev", "first", "last", "--count"])
        #expect(texts("watch 5 --count 3 page ") == ["next", "prev", "first", "last"])
        #expect(texts("watch 5 count ") == ["--count"])
        #expect(texts("watch 5 --count 3 filter ").isEmpty)
    }

    @Test func quoting() {
        #expect(Completer.quoted("Åland Islands", close: true) == "\"Åland Islands\"")
        #expect(Completer.quoted("plain", close: true) == "plain")
        #expect(Completer.quoted(#"say "hi""#, close: true) == #""say \"hi\"""#)
        #expect(Completer.quoted("United ", close: false) == "\"United ")
    }
}
