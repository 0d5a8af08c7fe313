import Foundation

/// What a terminal shows after receiving some output: a small emulator of the xterm controls
/// libedit and the shell use, line by line, with the scrollback kept (nothing scrolls off).
///
/// `TerminalText.strip` only removes escapes, so a redraw (`\r`, erase to end of line, a cursor
/// jump back over a completed word, an inserted character) leaves old and new text side by side.
/// This replays them instead: printable characters overwrite the cell under the cursor; `\r`,
/// `\n`, backspace and tab move it; CSI `G` `C` `D` `A` `B` `d` move it; `K` `J` `X` `@` `P`
/// erase, insert and delete; other escapes (colours, modes) are ignored. Each Unicode scalar
/// is one cell (enough for Latin, Cyrillic and the box characters the shell draws); a line
/// wraps when a character is printed past the last column, as xterm does.
struct TerminalScreen: CustomStringConvertible {
    private(set) var rows: [[Unicode.Scalar]] = [[]]
    private(set) var cursorRow = 0
    private(set) var cursorColumn = 0
    let columns: Int

    init(_ bytes: [UInt8], columns: Int = 80) {
        self.columns = max(1, columns)
        feed(String(decoding: bytes, as: UTF8.self))
    }

    init(_ text: String, columns: Int = 80) {
        self.columns = max(1, columns)
        feed(text)
    }

    /// Every line, trailing blanks removed.
    var lines: [String] {
        rows.map { row in
            var scalars = String.UnicodeScalarView(row)
            while let last = scalars.last, last == " " { scalars.removeLast() }
            return String(scalars)
        }
    }

    /// The line the cursor is on (trailing blanks removed): at a prompt, the prompt and what is typed.
    var cursorLine: String { lines[cursorRow] }

    /// The cursor's line up to the cursor, trailing blanks kept: at a prompt, the prompt and
    /// what is typed, with the space a completion added.
    var beforeCursor: String {
        let row = rows[cursorRow]
        var scalars = String.UnicodeScalarView(row.prefix(cursorColumn))
        if row.count < cursorColumn { scalars.append(contentsOf: repeatElement(" ", count: cursorColumn - row.count)) }
        return String(scalars)
    }

    /// The lines above the cursor's line, oldest first.
    var linesAboveCursor: [String] { Array(lines[..<cursorRow]) }

    var description: String { lines.joined(separator: "\n") }

    // MARK: - Replaying output

    private mutating func feed(_ text: String) {
        var scalars = text.unicodeScalars.makeIterator()
        var pendingWrap = false
        while let scalar = scalars.next() {
            switch scalar.value {
            case 0x1B:
                pendingWrap = false
                escape(&scalars)
            case 0x9B:
                pendingWrap = false
                controlSequence(&scalars)
            case 0x0D:
                pendingWrap = false
                cursorColumn = 0
            case 0x0A, 0x0B, 0x0C:
                pendingWrap = false
                moveTo(row: cursorRow + 1)
            case 0x08:
                pendingWrap = false
                cursorColumn = max(0, cursorColumn - 1)
            case 0x09:
                cursorColumn = min(columns - 1, (cursorColumn / 8 + 1) * 8)
            case 0x00..<0x20, 0x7F:
                continue
            default:
                if pendingWrap {
                    pendingWrap = false
                    moveTo(row: cursorRow + 1)
                    cursorColumn = 0
                }
                put(scalar)
                if cursorColumn == columns - 1 {
                    pendingWrap = true
                } else {
                    cursorColumn += 1
                }
            }
        }
    }

    private mutating func moveTo(row: Int) {
        cursorRow = max(0, row)
        while rows.count <= cursorRow { rows.append([]) }
    }

    private mutating func put(_ scalar: Unicode.Scalar) {
        pad(to: cursorColumn + 1)
        rows[cursorRow][cursorColumn] = scalar
    }

