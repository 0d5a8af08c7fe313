import Foundation
import Testing
@testable import AlmanacShell

/// The exploring commands against the real data, through the command language.
@Suite struct CommandTests {
    let shell = ShellHarness()

    @Test func searchListsRankedResults() {
        let result = shell.output("use countries; search Iran")
        #expect(result.ok)
        let lines = result.out.split(separator: "\n")
        #expect(lines[2].contains("Iran (Islamic Republic of)"))
        #expect(result.out.contains("Cook Islands"))
    }

    @Test func filterThenCountThenShowRow() {
        #expect(shell.output("use countries; filter region = Europe and population > 10000000; count").out.hasSuffix("15\n"))
        let show = shell.output("show #4")
        #expect(show.out.hasPrefix("Germany\n"))
    }

    @Test func unknownFieldSuggests() {
        let result = shell.output("use countries; filter popluation > 5")
        #expect(!result.ok)
        #expect(result.err.contains("unknown field 'popluation' — did you mean 'population'?"))
    }

    @Test func showByIdentityAndName() {
        #expect(shell.output("use countries; show NO").out.hasPrefix("Norway\n"))
        #expect(shell.output("use countries; show nor").out.hasPrefix("Norway\n"))
        #expect(shell.output("use stations; show 9362").out.contains("Республика Татарстан"))
        #expect(shell.output("use species; show 3").out.hasPrefix("Wookie\n"))
        let hutt = shell.output("use species; show Hutt").out
        #expect(hutt.contains("Their average lifespan is 1,000 years."))
        #expect(hutt.contains("Nal Hutta"))
    }

    @Test func ambiguousNamesListCandidates() {
        let result = shell.output("use countries; show united")
        #expect(!result.ok)
        #expect(result.err.contains("United Kingdom of Great Britain and Northern Ireland"))
    }

    @Test func emptySectionsAreNotPrinted() {
        let antarctica = shell.output("use countries; show Antarctica").out
        #expect(!antarctica.contains("Capital"))
        #expect(!antarctica.contains("Gini"))
        #expect(antarctica.contains("74.650° S"))
    }

    @Test func jsonFormatIsTheSourceSchema() throws {
        let result = shell.output("use countries; set format json; search norway")
        let parsed = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [[String: Any]]
        #expect(parsed?.count == 1)
        #expect(parsed?.first?["alpha3Code"] as? String == "NOR")
        let show = shell.output("show NOR")
        let object = try JSONSerialization.jsonObject(with: Data(show.out.utf8)) as? [String: Any]
        #expect((object?["translations"] as? [String: String])?["ru"] == "Норвегия")
    }

    @Test func csvParsesBack() throws {
        let result = shell.output("use countries; set format csv; filter region = Polar")
        let lines = result.out.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("alpha2Code,alpha3Code,"))
        #expect(lines[1].hasPrefix("AQ,ATA,[],14000000,[],\"[\"\"672\"\"]\",,"))
    }

    @Test func groupLargestFirst() {
        let out = shell.output("use stations; group countryTitle, cityTitle").out
        let lines = out.split(separator: "\n")
        #expect(lines[2].contains("Россия"))
        #expect(lines[2].contains("город Москва"))
    }

    @Test func pagesWithAPageSize() {
        let first = shell.output("use countries; set pagesize 20; sort name").out
        #expect(first.contains("rows 1–20 of 250 · page 1/13"))
        let second = shell.output("page next").out
        #expect(second.contains("rows 21–40 of 250 · page 2/13"))
        #expect(shell.output("page last").out.contains("page 13/13"))
        #expect(!shell.output("page next").ok)
    }

    @Test func tripNeedsTheRightDirections() {
        let ok = shell.output("trip from 9864 to 9362 on 2026-12-01")
        #expect(ok.ok, "\(ok.err)")
        #expect(ok.out.contains("Tuesday 1 December 2026"))
        #expect(ok.out.contains("km"))
        let wrong = shell.output("trip from 9362 to 9864")
        #expect(!wrong.ok)
        #expect(wrong.err.contains("serves only arrivals (to)"))
    }

    /// Москва [7073] takes only arrivals; of the city's stations 53 serve departures and 37
    /// arrivals (Data/stations.json: distinct stationIds of город Москва under citiesFrom and
    /// citiesTo). The refusal names them, those spelled like the name typed first.
    @Test func aStationServingTheOtherWayNamesItsCitysStationsThatDo() {
        let departure = shell.output("trip from Москва to 9362").err
        #expect(departure.contains("Москва [7073] serves only arrivals (to); a trip needs a departure station (from) here; "
            + "город Москва has 53 that do: "), "\(departure)")
        #expect(departure.contains("Москва (Варшавская) [8226]"), "\(departure)")
        #expect(departure.contains(", …"))
        let arrival = shell.output("trip from 9864 to 8226").err
        #expect(arrival.contains("Москва (Варшавская) [8226] serves only departures (from); a trip needs an arrival station (to) here; "
            + "город Москва has 37 that do: "), "\(arrival)")
    }

    @Test func exportRefusesToOverwrite() throws {
        let path = NSTemporaryDirectory() + "almanac-export-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(shell.output("use countries; filter region = Polar; export \(path)").ok)
        let exported = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [[String: Any]]
        #expect(exported?.first?["name"] as? String == "Antarctica")
        let again = shell.output("export \(path)")
        #expect(!again.ok)
        #expect(again.err.contains("--force"))
        #expect(shell.output("export \(path) --force").ok)
    }
}
