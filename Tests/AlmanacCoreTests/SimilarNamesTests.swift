import Foundation
import Testing
@testable import AlmanacCore

/// Names like a typed word (forgiving completion, "did you mean") and field values by prefix,
/// checked against a plain reference computed here from the data files: Foundation's folding
/// and an unbounded edit distance over every name.
@Suite struct SimilarNamesTests {
    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// Optimal string alignment distance, the whole table.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1) }
            }
        }
        return table[a.count][b.count]
    }

    /// The names the rule says: those with a word starting with `typed`; else those nearest
    /// (one edit, else two; none for fewer than three characters), as a whole or as a beginning.
    static func expected(_ typed: String, among names: [String], whole: Bool) -> Set<String> {
        let wanted = fold(typed)
        let words = Set(names.filter { name in
            let folded = fold(name)
            var start = folded.startIndex
            while let range = folded.range(of: wanted, range: start..<folded.endIndex) {
                if range.lowerBound == folded.startIndex { return true }
                let before = folded[folded.index(before: range.lowerBound)]
                if before.isASCII, !before.isLetter, !before.isNumber { return true }
                start = folded.index(after: range.lowerBound)
            }
            return false
        })
        if !words.isEmpty { return words }
        let limit = wanted.count < 3 ? 0 : wanted.count < 5 ? 1 : 2
        guard limit > 0 else { return [] }
        let typedCharacters = Array(wanted)
        var best: [Int: Set<String>] = [:]
        for name in names {
            let folded = Array(fold(name))
            let found: Int
            if whole {
                found = distance(typedCharacters, folded)
            } else {
                let shortest = max(0, typedCharacters.count - limit)
                let longest = min(folded.count, typedCharacters.count + limit)
                found = shortest > longest ? .max : (shortest...longest).map { distance(typedCharacters, Array(folded.prefix($0))) }.min()!
            }
            if found >= 1, found <= limit { best[found, default: []].insert(name) }
        }
        return best[1] ?? best[2] ?? []
    }

    static func similar(_ typed: String, in dataset: Dataset, whole: Bool) -> Set<String> {
        let rows = NameIndex.of(dataset).similarRows(to: typed, comparing: whole ? .whole : .beginning, limit: .max)
        return Set(rows.map { dataset.name(of: $0.row) })
    }

    @Test("like the reference on countries", arguments: ["norwya", "kingd", "kingdom", "swedn", "Untied", "xqzt", "gr", "ireland"])
    func countries(typed: String) {
        let names = RealData.countries.names
        for whole in [false, true] {
            #expect(Self.similar(typed, in: RealData.countries, whole: whole) == Self.expected(typed, among: names, whole: whole),
                    "\(typed), whole: \(whole)")
        }
    }

    @Test("like the reference on stations, Cyrillic included", arguments: ["Чстополь", "москв", "вокзал", "Казанскии", "Wien"])
    func stations(typed: String) {
        let names = RealData.stations.names
        for whole in [false, true] {
            #expect(Self.similar(typed, in: RealData.stations, whole: whole) == Self.expected(typed, among: names, whole: whole),
                    "\(typed), whole: \(whole)")
        }
    }

    @Test("the examples: norwya is Norway, kingdom is the United Kingdom, a typo in a Cyrillic name is found")
    func examples() {
        #expect(Self.similar("norwya", in: RealData.countries, whole: false) == ["Norway"])
        #expect(Self.similar("Norwya", in: RealData.countries, whole: true) == ["Norway"])
        #expect(Self.similar("kingdom", in: RealData.countries, whole: false) == ["United Kingdom of Great Britain and Northern Ireland"])
        #expect(Self.similar("Чистополъ", in: RealData.stations, whole: true) == ["Чистополь"])
    }

    // MARK: - Values

    /// Every value of a top-level field or a field of a list of objects, from the JSON file.
    static func values(_ file: String, records: (Any) -> [[String: Any]], path: [String]) throws -> Set<String> {
        let data = try #require(FileManager.default.contents(atPath: RealData.directory + "/" + file))
        var found = Set<String>()
        for record in records(try JSONSerialization.jsonObject(with: data)) {
            var level: [Any] = [record]
            for key in path {
                level = level.flatMap { node -> [Any] in
                    let value = (node as? [String: Any])?[key]
                    if let list = value as? [Any] { return list }
                    return value.map { [$0] } ?? []
                }
            }
            for value in level { if let text = value as? String, !text.isEmpty { found.insert(text) } }
        }
        return found
    }

    @Test("values by prefix however many: currencies.code EU is EUR, countryTitle Гер is Германия")
    func valuesByPrefix() throws {
        let codes = try Self.values("countries.json", records: { $0 as? [[String: Any]] ?? [] }, path: ["currencies", "code"])
        let index = try #require(ValueIndex.ifReady(RealData.countries, path: "currencies.code"))
        #expect(Set(index.values(withPrefix: "EU")) == codes.filter { $0.uppercased().hasPrefix("EU") })
        #expect(index.values(withPrefix: "eu") == ["EUR"])
        #expect(index.count == codes.count)

        let countries = try Self.values("stations.json", records: { object in
            let root = object as? [String: Any] ?? [:]
            return ((root["citiesFrom"] as? [[String: Any]] ?? []) + (root["citiesTo"] as? [[String: Any]] ?? []))
        }, path: ["countryTitle"])
        let titles = try #require(ValueIndex.ifReady(RealData.stations, path: "countryTitle"))
        #expect(titles.values(withPrefix: "Гер") == countries.filter { Self.fold($0).hasPrefix(Self.fold("Гер")) }.sorted())
        #expect(titles.values(withPrefix: "гер") == ["Германия"])
        #expect(titles.count == countries.count)
    }
}
