import Testing
@testable import AlmanacShell

/// Expressions at the prompt: function names complete with their parenthesis, a field inside a
/// function completes, an unknown function is coloured as an error, and carets point at the operand.
@Suite struct ExpressionShellTests {
    let shell = ShellHarness(load: ["countries"])

    func texts(_ line: String) -> [String] { Completer().complete(line, in: shell.session).candidates.map(\.text) }

    @Test func functionsAndFieldsInsideThemComplete() {
        _ = shell.output("use countries")
        _ = shell.output("count")
        #expect(texts("sort lo").contains("log10("))
        #expect(texts("sort lo").contains("lower("))
        #expect(texts("sort length(na") == ["length(name", "length(nativeName"])
        #expect(texts("filter log10(population/ar") == ["log10(population/area"])
        #expect(texts("filter count(bor").contains("count(borders"))
        #expect(texts("columns name, population / ar") == ["area"])
        // sort's items go on past an operator to its operand (nothing was offered before);
        // then asc or desc.
        #expect(texts("sort population / ar") == ["area"])
        #expect(texts("sort area, population * popu") == ["population"])
        #expect(texts("sort population / area ") == ["asc", "desc"])
        // Inside a call the field completes with no space: what follows is the call's.
        let completer = Completer()
        #expect(completer.complete("histogram log10(popu", in: shell.session).insertion == "log10(population")
        #expect(completer.complete("sort (popu", in: shell.session).insertion == "(population")
        #expect(texts("filter region = ") == ["Africa", "Americas", "Europe", "Asia", "Oceania", "Polar"])
        #expect(texts("filter name ").contains("=~"))
    }

    @Test func anUnknownFunctionIsAnErrorsColour() {
        _ = shell.output("use countries")
        _ = shell.output("count")
        let roles = { (words: [String]) in ExpressionCompletion.roles(of: words.map { Word($0) }).map(\.role) }
        #expect(roles(["lenght(name)", ">", "3"]) == [.unknownFunction, .keyword, .field, .keyword, .operator, .number])
        #expect(roles(["length(name)", ">", "3"]) == [.keyword, .keyword, .field, .keyword, .operator, .number])
        #expect(roles(["region", "=", "Europe"]) == [.field, .operator, .plain])
        #expect(roles(["population", "/", "area", "as", "density", "desc"]) == [.field, .operator, .field, .keyword, .plain, .keyword])
        let spans = Highlighter().spans(of: "sort lenght(name)", cursor: 17, in: shell.session)
        #expect(spans.contains { $0.role == .unknownFunction && $0.characters == 5..<11 })
    }

    @Test func aFilterTakesANumberWithThousandsGrouped() {
        _ = shell.output("use countries")
        // 160 countries have more than a million people (countries.json, by Python).
        #expect(shell.output("filter population > 1,000,000").ok)
        #expect(shell.output("count").out == "160\n")
        // Coloured as one number, as the filter reads it.
        let spans = Highlighter().spans(of: "filter population > 1,000,000", cursor: 0, in: shell.session)
        #expect(spans.contains { $0.role == .number && $0.characters == 20..<29 })
    }

    @Test func errorsNameTheOperand() {
        _ = shell.output("use countries")
        #expect(shell.output("sort name / 2").err.contains("'name' is text; '/' needs numbers"))
        #expect(shell.output("filter lenght(name) > 3").err.contains("unknown function 'lenght' — did you mean length?"))
        #expect(shell.output("group region avg(population / area) as density").ok)
        #expect(shell.output("histogram log10(population / area) 8").ok)
    }

    @Test func aComputedColumnsNameIsColouredAsAField() {
        _ = shell.output("use countries")
        _ = shell.output("count")
        let roleOfDensity = { (line: String) in
            Highlighter().spans(of: line, cursor: line.count, in: shell.session).first { $0.characters == 5..<12 }?.role
        }
        #expect(roleOfDensity("sort density desc") == .unknownField)
        #expect(shell.output("columns name, population / area as density").ok)
        #expect(roleOfDensity("sort density desc") == .field)
        #expect(roleOfDensity("sort densiti desc") == .unknownField)
    }

    /// Counts from Data/countries.json: population / area above 1,000 for 12 countries; in
    /// Europe above 200 for 14 (Belgium … Vatican City).
    @Test func filterReadsAComputedColumnByItsName() {
        _ = shell.output("use countries")
        #expect(shell.output("columns name, population / area as density").ok)
        #expect(shell.output("filter density > 1000").ok)
        #expect(shell.output("count").out == "12\n")
        #expect(shell.output("filter clear").ok)
        #expect(shell.output("filter region = Europe and density > 200").ok)
        #expect(shell.output("count").out == "14\n")
    }

    /// From Data/countries.json: population / area is largest in Africa on Mauritius
    /// (1,265,740 / 2,040), in Asia on Macao (649,342 / 30).
    /// SQL's `count(*)` and a bare aggregate word say what group wants instead of an
    /// expression error at '*' or "the fields to group by come before the aggregates".
    @Test func groupSaysCountStarIsTheCountColumn() {
        _ = shell.output("use countries")
        #expect(shell.output("group region avg(area), count(*)").err
            == "test:1:25: every group has its count column already; count(FIELD) counts the records with a value — "
            + "usage: group FIELD[, FIELD...] [AGG FIELD[, AGG FIELD...]] [--all]\n")
        #expect(shell.output("group region avg(area), count").err.contains("count needs a field: count(FIELD) (every group has its count column already)"))
        #expect(shell.output("group region avg(area), max").err.contains("max needs a field: max(FIELD)"))
    }

    @Test func groupReadsAComputedColumnByItsName() {
        _ = shell.output("use countries")
        #expect(shell.output("columns name, population / area as density").ok)
        #expect(shell.output("set format csv").ok)
        let lines = shell.output("group region max density").out.split(separator: "\n")
        #expect(lines.prefix(2) == ["region,count,percent,max(population / area)", "Africa,60,24,620.4607843137255"])
        #expect(lines.contains("Asia,50,20,21644.733333333334"))
    }

    /// From Data/countries.json: 240 countries have an area (10 none), the largest Russia's
    /// 17,124,442, then Antarctica's and Canada's; Africa's 60 cover 30,323,491; 31 exceed 1,000,000.
    @Test func aRenamedFieldIsThatFieldUnderItsName() {
        _ = shell.output("use countries")
        #expect(shell.output("columns name, area as a, region as r").ok)
        #expect(shell.output("set format csv").ok)
        #expect(shell.output("sort a desc").ok)
        #expect(shell.output("limit 3").ok)
        #expect(shell.output("page").out == "name,a,r\nRussian Federation,17124442,Europe\nAntarctica,14000000,Polar\nCanada,9984670,Americas\n")
        #expect(shell.output("back").ok)
        #expect(shell.output("describe a").out.split(separator: "\n").last?.hasPrefix("a,number,240,10,239,0.44,17124442,") == true)
        #expect(shell.output("group r sum a").out.split(separator: "\n").prefix(2) == ["r,count,percent,sum area", "Africa,60,24,30323491"])
        #expect(shell.output("filter a > 1000000").ok)
        #expect(shell.output("count").out == "count\n31\n")
        #expect(shell.output("set format table").ok)
        #expect(shell.output("histogram a").out.hasPrefix("a "))
    }
}
