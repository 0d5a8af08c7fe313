import CLibEdit
import CShims

extension LineEditor {
    // MARK: - Ctrl-R

    /// Incremental search backwards through history. Our own, because libedit's indexes its
    /// key map with `(unsigned char)ch` and stops at many Cyrillic letters.
    func searchHistory() -> UInt8 {
        let (before, after) = currentLine()
        let original = before + after
        let normalPrompt = promptText
        // The search prompt's line is not the command line: no hint, no colours.
        decorationsSuspended = true
        defer { decorationsSuspended = false }
        var query = ""
        var found: Int?
        var failed = false

        func show(prompt: String, line: String) {
            redrawKeepingLine(above: []) {
                setPrompt(prompt)
                replaceLine(with: line)
            }
        }

        func showSearch() {
            let label = failed ? "failing reverse-i-search" : "reverse-i-search"
            show(prompt: "(\(label))`\(query)': ", line: found.map { store.entries[$0] } ?? original)
        }

        /// Finds the newest entry below index `start` that contains the query (ignoring case).
        func search(below start: Int) {
            guard !query.isEmpty else { found = nil; failed = false; return }
            let needle = query.lowercased()
            if let index = store.entries[..<min(start, store.entries.count)].lastIndex(where: { $0.lowercased().contains(needle) }) {
                found = index
                failed = false
            } else {
                failed = true
            }
        }

        func finish(keeping keep: Bool) {
            show(prompt: normalPrompt, line: keep ? (found.map { store.entries[$0] } ?? original) : original)
        }

        showSearch()
        while true {
            var key: wchar_t = 0
            guard el_wgetc(editLine, &key) == 1 else {
                // Ctrl-C or end of input: abandon the search with the line as it was.
                finish(keeping: false)
                return UInt8(CC_REFRESH)
            }
            switch key {
            case 0x12:  // Ctrl-R: the next older match
                search(below: found ?? store.entries.count)
            case 0x07:  // Ctrl-G: cancel
                finish(keeping: false)
                return UInt8(CC_REFRESH)
            case 0x08, 0x7F:  // Backspace
                if !query.isEmpty { query.removeLast() }
                found = nil
                search(below: store.entries.count)
            case 0x0A, 0x0D:  // Enter: run the match (libedit's own newline handling ends the line)
                finish(keeping: true)
                el_wpush(editLine, "\n".wide)
                return UInt8(CC_REFRESH)
            case 0x00..<0x20:  // other control keys end the search and leave the match to edit
                finish(keeping: true)
                return UInt8(CC_REFRESH)
            default:
                if let scalar = Unicode.Scalar(UInt32(bitPattern: key)) { query.unicodeScalars.append(scalar) }
                search(below: found.map { $0 + 1 } ?? store.entries.count)
            }
            showSearch()
        }
    }

}
