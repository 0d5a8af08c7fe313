import Testing
@testable import AlmanacShell

@Suite struct TokenizerTests {
    func words(_ line: String) throws -> [[String]] {
        try Tokenizer.statements(in: line).map { $0.words.map(\.text) }
    }

    /// `describe 'quoted field', other`: a comma after a closing quote that ends the word is
    /// punctuation, not part of the quoted text (issue 31); inside quotes, or followed by more
    /// of the word, it stays.
    @Test func aCommaAfterAClosingQuoteSeparates() throws {
        #expect(try words("describe 'quoted field', other") == [["describe", "quoted field", ",", "other"]])
        #expect(try words(#"group "a b","c d""#) == [["group", "a b,c d"]])
        #expect(try words("filter name = 'a,b'") == [["filter", "name", "=", "a,b"]])
        #expect(try words("describe 'x',") == [["describe", "x", ","]])
    }

    /// Inside a call a quoted argument touching `(`, `,`, `)` or an operator is text alone: the
    /// punctuation around it is the expression's (`replace(name,'a','b')` read as the literal
    /// text `replace(name,a,b)` before).
    @Test func quotedArgumentsOfACallKeepTheirPunctuation() throws {
        #expect(try words("columns replace(name,'a','b') as r") == [["columns", "replace(name,", "a", ",", "b", ")", "as", "r"]])
        #expect(try words("columns replace(name, 'a', 'XX') as r") == [["columns", "replace(name,", "a", ",", "XX", ")", "as", "r"]])
        #expect(try words("filter trim(' x ') = x") == [["filter", "trim(", " x ", ")", "=", "x"]])
        #expect(try words("columns '<'||name||'>' as j") == [["columns", "<", "||name||", ">", "as", "j"]])
        let quoted = try Tokenizer.statements(in: "filter trim(' x ') = x")[0].words
        #expect(quoted.map(\.isQuoted) == [false, false, true, false, false, false])
        #expect(quoted.map(\.column) == [1, 8, 13, 18, 20, 22])
        // Outside a call a quoted word still runs on into what touches it.
        #expect(try words(#"group "a b","c d""#) == [["group", "a b,c d"]])
        #expect(try words("search d'Ivoire") == [["search", "d'Ivoire"]])
    }

    @Test func splitsOnWhitespace() throws {
        #expect(try words("search  united   kingdom") == [["search", "united", "kingdom"]])
    }

    @Test func quotesKeepSpacesAndSemicolons() throws {
        #expect(try words(#"show "Åland Islands"; filter name = 'a;b'"#) == [["show", "Åland Islands"], ["filter", "name", "=", "a;b"]])
    }

    @Test func escapes() throws {
        #expect(try words(#"show Cote\ d\'Ivoire"#) == [["show", "Cote d'Ivoire"]])
        #expect(try words(#"show "say \"hi\" \\ there""#) == [["show", #"say "hi" \ there"#]])
        #expect(try words(#"show 'no \escapes'"#) == [["show", #"no \escapes"#]])
    }

    @Test func quotesAfterALetterAreLetters() throws {
        #expect(try words("search d'Ivoire") == [["search", "d'Ivoire"]])
        #expect(try words("show Yoda's species") == [["show", "Yoda's", "species"]])
        #expect(try words(#"filter height = 5'11""#) == [["filter", "height", "=", #"5'11""#]])
        // At the start of a word, or after anything but a letter or digit, a quote still quotes.
        #expect(try words(#"show "Côte d'Ivoire""#) == [["show", "Côte d'Ivoire"]])
        #expect(try words(#"set format "c"'s'v"#) == [["set", "format", "csv"]])
        #expect(try Tokenizer.statements(in: "show Yoda's")[0].words[1].isQuoted == false)
    }

    @Test func semicolonsSeparateStatements() throws {
        #expect(try words("use countries; count;;help") == [["use", "countries"], ["count"], ["help"]])
    }

    @Test func commentsStartAtWordStart() throws {
        #expect(try words("count # how many") == [["count"]])
        #expect(try words("show a#b") == [["show", "a#b"]])
        #expect(try words("# only a comment").isEmpty)
        #expect(try words("show #3 # the third") == [["show", "#3"]])
    }

    @Test func quotedWordsAreMarked() throws {
        let statement = try Tokenizer.statements(in: #"filter name = "and""#)[0]
        #expect(statement.words.map(\.isQuoted) == [false, false, false, true])
        #expect(statement.words.map(\.column) == [1, 8, 13, 15])
    }

    @Test func unterminatedQuoteIsAnError() {
        #expect(throws: TokenizeError.unterminatedQuote("\"", column: 6)) { try Tokenizer.statements(in: #"show "Åland"#) }
        #expect(throws: TokenizeError.unterminatedQuote("'", column: 6)) { try Tokenizer.statements(in: "show 'x") }
        #expect(throws: TokenizeError.danglingEscape(column: 6)) { try Tokenizer.statements(in: #"show \"#) }
    }

    @Test func errorMessagesSayWhere() {
        #expect(TokenizeError.unterminatedQuote("\"", column: 6).description == "unterminated double quote starting at column 6")
    }

    @Test func partialLineForCompletion() {
        let open = Tokenizer.partial(#"show "Åla"#)
        #expect(open.words.map(\.text) == ["show"])
        #expect(open.fragment == "Åla")
        #expect(open.openQuote == "\"")
        #expect(open.fragmentStart == 5)
        let afterSpace = Tokenizer.partial("use ")
        #expect(afterSpace.fragment == "")
        #expect(afterSpace.words.map(\.text) == ["use"])
        let second = Tokenizer.partial("use countries; sh")
        #expect(second.words.isEmpty)
        #expect(second.fragment == "sh")
        #expect(second.fragmentStart == 15)
    }
}
