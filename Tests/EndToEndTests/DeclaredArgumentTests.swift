import Foundation
import Testing

/// Commands that declare their arguments: the usage `help` prints, the errors, the caret under
/// the offending word at the prompt, and completion all come from the one declaration.
@Suite("Declared command arguments")
struct DeclaredArgumentTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    @Test("at the prompt an error shows the line with a caret under the offending word, an unknown field too")
    func caretUnderTheWord() throws {
        let session = try PseudoTerminalSession(environment: home.environment(), rows: 30, columns: 120)
        try session.waitForPrompt()
        try session.enter("use countries; count", prompt: "countries> ")
        try session.enter("sort population sideways", prompt: "countries> ")
        try session.enter("histogram area lots", prompt: "countries> ")
        // An unknown field, whichever command names it, is pointed at too.
        try session.enter("group regoin sum population", prompt: "countries> ")
        let screen = session.screen.lines
        for (typed, word) in [("sort population sideways", "sideways"), ("histogram area lots", "lots"), ("group regoin sum population", "regoin")] {
            let echoed = try #require(screen.firstIndex { $0 == "  " + typed }, "\(screen.joined(separator: "\n"))")
            let caret = screen[echoed + 1]
            let column = try #require(screen[echoed].range(of: word)).lowerBound.utf16Offset(in: screen[echoed])
            #expect(caret == String(repeating: " ", count: column) + "^" + String(repeating: "~", count: word.count - 1),
                    "\(screen[echoed])\n\(caret)")
        }
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0)
    }

    @Test("in a script an error stays one stdin:N:COLUMN: line naming the word, without a caret")
    func scriptErrorsStayOneLine() throws {
        let result = try PipeRun.run(input: "use countries\nsort population sideways\ncount 3\ndescribe population, , area\n",
                                     environment: home.environment(), directory: home.root)
        #expect(result.stderr.lines == [
            "stdin:2:17: unexpected 'sideways' — after a FIELD comes asc or desc or a comma — usage: sort FIELD [asc|desc][, FIELD [asc|desc]...]",
            "stdin:3:7: unexpected '3' — usage: count",
            "stdin:4:20: a FIELD is missing after the comma — usage: describe [FIELD[, FIELD...]]",
        ], "\(result)")
    }

    @Test("the usage help prints is made from the declaration")
    func usageFromTheDeclaration() throws {
        let result = try PipeRun.run(["-c", "help sort", "-c", "help histogram", "-c", "help describe"],
                                     environment: home.environment(), directory: home.root)
        for usage in ["sort FIELD [asc|desc][, FIELD [asc|desc]...]", "histogram FIELD [log] [BINS]", "describe [FIELD[, FIELD...]]"] {
            #expect(result.stdout.contains(usage), "\(usage)\n\(result)")
        }
    }

    @Test("declared sort keys: commas, asc and desc, a quoted comma is part of a field's name")
    func sortKeysAsDeclared() throws {
        let data = try #require(FileManager.default.contents(atPath: DataFolder.realFile("countries")))
        let countries = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        // Region ascending, then population descending within each region.
        let expected = countries.enumerated().sorted { left, right in
            let (a, b) = (left.element, right.element)
            let (ra, rb) = (a["region"] as? String ?? "", b["region"] as? String ?? "")
            if ra != rb { return ra.isEmpty != rb.isEmpty ? !ra.isEmpty : ra < rb }
            let (pa, pb) = ((a["population"] as? NSNumber)?.doubleValue ?? 0, (b["population"] as? NSNumber)?.doubleValue ?? 0)
            return pa != pb ? pa > pb : left.offset < right.offset
        }.map { $0.element["alpha3Code"] as? String ?? "" }
        for line in ["sort region, population desc", "sort region,population DESC", "sort region asc ,population desc"] {
            let result = try PipeRun.run(["--format", "csv", "-c", "use countries", "-c", "columns alpha3Code", "-c", line],
                                         environment: home.environment(), directory: home.root)
            let codes = result.stdout.lines.dropFirst().map { String($0.split(separator: ",").first ?? "") }
            #expect(Array(codes.suffix(expected.count)) == expected, "\(line)\n\(result.stderr)")
        }
    }
}
