import Testing

/// The test terminal itself: the pseudo-terminal tests judge the shell by this emulator's
/// screen, so it must replay what a terminal does with the controls the shell sends.
@Suite("The test terminal emulator")
struct TerminalScreenTests {
    @Test("a hint drawn after the cursor with save/restore leaves the cursor where it was")
    func saveAndRestoreCursor() {
        let screen = TerminalScreen("almanac> he\u{1B}7\u{1B}[2mlp about\u{1B}[0m\u{1B}[K\u{1B}8")
        #expect(screen.cursorLine == "almanac> help about")
        #expect(screen.beforeCursor == "almanac> he")
        #expect(screen.afterCursor == "lp about")
        #expect(screen.style(of: "lp about")?.dim == true)
        #expect(screen.style(of: "almanac> he") == .plain)
        // Erasing the hint before the next key: clear to the end of the line at the cursor.
        let erased = TerminalScreen("almanac> he\u{1B}7\u{1B}[2mlp about\u{1B}[0m\u{1B}8\u{1B}[Kl")
        #expect(erased.cursorLine == "almanac> hel")
        #expect(erased.afterCursor == "")
    }

    @Test("CSI s and u save and restore the cursor too")
    func csiSaveRestore() {
        let screen = TerminalScreen("ab\u{1B}[sxyz\u{1B}[uQ")
        #expect(screen.cursorLine == "abQyz")
    }

    @Test("absolute positions count from the top of the visible screen")
    func absolutePositioning() {
        // Thirty lines on a ten-row screen: row 1 of the screen is line 21 of the scrollback.
        let lines = (1...30).map { "line \($0)" }.joined(separator: "\r\n")
        let screen = TerminalScreen(lines + "\u{1B}[1;3HX\u{1B}[10dY\u{1B}[5GZ", columns: 20, rows: 10)
        #expect(screen.lines[20] == "liXe 21")
        #expect(screen.lines[29] == "linYZ30")
        #expect(screen.visibleLines.count == 10)
        #expect(screen.visibleLines.first == "liXe 21")
        #expect(screen.cursorRow == 29)
    }

    @Test("relative moves stay on the screen; a line feed at the bottom scrolls")
    func relativeMoves() {
        let screen = TerminalScreen("one\r\ntwo\r\nthree\u{1B}[5AX", columns: 20, rows: 3)
        // Five up from the last row of a three-row screen stops at its first row, same column.
        #expect(screen.lines == ["one  X", "two", "three"])
        // Four lines on three rows: "1" scrolled off, so the top of the screen is "2".
        let scrolled = TerminalScreen("1\r\n2\r\n3\r\n4\u{1B}[9AX", columns: 20, rows: 3)
        #expect(scrolled.lines == ["1", "2X", "3", "4"])
    }

    @Test("colours: basic, bright, 256 and RGB; reset and default")
    func colours() {
        let screen = TerminalScreen(
            "\u{1B}[1;36mcmd\u{1B}[0m \u{1B}[31mbad\u{1B}[39m \u{1B}[91mbright\u{1B}[0m \u{1B}[38;5;208morange\u{1B}[m \u{1B}[38;2;1;2;3mrgb\u{1B}[0m plain")
        #expect(screen.style(of: "cmd") == TerminalScreen.Style(foreground: .cyan, bold: true))
        #expect(screen.style(of: "bad")?.foreground == .red)
        #expect(screen.style(of: "bright")?.foreground == .basic(9))
        #expect(screen.style(of: "orange")?.foreground == .palette(208))
        #expect(screen.style(of: "rgb")?.foreground == .rgb(1, 2, 3))
        #expect(screen.style(of: "plain") == .plain)
        #expect(screen.runs(ofRow: 0).map(\.text) == ["cmd", " ", "bad", " ", "bright", " ", "orange", " ", "rgb", " plain"])
    }

    @Test("wide characters take two cells; the line wraps before one that does not fit")
    func wideCharacters() {
        let screen = TerminalScreen("漢字ab", columns: 10)
        #expect(screen.cursorLine == "漢字ab")
        #expect(screen.beforeCursor == "漢字ab")
        // The cursor is after six cells: ESC[7G puts an X right after "ab".
        let placed = TerminalScreen("漢字ab\u{1B}[7GX", columns: 10)
        #expect(placed.cursorLine == "漢字abX")
        let wrapped = TerminalScreen("abcd漢", columns: 5)
        #expect(wrapped.lines == ["abcd", "漢"])
        // Overwriting half of a wide character blanks the other half.
        let overwritten = TerminalScreen("漢字\u{1B}[2GZ", columns: 10)
        #expect(overwritten.cursorLine == " Z字")
    }

    @Test("a line that fills the row wraps only when the next character comes, colours or not")
    func pendingWrap() {
        let screen = TerminalScreen("abcde\u{1B}[0mf", columns: 5)
        #expect(screen.lines == ["abcde", "f"])
        let returned = TerminalScreen("abcde\rX", columns: 5)
        #expect(returned.lines == ["Xbcde"])
    }

    @Test("a resize applies to what arrives after it")
    func resize() {
        let bytes = Array("abcdefgh".utf8) + Array("\r\n123456789".utf8)
        let screen = TerminalScreen(bytes, sizes: [(0, 24, 80), (8, 24, 4)])
        #expect(screen.lines == ["abcd", "1234", "5678", "9"])
    }
}