    private mutating func pad(to count: Int) {
        if rows[cursorRow].count < count {
            rows[cursorRow].append(contentsOf: repeatElement(" ", count: count - rows[cursorRow].count))
        }
    }

    private mutating func escape(_ scalars: inout String.UnicodeScalarView.Iterator) {
        guard let next = scalars.next() else { return }
        switch next {
        case "[":
            controlSequence(&scalars)
        case "]", "P", "^", "_", "X":
            var previous: Unicode.Scalar = " "
            while let scalar = scalars.next() {
                if scalar == "\u{07}" || (previous == "\u{1B}" && scalar == "\\") { break }
                previous = scalar
            }
        case "(", ")", "*", "+", "#", "%", " ":
            _ = scalars.next()
        case "M":  // reverse index: up one line
            moveTo(row: cursorRow - 1)
        case "D", "E":  // index, next line
            moveTo(row: cursorRow + 1)
            if next == "E" { cursorColumn = 0 }
        default:
            break
        }
    }

    private mutating func controlSequence(_ scalars: inout String.UnicodeScalarView.Iterator) {
        var parameters = ""
        var final: Unicode.Scalar = "@"
        while let scalar = scalars.next() {
            if (0x40...0x7E).contains(scalar.value) {
                final = scalar
                break
            }
            parameters.unicodeScalars.append(scalar)
        }
        // Private modes (`?1h`, `?2004l`) and the like change nothing on the screen.
        if parameters.hasPrefix("?") || parameters.hasPrefix(">") || parameters.hasPrefix("=") { return }
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        let first = numbers.first.flatMap { $0 }
        let count = max(1, first ?? 1)
        switch final {
        case "G", "`":  // to column
            cursorColumn = min(columns - 1, count - 1)
        case "C":
            cursorColumn = min(columns - 1, cursorColumn + count)
        case "D":
            cursorColumn = max(0, cursorColumn - count)
        case "A":
            moveTo(row: cursorRow - count)
        case "B", "e":
            moveTo(row: cursorRow + count)
        case "E":
            moveTo(row: cursorRow + count)
            cursorColumn = 0
        case "F":
            moveTo(row: cursorRow - count)
            cursorColumn = 0
        case "K":
            eraseInLine(first ?? 0)
        case "J":
            eraseInDisplay(first ?? 0)
        case "X":  // erase characters
            pad(to: cursorColumn)
            let end = min(rows[cursorRow].count, cursorColumn + count)
            if end > cursorColumn {
                for index in cursorColumn..<end { rows[cursorRow][index] = " " }
            }
        case "@":  // insert blanks
            pad(to: cursorColumn)
            rows[cursorRow].insert(contentsOf: repeatElement(" ", count: count), at: cursorColumn)
            if rows[cursorRow].count > columns { rows[cursorRow].removeLast(rows[cursorRow].count - columns) }
        case "P":  // delete characters
            if cursorColumn < rows[cursorRow].count {
                rows[cursorRow].removeSubrange(cursorColumn..<min(rows[cursorRow].count, cursorColumn + count))
            }
        default:
            break  // SGR (`m`), absolute positioning and the rest: not replayed
        }
    }

    private mutating func eraseInLine(_ mode: Int) {
        switch mode {
        case 1:
            pad(to: cursorColumn + 1)
            for index in 0...cursorColumn { rows[cursorRow][index] = " " }
        case 2:
            rows[cursorRow] = []
        default:
            if cursorColumn < rows[cursorRow].count { rows[cursorRow].removeSubrange(cursorColumn...) }
        }
    }

    private mutating func eraseInDisplay(_ mode: Int) {
        switch mode {
        case 1:
            for row in 0..<cursorRow { rows[row] = [] }
            eraseInLine(1)
        case 2, 3:
            for row in rows.indices { rows[row] = [] }
        default:
            eraseInLine(0)
            if cursorRow + 1 < rows.count { rows.removeSubrange((cursorRow + 1)...) }
        }
    }
}
