import CLibEdit
import CShims

extension LineEditor {
    // MARK: - Completion

    /// TAB: one candidate is inserted whole; several complete their common prefix, and a
    /// second TAB that adds nothing lists them in columns.
    func completeWord() -> UInt8 {
        let (beforeCursor, afterCursor) = currentLine()
        let result = completion(beforeCursor)
        let state = (line: beforeCursor + afterCursor, cursor: beforeCursor.unicodeScalars.count)
        let previous = lastTab
        lastTab = state
        if result.candidates.isEmpty { return UInt8(CC_REFRESH_BEEP) }
        if let insertion = result.insertion {
            let replaced = String(beforeCursor.dropFirst(result.replaceFrom))
            el_deletestr(editLine, Int32(replaced.unicodeScalars.count))
            el_winsertstr(editLine, insertion.wide)
            // The next TAB on the completed text lists the candidates at once.
            let (before, after) = currentLine()
            lastTab = (line: before + after, cursor: before.unicodeScalars.count)
            return UInt8(CC_REFRESH)
        }
        guard let last = previous, last.line == state.line, last.cursor == state.cursor else {
            return UInt8(CC_REFRESH_BEEP)
        }
        list(result.candidates.map(\.listed))
        return UInt8(CC_REDISPLAY)
    }

    /// The escape that moves the cursor from where it is to the last row of the input.
    func moveBelowInput() -> String {
        let down = endPosition().row - cursorPosition().row
        return down > 0 ? "\u{1B}[\(down)B" : ""
    }

    /// Lists candidates below the line in columns. A list taller than the screen asks first,
    /// as readline does, then shows a screenful at a time (`--More--`: space for the next,
    /// Enter for one more line, q to stop).
    func list(_ candidates: [String]) {
        let terminal = TerminalInfo.current(descriptor: outputDescriptor)
        let lines = ColumnLayout.render(candidates, width: terminal.columns).split(separator: "\n", omittingEmptySubsequences: false)
        writeOut(moveBelowInput() + "\r\n")
        // What follows is drawn below libedit's line: nothing may be drawn over that line meanwhile.
        decorationsSuspended = true
        defer { decorationsSuspended = false }
        let page = max(1, terminal.rows - 1)
        if lines.count > page {
            writeOut("Display all \(candidates.count.grouped) possibilities? (y or n)")
            guard ask(yes: ["y", "Y", " "], no: ["n", "N", "q", "Q", "\u{7F}", "\u{07}"]) else {
                writeOut("\r\n")
                return
            }
            writeOut("\r\n")
        }
        var shown = 0
        var allowed = page
        while shown < lines.count {
            let end = min(lines.count, allowed)
            writeOut(lines[shown..<end].joined(separator: "\r\n") + "\r\n")
            shown = end
            guard shown < lines.count else { break }
            writeOut("--More--")
            let key = readKey()
            writeOut("\r\u{1B}[K")
            switch key {
            case " ": allowed = shown + page
            case "\r", "\n", "j": allowed = shown + 1
            default: return
            }
        }
    }

    /// Waits for one of `yes` (true) or `no` (false); other keys ring the bell. Ctrl-C, end of
    /// input and a signal say no.
    private func ask(yes: Set<Character>, no: Set<Character>) -> Bool {
        while true {
            guard let key = readKey() else { return false }
            if yes.contains(key) { return true }
            if no.contains(key) { return false }
            writeOut("\u{07}")
        }
    }

    /// The next key from libedit's input (nil on Ctrl-C, end of input or a signal).
    private func readKey() -> Character? {
        var key: wchar_t = 0
        guard el_wgetc(editLine, &key) == 1, let scalar = Unicode.Scalar(UInt32(bitPattern: key)) else { return nil }
        return Character(scalar)
    }
}
