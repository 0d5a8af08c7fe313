import Testing
@testable import AlmanacCore

/// A CSV kept as columns (`TableNodes`) reads as the tape the other path makes: the same
/// nodes reached from the root (kinds, counts, key words, texts, Doubles), the same equal
/// short strings sharing a word, the same interned keys.
@Suite struct CSVTableStoreTests {
    /// Cells drawn from the fuzz tests' generator (`SplitMix64`), so a failure names its seed.
    struct Generator {
        var random: SplitMix64
        init(state: UInt64) { random = SplitMix64(seed: state) }
        mutating func next() -> UInt64 { random.next() }
        mutating func below(_ limit: Int) -> Int { Int(next() % UInt64(limit)) }
        mutating func pick(_ choices: [String]) -> String { choices[below(choices.count)] }
    }

    static let expectedNumbers = 22_795
    static let numbers = ["0", "-0", "7", "42", "-13", "1e5", "1E-3", "2.5e+10", "0.1", "48.20253753662109", "-122.41941550000001",
                          "123456789012345678901234567890", "1e400", "3.0", "  12  ", "9007199254740993", "-0.0"]
    static let words = ["Москва", "Zürich", "東京", "Oslo", "NA", "true", "-", "a b", "x", "\"quoted, with comma\"",
                        "\"two\nlines\"", "\"say \"\"hi\"\"\"", " spaced ", String(repeating: "long ", count: 30),
                        String(repeating: "ж", count: 70), "007", "\"1.000,5\"", String(repeating: "q", count: 20_000)]

