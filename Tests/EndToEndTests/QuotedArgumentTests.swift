import Foundation
import Testing

/// Quoted text given to a function reads as that text, however it touches the call's
/// parentheses and commas: the shell's words used to glue `'b')` into one quoted word, so
/// `replace(name,'a','b')` was the literal text `replace(name,a,b)` and `trim(' x ')` a field.
@Suite("Quoted arguments of functions")
struct QuotedArgumentTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    func run(_ commands: [String]) throws -> PipeResult {
        try home.run(commands, options: ["--no-rc"], format: "csv")
    }

    @Test("replace with quoted arguments, with and without spaces, computes the replacement")
    func replace() throws {
        for columns in ["columns name, replace(name,'a','b') as r", "columns name, replace(name, 'a', 'b') as r",
                        #"columns name, replace(name, "a", "b") as r"#] {
            let result = try run(["use countries", columns, "limit 2", "page"])
            // Afghanistan and Åland Islands with every lower-case a made b.
            #expect(result.stdout.lines == ["name,r", "Afghanistan,Afghbnistbn", "Åland Islands,Ålbnd Islbnds"], "\(columns): \(result)")
            #expect(result.status == 0, "\(result)")
        }
    }

    @Test("a quoted argument right after the parenthesis, and text joined without spaces")
    func trimAndJoin() throws {
        // trim(' x ') is x for every one of the 250 countries.
        let trimmed = try run(["use countries", "filter trim(' x ') = x", "count"])
        #expect(trimmed.stdout.lines == ["count", "250"], "\(trimmed)")
        let joined = try run(["use countries", "columns name, '<'||name||'>' as j", "limit 1", "page"])
        #expect(joined.stdout.lines == ["name,j", "Afghanistan,<Afghanistan>"], "\(joined)")
        let coalesced = try run(["use countries", "filter alpha3Code = ALA", "columns name, coalesce(capital,'none') as c, substr(name,1,5)||'…' as s"])
        #expect(coalesced.stdout.lines == ["name,c,s,alpha3Code", "Åland Islands,Mariehamn,Åland…,ALA"], "\(coalesced)")
    }
}
