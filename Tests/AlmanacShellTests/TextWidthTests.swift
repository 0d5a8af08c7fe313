import Testing
@testable import AlmanacShell

/// Widths by grapheme cluster, as terminals draw them (issue 31: a ZWJ family measured 8).
@Suite struct TextWidthTests {
    @Test func emojiSequencesTakeTwoCells() {
        #expect(TextWidth.of("👩‍👩‍👧") == 2, "joined by U+200D")
        #expect(TextWidth.of("🇫🇷") == 2, "a flag: two regional indicators")
        #expect(TextWidth.of("❤️") == 2, "U+FE0F asks for emoji presentation")
        #expect(TextWidth.of("e\u{301}") == 1, "a letter and its combining accent")
        #expect(TextWidth.of("ab👩‍👩‍👧c") == 5)
    }

    @Test func truncationNeverSplitsACluster() {
        #expect(TextWidth.truncate("👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧", to: 5) == "👩‍👩‍👧👩‍👩‍👧…")
        #expect(TextWidth.truncate("ée\u{301}éé", to: 3) == "ée\u{301}…")
    }
}
