import Foundation
import Testing

/// Every command reads its words from its declaration: at the prompt a wrong word is named in
/// the error, and the line is shown again with a caret under that word (sqlite's shell).
@Suite("Carets under the wrong word, command by command")
struct DeclaredCaretTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    /// A line typed at the prompt, the word the caret should be under, and the error's text.
    struct Case {
        var line: String
        var word: String
        var message: String
    }

    /// Enters each case's line and expects exactly: the error, the line, the caret under the word.
    func expectCarets(_ cases: [Case], setup: String = "use countries; set pagesize 10; count", prompt: String = "countries> ") throws {
        let session = try PseudoTerminalSession(environment: home.environment(), rows: 40, columns: 220)
        try session.waitForPrompt()
        try session.enter(setup, prompt: prompt)
        for test in cases {
            try session.enter(test.line, prompt: prompt)
            let screen = session.screen.lines
            let echoed = try #require(screen.lastIndex { $0 == "  " + test.line }, "\(test.line)\n\(screen.joined(separator: "\n"))")
            // No word: something is missing, and the caret is just past the end.
            let column = test.word.isEmpty ? test.line.count
                : try #require(test.line.range(of: test.word)).lowerBound.utf16Offset(in: test.line)
            let caret = "  " + String(repeating: " ", count: column) + "^" + String(repeating: "~", count: max(0, test.word.count - 1))
            #expect(Array(screen[(echoed - 1)...(echoed + 1)]) == ["error: " + test.message, "  " + test.line, caret],
                    "\(screen[max(0, echoed - 3)...(echoed + 1)].joined(separator: "\n"))")
        }
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0)
    }

    @Test("page, history, help, set, search, show and an unknown command point at the wrong word")
    func pagingHelpSettingsAndNames() throws {
        try expectCarets([
            Case(line: "page two", word: "two",
                 message: "N must be a whole number or next, prev, first, last, not 'two' — usage: page [N|next|prev|first|last]"),
            Case(line: "page 99", word: "99", message: "there are 25 pages; page 99 does not exist"),
            Case(line: "page next 2", word: "2", message: "unexpected '2' — usage: page [N|next|prev|first|last]"),
            Case(line: "history lots", word: "lots", message: "N must be a whole number, not 'lots' — usage: history [N]"),
            Case(line: "history -3", word: "-3",
                 message: "N is how many of the last lines to show: 0 or more, not -3 — usage: history [N]"),
            Case(line: "help srot", word: "srot", message: "unknown command 'srot' — did you mean 'sort'?"),
            // An unknown command: alone, after another statement, and the one watch would run.
            Case(line: "wat", word: "wat", message: "unknown command 'wat' — did you mean 'watch'?"),
            Case(line: "count; srot name", word: "srot", message: "unknown command 'srot' — did you mean 'sort'?"),
            Case(line: "watch 1 --count 2 frobnicate", word: "frobnicate", message: "unknown command 'frobnicate' — type 'help' for the list"),
            Case(line: "help sort keys", word: "keys", message: "unexpected 'keys' — usage: help [COMMAND|keys]"),
            Case(line: "set formta json", word: "formta", message: "unknown setting 'formta' — did you mean 'format'?"),
            Case(line: "set format jsn", word: "jsn",
                 message: "format must be one of table, expanded, json, ndjson, csv, tsv, markdown, not 'jsn'"),
            Case(line: "set color on please", word: "please", message: "unexpected 'please' — usage: set [NAME [VALUE]]"),
            Case(line: "search \"  \"", word: "\"  \"", message: "missing TEXT — usage: search TEXT"),
            Case(line: "show Atlantis", word: "Atlantis", message: "nothing called 'Atlantis' in countries — try search Atlantis"),
            Case(line: "show #300", word: "#300", message: "there is no row #300: the results have 250 rows"),
        ])
    }

    @Test("export, map, load and trip point at the wrong word, or just past the end where one is missing")
    func filesMapsLoadsAndTrips() throws {
        let export = "usage: export PATH|postgresql://…?table=NEW [all] [--force]"
        let map = "usage: map [world] [--size COLUMNSxROWS]"
        let load = "usage: load [NAME|PATH] [from SOURCE] [as json|ndjson|csv|tsv] [at PATH] [key FIELD]"
        try expectCarets([
            Case(line: "export out.csv more.csv", word: "more.csv", message: "unexpected 'more.csv' — " + export),
            Case(line: "export out.xyz --force", word: "out.xyz",
                 message: "the file's extension says the format: .json, .ndjson, .csv, .tsv or .geojson — " + export),
            Case(line: "map world sideways", word: "sideways", message: "unexpected 'sideways' — " + map),
            Case(line: "map --size huge", word: "huge", message: "--size takes COLUMNSxROWS, from 4x2 to 1000x500 — not 'huge'"),
            Case(line: "map world --size", word: "", message: "missing COLUMNSxROWS after --size — " + map),
            Case(line: "load 9lives from x.json", word: "9lives",
                 message: "a dataset name is letters, digits, _ and -, starting with a letter — " + load),
            Case(line: "load atlas", word: "atlas", message: "unknown dataset 'atlas' — to load a file: load PATH, or load NAME from PATH — " + load),
            Case(line: "load quotes from", word: "", message: "missing SOURCE after from — " + load),
            // A file's option where there is no file: the caret is under the option, not its value.
            Case(line: "load countries key city", word: "key", message: "as, at and key go with a file: load NAME from FILE as csv — " + load),
            Case(line: "load countries at data.items", word: "at", message: "as, at and key go with a file: load NAME from FILE as csv — " + load),
        ])
        let trip = "usage: trip from STATION to STATION [on DATE] [--map] [--countries]"
        try expectCarets([
            Case(line: "trip to 9362", word: "", message: "missing from STATION — " + trip),
            Case(line: "trip 9864 to 9362", word: "9864", message: "unexpected '9864' — " + trip),
            Case(line: "trip from 9362 to 9864", word: "9362",
                 message: "Чистополь [9362] serves only arrivals (to); a trip needs a departure station (from) here"),
            Case(line: "trip from 9864 to 9362 on someday", word: "someday",
                 message: "'someday' is not a date: use today, tomorrow, friday, next friday, 2026-12-01, 01.12.2026, 1 Dec or 1 Dec 2026"),
        ], setup: "use stations; count", prompt: "stations> ")
    }

    @Test("filter, columns and group point at the wrong word")
    func conditionsColumnsAndGroups() throws {
        let filter = "usage: filter FIELD OP VALUE [and|or ...] | clear"
        let group = "usage: group FIELD[, FIELD...] [AGG FIELD[, AGG FIELD...]] [--all]"
        try expectCarets([
            Case(line: "filter region = Europe nope", word: "nope", message: "unexpected 'nope' — join conditions with and, or — " + filter),
            Case(line: "filter region Europe", word: "Europe",
                 message: "expected an operator (= != ~ !~ < <= > >=) after 'region', found 'Europe' — " + filter),
            Case(line: "filter area > 1 and (region = Asia", word: "", message: "missing ')' — " + filter),
            Case(line: "columns name, +area", word: "+area",
                 message: "'+area': either name the columns, or add and drop with +FIELD and -FIELD — "
                    + "usage: columns [FIELD[, FIELD...] | +FIELD | -FIELD | reset]"),
            Case(line: "columns +capitol", word: "+capitol", message: "unknown field 'capitol' — did you mean 'capital'?"),
            Case(line: "columns -gini", word: "-gini", message: "gini is not one of the columns: name, alpha3Code, capital, region, population"),
            Case(line: "group region sum population avg", word: "", message: "missing FIELD after avg — " + group),
            Case(line: "group region, , area", word: ",", message: "a FIELD is missing after the comma — " + group),
            Case(line: "group region median area", word: "median", message: "unknown field 'median' — did you mean 'region'?"),
        ])
    }

    @Test("a value a number field cannot be compared with is pointed at: filter area > abc")
    func valuesOfTheWrongTypePointAtTheValue() throws {
        try expectCarets([
            Case(line: "filter area > abc", word: "abc", message: "area is a number; 'abc' is not a number"),
            Case(line: "filter region = Europe and population < lots", word: "lots",
                 message: "population is a number; 'lots' is not a number"),
            Case(line: "filter area >= \"big\"", word: "\"big\"", message: "area is a number; 'big' is not a number"),
        ])
    }

    @Test("expressions point at the operand: the caret under name in sort name / 2")
    func expressionsPointAtTheOperand() throws {
        try expectCarets([
            Case(line: "sort name / 2", word: "name", message: "'name' is text; '/' needs numbers"),
            Case(line: "filter population / region > 3", word: "region", message: "'region' is text; '/' needs numbers"),
            Case(line: "columns name, lenght(name)", word: "lenght", message: "unknown function 'lenght' — did you mean length?"),
            Case(line: "group region avg(populaton)", word: "populaton", message: "unknown field 'populaton' — did you mean 'population'?"),
        ])
    }

    @Test("a tab before the wrong word: the echo shows it to the next multiple of 8, the caret under the word, the script's column alike")
    func tabsLineUp() throws {
        let typed = ["\tfilter population > 1 and popultion < 5", "filter population > 1 and\tpopultion < 5"]
        // Each tab to the next multiple of 8 columns from the line's start, as an editor shows it:
        // 8 + 26 columns before the word in the first, 32 in the second.
        let shown = ["        filter population > 1 and popultion < 5", "filter population > 1 and       popultion < 5"]
        let columns = [35, 33]
        let message = "unknown field 'popultion' — did you mean 'population'?"
        let session = try PseudoTerminalSession(environment: home.environment(), rows: 40, columns: 120)
        try session.waitForPrompt()
        try session.enter("use countries", prompt: "countries> ")
        for (line, (echo, column)) in zip(typed, zip(shown, columns)) {
            // Ctrl-V before a tab types it (a tab alone completes).
            try session.enter(line.replacingOccurrences(of: "\t", with: "\u{16}\t"))
            let screen = session.screen.lines
            let echoed = try #require(screen.lastIndex { $0 == "  " + echo }, "\(screen.joined(separator: "\n"))")
            #expect(Array(screen[(echoed - 1)...(echoed + 1)])
                    == ["error: " + message, "  " + echo, "  " + String(repeating: " ", count: column - 1) + "^~~~~~~~~"],
                    "\(screen[max(0, echoed - 3)...(echoed + 1)].joined(separator: "\n"))")
            #expect(echo.range(of: "popultion")?.lowerBound.utf16Offset(in: echo) == column - 1)
        }
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0)
        // A script names the column the caret stands in.
        let script = try PipeRun.run(["--no-rc"], input: (["use countries"] + typed).joined(separator: "\n") + "\n",
                                     environment: home.environment(), directory: home.root)
        #expect(script.stderr == "stdin:2:35: \(message)\nstdin:3:33: \(message)\n", "\(script)")
        let commands = try PipeRun.run(["--no-rc", "-c", "use countries", "-c", typed[0]], environment: home.environment(), directory: home.root)
        #expect(commands.stderr == "-c:2:35: \(message)\n", "\(commands)")
    }
}
