import Testing
@testable import AlmanacCore

@Suite struct SuggestionTests {
    @Test func transpositionIsOneEdit() {
        #expect(Suggestion.editDistance(Array("serach"), Array("search")) == 1)
        #expect(Suggestion.closest(to: "serach", among: ["search", "set", "show"]) == "search")
    }

    @Test func farWordsGetNoSuggestion() {
        #expect(Suggestion.closest(to: "xyzzy", among: ["search", "set", "show"]) == nil)
    }

    @Test func caseIsIgnored() {
        #expect(Suggestion.closest(to: "HLEP", among: ["help", "history"]) == "help")
    }
}
