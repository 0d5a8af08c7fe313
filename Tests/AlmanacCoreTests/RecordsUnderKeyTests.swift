import Foundation
import Testing
@testable import AlmanacCore

/// An object document's records under a key are found (or named with `at`), and a file's
/// records are found by their id (or the field `key` names).
@Suite struct RecordsUnderKeyTests {
    let scratch = Scratch()

    @Test func largestListOfObjectsIsFoundAndNamed() throws {
        let path = try GitHubIssues.file(in: scratch, wrapped: true)
        let dataset = try loadFile(path, name: "issues")
        #expect(dataset.count == Int(try GitHubIssues.jq(".data.items | length", path)))
        #expect(dataset.origin.recordsAt == "data.items")
        #expect(GenericModel.summary(of: dataset) == "200 records from data.items")
        #expect(dataset.name(of: 0) == (try GitHubIssues.jq(".data.items[0].title", path)))
    }

    @Test func atNamesTheList() throws {
        let path = try GitHubIssues.file(in: scratch, wrapped: true)
        #expect(try loadFile(path, options: LoadOptions(recordsAt: "meta.links")).count == Int(try GitHubIssues.jq(".meta.links | length", path)))
        #expect(failure { try loadFile(path, options: LoadOptions(recordsAt: "data.kind")) }
            == "\(path): 'data.kind' is a string, not a list of records")
        #expect(failure { try loadFile(path, options: LoadOptions(recordsAt: "data.nope")) }
            == "\(path): no 'nope' in 'data'; its keys are items, kind")
        let array = try GitHubIssues.file(in: scratch, name: "plain.json")
        #expect(failure { try loadFile(array, options: LoadOptions(recordsAt: "data")) }
            == "\(array): 'at data' needs an object holding the records; found an array")
    }

    @Test func anObjectWithoutAListOfObjectsStillSaysWhatItFound() {
        let path = scratch.file("config.json", #"{"name": "x", "tags": ["a", "b"]}"#)
        #expect(failure { try loadFile(path) }.contains("found an object with keys name, tags"))
    }

    @Test func recordsAreFoundByTheirId() throws {
        let path = try GitHubIssues.file(in: scratch)
        let dataset = try loadFile(path)
        #expect(dataset.layout.identityField == "id")
        let row = try #require(dataset.row(forIdentity: "1000013"))
        #expect(dataset.name(of: row) == (try GitHubIssues.jq(".[] | select(.id == 1000013) | .title", path)))
        let byNumber = try loadFile(path, options: LoadOptions(key: "number"))
        #expect(byNumber.row(forIdentity: "14").map(byNumber.name(of:)) == (try GitHubIssues.jq(".[] | select(.number == 14) | .title", path)))
        #expect(failure { try loadFile(path, options: LoadOptions(key: "numbr")) } == "\(path): no record has a field 'numbr' to be the key — did you mean 'number'?")
    }

    /// A plain copy of a bundled dataset (countries.json loaded as any file, a people.csv) is
    /// found by that dataset's key: AUT is Austria, not one of the nine countries whose borders
    /// hold AUT; a person by url.
    @Test func aCopyOfABundledDatasetIsFoundByItsKey() throws {
        let countries = try loadFile(RealData.directory + "/countries.json", name: "copy")
        #expect(countries.layout.identityField == "alpha3Code")
        let raw = try #require(RawData.object("countries.json") as? [[String: Any]])
        let austria = try #require(raw.firstIndex { $0["alpha3Code"] as? String == "AUT" })
        #expect(countries.row(forIdentity: "aut") == austria)
        #expect(countries.name(of: austria) == "Austria")
        let people = try #require(RawData.object("people.json") as? [[String: Any]])
        let url = try #require(people[3]["url"] as? String)
        let csv = scratch.file("people.csv", "name,url,homeworld,species\n"
            + people.map { "\"\($0["name"] as? String ?? "")\",\($0["url"] as? String ?? ""),,\n" }.joined())
        let copy = try loadFile(csv, name: "people")
        #expect(copy.layout.identityField == "url")
        #expect(copy.row(forIdentity: url).map(copy.name(of:)) == people[3]["name"] as? String)
        // A file of other records keeps no key it does not have.
        #expect(try loadFile(scratch.file("codes.csv", "Code,Name\nNO,Norway\n")).layout.identityField == nil)
    }

    @Test func csvRecordsAreFoundByTheirKey() throws {
        let path = scratch.file("codes.csv", "Code,Name\nNO,Norway\nPE,Peru\n")
        let dataset = try loadFile(path, options: LoadOptions(key: "Code"))
        #expect(dataset.row(forIdentity: "pe").map(dataset.name(of:)) == "Peru")
        let uuid = scratch.file("things.csv", "UUID,label\n7f3c,one\n")
        #expect(try loadFile(uuid).row(forIdentity: "7F3C") == 0)
    }
}
