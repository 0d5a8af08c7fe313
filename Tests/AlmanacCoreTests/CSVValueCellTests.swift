import Foundation
import Testing
@testable import AlmanacCore

/// Cells that are a value whatever their column holds: a decimal comma's number in a `;`
/// file, and a JSON list or object (as almanac's export writes lists).
@Suite struct CSVValueCellTests {
    let scratch = Scratch()

    func records(_ text: String, file: String = "data.csv") throws -> [String] {
        jsonRecords(try loadFile(scratch.file(file, text)))
    }

    @Test func decimalCommaNumbersStayNumbersWhenTheColumnTurnsOutText() throws {
        // Written as numbers, then the column shows text: 1,5 and 2,25 are still 1.5 and 2.25 (not 15, 225).
        #expect(try records("item;price\nA;1,5\nB;2,25\nC;unk.\n")
            == [#"{"item":"A","price":1.5}"#, #"{"item":"B","price":2.25}"#, #"{"item":"C","price":"unk."}"#])
    }

    @Test func decimalCommaNumbersAfterTextAreNumbers() throws {
        // After the column is text: decimal commas (grouping dots too) are numbers; an integer
        // or a point stays text as before, and reads as the same number.
        let text = "v;w\nabc;a\n1,5;b\n1.000,5;c\n-2,5;d\n 3,25 ;e\n15;f\n1.5;g\n007;h\n"
        #expect(try records(text) == [
            #"{"v":"abc","w":"a"}"#, #"{"v":1.5,"w":"b"}"#, #"{"v":1000.5,"w":"c"}"#, #"{"v":-2.5,"w":"d"}"#,
            #"{"v":3.25,"w":"e"}"#, #"{"v":"15","w":"f"}"#, #"{"v":"1.5","w":"g"}"#, #"{"v":"007","w":"h"}"#,
        ])
    }

    @Test func aDecimalCommaAfterDecimalPointsMakesThePointsText() throws {
        #expect(try records("v;w\n1.5;a\n2,5;b\n") == [#"{"v":"1.5","w":"a"}"#, #"{"v":2.5,"w":"b"}"#])
    }

    @Test func groupingDotsBeforeADecimalComma() throws {
        #expect(try records("v;w\n1.000,5;a\n2,5;b\n12.345.678,25;c\n") == [#"{"v":1000.5,"w":"a"}"#, #"{"v":2.5,"w":"b"}"#,
                                                                          #"{"v":12345678.25,"w":"c"}"#])
        // Not groups of three, or no comma after them: no grouping.
        #expect(try records("v;w\n1.00,5;a\n") == [#"{"v":"1.00,5","w":"a"}"#])
        #expect(try records("v;w\n1.000;a\n") == [#"{"v":1.000,"w":"a"}"#])
    }

    @Test func aCommaFileKeepsItsRule() throws {
        // Only a `;` file has decimal commas: here a quoted 1,5 is text, and the column text.
        #expect(try records("v,w\n\"1,5\",a\n2.5,b\n") == [#"{"v":"1,5","w":"a"}"#, #"{"v":"2.5","w":"b"}"#])
    }

    @Test func filterAndDescribeReadTheNumbers() throws {
        let dataset = try loadFile(scratch.file("prices.csv", "item;price\nA;1,5\nB;2,25\nC;1.000,5\nD;4\nE;5\nF;x\n"))
        let price = dataset.compile(FieldPath("price"))
        let numbers = (0..<dataset.count).map { dataset.values(of: price, row: $0).compactMap(dataset.number).first }
        // 4 and 5 were written as numbers before x: integers, they are text now (and read as 4 and 5).
        #expect(numbers.prefix(3) == [1.5, 2.25, 1000.5])
        #expect(jsonRecords(dataset)[3...] == [#"{"item":"D","price":"4"}"#, #"{"item":"E","price":"5"}"#, #"{"item":"F","price":"x"}"#])
    }

    @Test func jsonListsAndObjectsInCellsAreValues() throws {
        let text = "name,tags,owner,note\n"
            + "A,\"[\"\"x\"\",\"\"y\"\"]\",\"{\"\"login\"\":\"\"ann\"\",\"\"roles\"\":[1,2]}\",[draft]\n"
            + "B,[],{},\"[1, 2\"\n"
            + "C,[ 3 ],\"{\"\"a\"\":1,\"\"a\"\":2}\",{x}\n"
        #expect(try records(text) == [
            #"{"name":"A","tags":["x","y"],"owner":{"login":"ann","roles":[1,2]},"note":"[draft]"}"#,
            #"{"name":"B","tags":[],"owner":{},"note":"[1, 2"}"#,
            // A key twice is no object a cell can be: text.
            #"{"name":"C","tags":[3],"owner":"{\"a\":1,\"a\":2}","note":"{x}"}"#,
        ])
    }

    @Test func listsMoveWithTheirRecordWhenEarlierCellsSettle() throws {
        // v's 1 becomes text (one node, not two): B's list and object move down a node.
        let text = "v,l,o\n1,\"[1,[2]]\",\n,,\"{\"\"a\"\":[3,{\"\"b\"\":4}]}\"\nx,[5],\n"
        #expect(try records(text) == [#"{"v":"1","l":[1,[2]]}"#, #"{"o":{"a":[3,{"b":4}]}}"#, #"{"v":"x","l":[5]}"#])
    }

    @Test func aListAfterNumbersMakesTheColumnText() throws {
        #expect(try records("v,w\n1,a\n[2],b\n") == [#"{"v":"1","w":"a"}"#, #"{"v":[2],"w":"b"}"#])
    }

    @Test func listsUnderDottedColumnsAreNested() throws {
        let text = "id,user.login,user.roles\n1,ann,\"[\"\"admin\"\"]\"\n2,bo,\n"
        #expect(try records(text) == [#"{"id":1,"user":{"login":"ann","roles":["admin"]}}"#, #"{"id":2,"user":{"login":"bo"}}"#])
    }

    @Test func tsvListsAreValues() throws {
        // As the export writes a list holding a tab: JSON's `\t`, its backslash escaped for TSV.
        #expect(try records("a\tb\nx\t[\"p\\\\tq\"]\n", file: "data.tsv") == [#"{"a":"x","b":["p\tq"]}"#])
    }

    /// A large `;` file on two threads: lists, and decimal commas in a column that turns out
    /// text in the second half, read as one thread reads them.
    @Test func twoThreadsReadListsAndDecimalCommasAsOneDoes() throws {
        let rows = 200_000
        var text = "id;price;tags\n"
        for row in 0..<rows {
            let price = row == rows * 3 / 4 ? "n/v" : "\(row % 100),5"
            text += "\(row);\(price);\"[\"\"t\(row % 7)\"\",\(row % 3)]\"\n"
        }
        #expect(text.utf8.count >= CSVSecondPart.splitFrom)
        let (one, two) = try CSVLoadingTests.bothWays(text)
        #expect(one.count == rows && two == one)
        #expect(one[0] == #"{"id":0,"price":0.5,"tags":["t0",0]}"#)
        #expect(one[rows * 3 / 4] == #"{"id":150000,"price":"n/v","tags":["t4",0]}"#)
        #expect(one[rows - 1] == #"{"id":199999,"price":99.5,"tags":["t2",1]}"#)
    }
}