    /// Rows of `columns` cells: numbers in even columns, words in odd ones, an empty cell
    /// one time in `emptyEvery`; `rows` past 4,096 cross the number chunks' boundary.
    static func text(rows: Int, columns: Int, seed: UInt64, emptyEvery: Int, separator: String = ",") -> String {
        var generator = Generator(state: seed)
        var lines = [(0..<columns).map { "c\($0)" }.joined(separator: separator)]
        for _ in 0..<rows {
            lines.append((0..<columns).map { column -> String in
                if generator.below(emptyEvery) == 0 { return "" }
                if column % 2 == 0 { return generator.pick(numbers.filter { separator == "," || !$0.contains(" ") }) }
                let word = generator.pick(words)
                return separator == "," ? word : word.replacingOccurrences(of: "\"", with: "").replacingOccurrences(of: "\n", with: "\\n")
            }.joined(separator: separator))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func documents(_ text: String, tsv: Bool = false) throws -> (table: JSONDocument, tape: JSONDocument) {
        var text = text
        return try text.withUTF8 { bytes in
            let table = try DelimitedText.document(of: bytes, source: "t", tsv: tsv, layout: .automatic).document
            let tape = try DelimitedText.document(of: bytes, source: "t", tsv: tsv, layout: .tape).document
            return (table, tape)
        }
    }

    /// Walks both from their roots, asserting every node alike; returns how many it compared.
    func compare(_ table: JSONDocument, _ tape: JSONDocument) -> Int {
        var words: [UInt64: UInt64] = [:]
        var back: [UInt64: UInt64] = [:]
        var compared = 0
        func walk(_ a: Int, _ b: Int) {
            compared += 1
            let kind = table.kind(at: a)
            #expect(kind == tape.kind(at: b), "node \(a) / \(b)")
            switch kind {
            case .object, .array:
                #expect(table.count(at: a) == tape.count(at: b))
                var (childA, childB) = (a + 2, b + 2)
                for _ in 0..<min(table.count(at: a), tape.count(at: b)) {
                    if kind == .object {
                        #expect(table.node(childA) == tape.node(childB), "key word")
                        (childA, childB) = (childA + 1, childB + 1)
                    }
                    walk(childA, childB)
                    (childA, childB) = (table.end(of: childA), tape.end(of: childB))
                }
                // A table's row ends where the next starts: words between are never read.
                #expect(kind == .array ? childA == table.end(of: a) : childA <= table.end(of: a))
                #expect(childB == tape.end(of: b))
            case .string:
                #expect(table.string(at: a) == tape.string(at: b))
                if table.textRange(at: a).count <= JSONDocumentBuilder.internLimit {
                    let (wordA, wordB) = (table.node(a), tape.node(b))
                    #expect(words[wordA, default: wordB] == wordB && back[wordB, default: wordA] == wordA, "interned alike")
                    (words[wordA], back[wordB]) = (wordB, wordA)
                }
            case .number:
                #expect(table.string(at: a) == tape.string(at: b))
                #expect(table.number(at: a).bitPattern == tape.number(at: b).bitPattern)
            default:
                #expect(table.node(a) == tape.node(b))
            }
        }
        #expect(table.roots.count == tape.roots.count)
        walk(table.roots[0], tape.roots[0])
        return compared
    }

    @Test(arguments: [(rows: 10, columns: 4, emptyEvery: 1_000), (rows: 5_000, columns: 7, emptyEvery: 9), (rows: 9_000, columns: 12, emptyEvery: 3)])
    func generatedTextsReadAlikeAsTableAndTape(rows: Int, columns: Int, emptyEvery: Int) throws {
        // Words in even columns would make them text after numbers: the tape then settles,
        // so only odd columns hold words here, and `NA` in a word column stays text.
        let text = Self.text(rows: rows, columns: columns, seed: UInt64(rows * 31 + columns), emptyEvery: emptyEvery)
        let (table, tape) = try documents(text)
        #expect(table.isTable && !tape.isTable)
        // The root, each row, and a key and value per present cell.
        let present = tape.elements(of: 0).reduce(0) { $0 + tape.count(at: $1) }
        #expect(compare(table, tape) == 1 + rows + present)
        for name in (0..<columns).map({ "c\($0)" }) { #expect(table.internedNode(for: name) == tape.internedNode(for: name)) }
        #expect(table.internedNode(for: "Москва") == nil && tape.internedNode(for: "Москва") == nil)
    }

    @Test func tabSeparatedWithEscapesReadsAlike() throws {
        let text = Self.text(rows: 300, columns: 5, seed: 7, emptyEvery: 6, separator: "\t")
        let (table, tape) = try documents(text, tsv: true)
        #expect(table.isTable)
        #expect(compare(table, tape) == 1 + 300 + tape.elements(of: 0).reduce(0) { $0 + tape.count(at: $1) })
    }

    @Test func rowsOfDifferentShapesAndOneColumnNeverFilled() throws {
        let text = "a,b,c,d\n1,x,,\n,,2.5,\n3,y,4,\n,,,\n5,\"q\nr\",6,\n"
        let (table, tape) = try documents(text)
        #expect(table.isTable)
        #expect(compare(table, tape) == 1 + 5 + 9)
        #expect(JSONWriter.string(table.value(at: 0)) == #"[{"a":1,"b":"x"},{"c":2.5},{"a":3,"b":"y","c":4},{},{"a":5,"b":"q\nr","c":6}]"#)
    }

    @Test(arguments: ["a,b\n", "a,b\n\n\n", "1,x\n2,y\n"])
    func aHeaderAloneOrNoHeaderReadsAlike(text: String) throws {
        let (table, tape) = try documents(text)
        #expect(table.isTable)
        #expect(JSONWriter.string(table.value(at: 0)) == JSONWriter.string(tape.value(at: 0)))
        #expect(compare(table, tape) == 1 + tape.elements(of: 0).count * 3)
    }

    /// What the table does not hold goes to the tape, and reads as the tape.
    @Test(arguments: ["a,b\n1,x\nNA,y\n", "a,b\n1,x\nzz,y\n", "a,b\ntrue,x\nfalse,y\n", "a,b\n+5,x\n", "a,b\n\"[1,2]\",x\n", "a,b\n1,x\n00,y\n",
                      "a.b,c\n1,2\n", "a;b\n1,5;x\n"])
    func textsTheTableDoesNotHoldStayOnTheTape(text: String) throws {
        let (table, tape) = try documents(text)
        #expect(!table.isTable)
        #expect(JSONWriter.string(table.value(at: 0)) == JSONWriter.string(tape.value(at: 0)))
    }

    /// Group, sort and filter read a table's records through `node(_:)` as they read the tape's.
    @Test func queriesAnswerAlikeOnTableAndTape() throws {
        let text = Self.text(rows: 6_000, columns: 6, seed: 5, emptyEvery: 7)
        let (table, tape) = try documents(text)
        #expect(table.isTable)
        let datasets = try [table, tape].map { document throws in
            Dataset(name: "t", model: GenericModel.self, document: document,
                    extraction: try GenericModel.extract(from: document, source: "t.csv", cancellation: .never),
                    origin: LoadOrigin(source: "t.csv", bytes: text.utf8.count, seconds: 0))
        }
        func answers(_ dataset: Dataset) throws -> (groups: [Group.Row], sorted: [Int], filtered: [Int]) {
            let groups = try Group.run(.all([dataset]), by: GroupSpec(fields: ["c1"], aggregates: [Aggregate(.avg, "c0", name: "a"),
                                                                                                   Aggregate(.max, "c2", name: "m")])).map { $0 }
            let sorted = try Sort.run(.all([dataset]), by: [SortKey("c2"), SortKey("c3", descending: true)]).items.map(\.row)
            let filter = try FilterExpression.parse(FilterExpression.tokens(ExpressionTokens.words(of: "c0 > 5 and c1 = Oslo")))
            return (groups, sorted, try Filter.run(filter, on: .all([dataset])).items.map(\.row))
        }
        let (fromTable, fromTape) = (try answers(datasets[0]), try answers(datasets[1]))
        #expect(fromTable.groups == fromTape.groups)
        #expect(fromTable.sorted == fromTape.sorted)
        #expect(fromTable.filtered == fromTape.filtered)
        // Counted on the tape: a group per distinct c1 (and one for rows without it), the rows
        // with c0 above 5 and c1 Oslo.
        let rows = tape.elements(of: 0)
        let c1 = Set(rows.map { tape.member("c1", of: $0).map { tape.string(at: $0) } ?? "\u{0}" })
        #expect(fromTable.groups.count == c1.count)
        let oslo = rows.filter { row in
            guard let c0 = tape.member("c0", of: row), let c1 = tape.member("c1", of: row) else { return false }
            return tape.number(at: c0) > 5 && tape.string(at: c1) == "Oslo"
        }
        #expect(fromTable.filtered.count == oslo.count)
        #expect(fromTable.sorted.count == 6_000)
    }

    /// 200,000 random cells of digits, signs, points, exponents and spaces, lengths 1 to 24.
    @Test func numberShapeAcceptsWhatTheNumberParserAccepts() {
        var generator = Generator(state: 99)
        let alphabet = Array("0123456789000111.-+eE x".utf8)
        var numbers = 0
        for _ in 0..<200_000 {
            let cell = (0...generator.below(24)).map { _ in alphabet[generator.below(alphabet.count)] }
            cell.withUnsafeBufferPointer { bytes in
                let shape = CSVNumberShape.of(bytes)
                let number = CSVCell.number(bytes, decimalComma: false)
                #expect((shape == nil) == (number == nil), "\(String(decoding: cell, as: UTF8.self))")
                if let shape, let number {
                    numbers += 1
                    #expect(shape.plus == number.needsNormalizing && shape.point == (number.separator != nil))
                }
            }
        }
        // Counted by CSVCell.number over the same cells (the generator is seeded).
        #expect(numbers == Self.expectedNumbers)
    }

    @Test func anErrorIsTheTapesError() {
        var text = "a,b\n1,2\n3\n"
        let message = text.withUTF8 { bytes in
            do throws(LoadFailure) {
                _ = try DelimitedText.document(of: bytes, source: "t.csv", tsv: false)
                return ""
            } catch {
                return error.description
            }
        }
        #expect(message == "t.csv: line 3, column 2: 1 field where the header has 2")
    }

    /// A word among numbers at 90% sends the text to the tape, parsed again from the start:
    /// the bar goes on from 90% to the end over that pass instead of going back to 0.
    @Test func aLateMissMovesTheBarOnwardNeverBack() throws {
        var text = "a,b\n" + (0..<120_000).map { "\($0),\($0 * 2)" }.joined(separator: "\n") + "\n"
        let late = text.utf8.count * 9 / 10
        let cut = text.utf8.index(text.utf8.startIndex, offsetBy: late)
        let lineEnd = text[cut...].firstIndex(of: "\n")!
        text.replaceSubrange(text.index(after: lineEnd)..<text.index(after: lineEnd), with: "word,1\n")
        var reports: [Int] = []
        let count = text.utf8.count
        let parsed: Result<JSONDocument, LoadFailure> = text.withUTF8 { bytes in
            Result { () throws(LoadFailure) in
                try DelimitedText.document(of: bytes, source: "t.csv", tsv: false, parsed: { reports.append($0) }).document
            }
        }
        let document = try parsed.get()
        #expect(!document.isTable)
        #expect(document.count(at: document.roots[0]) == 120_001)
        #expect(reports.count >= 6 && zip(reports, reports.dropFirst()).allSatisfy { $0 <= $1 }, "\(reports)")
        #expect(reports.contains { $0 >= late - 270_000 && $0 < late }, "the columns' pass reached about 90%: \(reports)")
        #expect(reports.last! <= count)
    }
}
