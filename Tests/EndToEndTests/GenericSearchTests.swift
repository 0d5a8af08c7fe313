import Foundation
import Testing

/// A generic dataset is searched and shown by all its short text fields, not only the one
/// that names its records, and `fields` says which field that is.
@Suite("Search and show in generic datasets")
struct GenericSearchTests {
    let home: TemporaryHome
    let quotes: [[String: Any]] = [
        ["quote": "I can resist everything except temptation.", "author": "Oscar Wilde", "year": 1892],
        ["quote": "Никто не обнимет необъятного.", "author": "Козьма Прутков", "year": 1854],
        ["quote": "The secret of getting ahead is getting started.", "author": "Mark Twain", "year": 1900],
    ]
    let file: String

    init() throws {
        home = try TemporaryHome()
        // Written by hand: the order of the keys decides which field names the records.
        let lines = quotes.map { quote in
            "{\"quote\": \"\(quote["quote"] as? String ?? "")\", \"author\": \"\(quote["author"] as? String ?? "")\", \"year\": \(quote["year"] as? Int ?? 0)}"
        }
        file = try home.write("[" + lines.joined(separator: ",\n") + "]", to: "quotes.json")
    }

    func run(_ commands: [String]) throws -> PipeResult {
        try home.run(["load quotes from \(file)", "use quotes"] + commands, options: ["--no-rc"])
    }

    func quote(by author: String) -> String { quotes.first { ($0["author"] as? String) == author }?["quote"] as? String ?? "?" }

    @Test("show \"Oscar Wilde\" finds the record by its author")
    func showFindsByAnyShortTextField() throws {
        let result = try run(["show \"Oscar Wilde\""])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        #expect(result.stdout.hasPrefix(quote(by: "Oscar Wilde") + "\n"), "\(result)")
        #expect(result.stdout.contains("author  Oscar Wilde"), "\(result)")
    }

    @Test("search прутков looks at the author too, and still at the quote")
    func searchCoversShortTextFields() throws {
        let byAuthor = try run(["search прутков"])
        #expect(byAuthor.status == 0, "\(byAuthor)")
        #expect(byAuthor.stdout.contains(quote(by: "Козьма Прутков")) && !byAuthor.stdout.contains("Oscar"), "\(byAuthor)")
        let byQuote = try run(["search temptation"])
        #expect(byQuote.stdout.contains("Oscar Wilde") && !byQuote.stdout.contains("Twain"), "\(byQuote)")
        // A number is not a name: the year finds nothing.
        let byYear = try run(["search 1892"])
        #expect(byYear.stdout.contains("no records"), "\(byYear)")
    }

    @Test("fields says which field names the records and which ones search looks at")
    func fieldsSaysWhichIsTheName() throws {
        let result = try run(["fields"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("names the records: quote; search and show also look at author"), "\(result)")
    }
}
