import Foundation
import Testing
@testable import AlmanacCore

/// `describe` counts a column's values by sorting (`ColumnTally`): the values, their numbers
/// (in order of first appearance), counts, present rows and numbers must be those of numbering
/// the rows one at a time, as `describe` did before, for every column and any order of rows.
@Suite struct ColumnTallyTests {
    let scratch = Scratch()

    /// What numbering row by row gives (Describe's own loop over a column).
    struct RowByRow: Equatable {
        var names: [String] = []
        var isNumber: [Bool] = []
        var counts: [Int] = [0]
        var numbers: [UInt64] = []
        var present = 0
    }

    static func rowByRow(_ column: FieldCatalog.Column, rows: [Int], in dataset: Dataset, path: Dataset.CompiledPath) -> RowByRow {
        var values = ValueNumbering()
        var result = RowByRow()
        for row in rows {
            let kind = column.kinds[row]
            if kind == JSONDocument.Kind.number.rawValue {
                result.present += 1
                result.numbers.append(column.words[row])
                continue
            }
            let number = values.number(kind: kind, word: column.words[row], in: dataset, datasetIndex: 0, path: path, row: row, field: 0)
            guard number != values.empty else { continue }
            result.present += 1
            while result.counts.count <= Int(number) { result.counts.append(0) }
            result.counts[Int(number)] += 1
        }
        result.names = (1..<max(1, values.count)).map { values.name(of: Int32($0)) }
        result.isNumber = (1..<max(1, values.count)).map { values.isNumber(Int32($0)) }
        return result
    }

    static func sorted(_ column: FieldCatalog.Column, rows: [Int], in dataset: Dataset, path: Dataset.CompiledPath) throws -> RowByRow? {
        var values = ValueNumbering()
        guard let tally = try ColumnTally.count(column, rows: rows, in: dataset, path: path, into: &values, cancellation: .never) else {
            return nil
        }
        return RowByRow(names: (1..<max(1, values.count)).map { values.name(of: Int32($0)) },
                        isNumber: (1..<max(1, values.count)).map { values.isNumber(Int32($0)) },
                        counts: tally.counts, numbers: tally.numbers.map(\.bitPattern), present: tally.present)
    }

    func expectSame(_ dataset: Dataset, columns expectedColumns: Int) throws {
        let catalog = dataset.fields
        #expect(catalog.fields.filter { catalog.column($0.path) != nil }.count == expectedColumns, "\(dataset.name)")
        for field in catalog.fields {
            guard let column = catalog.column(field.path) else { continue }
            let path = dataset.compile(FieldPath(field.path))
            let all = Array(0..<dataset.count)
            let some = all.filter { $0 % 3 != 1 }
            // A fixed scramble, so a failure repeats.
            let scrambled = all.sorted { ($0 &* 2_654_435_761) % 1_000_003 < ($1 &* 2_654_435_761) % 1_000_003 }
            for rows in [all, all.reversed(), some, scrambled] {
                let expected = Self.rowByRow(column, rows: rows, in: dataset, path: path)
                let found = try #require(try Self.sorted(column, rows: rows, in: dataset, path: path))
                #expect(found == expected, "\(dataset.name).\(field.path)")
            }
        }
    }

    @Test func everyColumnOfTheBundledDatasets() throws {
        // Counted from the files: the scalar fields outside lists (point.latitude and longitude
        // for stations; the computed directions has no column).
        for (dataset, columns) in [(RealData.stations, 9)] {
            try expectSame(dataset, columns: columns)
        }
        for dataset in [RealData.countries, RealData.species, RealData.planets, RealData.people] {
            try expectSame(dataset, columns: dataset.fields.fields.filter { dataset.fields.column($0.path) != nil }.count)
        }
    }

    @Test func longStringsBooleansWordsForNoneAndNumbersAsText() throws {
        let long = String(repeating: "long text ", count: 10)
        var records: [String] = []
        for index in 0..<300 {
            let value: String = switch index % 9 {
            case 0: "\"\(long)\""
            case 1: "true"
            case 2: "\"n/a\""
            case 3: "\"\""
            case 4: "\"120\""
            case 5: "\(index)"
            case 6: "null"
            case 7: "\"\(long)\(index % 2)\""
            default: "\"word \(index % 5)\""
            }
            records.append(index % 13 == 0 ? #"{"name": "r\#(index)"}"# : #"{"name": "r\#(index)", "value": \#(value), "flag": \#(index % 4 == 0)}"#)
        }
        let file = scratch.file("mixed.json", "[" + records.joined(separator: ",\n") + "]")
        let dataset = try DatasetLoader().load(LoadRequest(name: "mixed", source: .file(path: file), model: GenericModel.self),
                                               progress: LoadProgress(), cancellation: .never)
        // name, value and flag.
        try expectSame(dataset, columns: 3)
    }
}
