import CPTY
import Foundation

/// What a terminal shows after receiving some output: a small emulator of the xterm controls
/// libedit and the shell use, with the scrollback kept (nothing scrolls off the top; the
/// visible screen is the last `height` rows).
///
/// `TerminalText.strip` only removes escapes, so a redraw (`\r`, erase to end of line, a cursor
/// jump back over a completed word, a hint drawn after the cursor and erased again) leaves old
/// and new text side by side. This replays them instead, the way a person sees the result:
/// printable characters overwrite the cell under the cursor in the current style; `\r`, `\n`,
/// backspace and tab move it; CSI `A B C D E F G H f d` and `` ` `` move it (absolute
/// positions count from the top of the visible screen); `ESC 7`/`ESC 8` and CSI `s`/`u` save
/// and restore it; `K J X @ P` erase, insert and delete; `m` sets colours and attributes.
/// Wide characters (CJK, emoji) take two cells, as libc's `wcwidth` says; a line wraps when a
/// character is printed past the last column, as xterm does.
struct TerminalScreen: CustomStringConvertible {
    /// A colour as SGR names it: the 16 basic ones (0–7, bright 8–15), the 256-colour palette, or RGB.
    enum Color: Equatable, Sendable, CustomStringConvertible {
        case basic(Int)
        case palette(Int)
        case rgb(Int, Int, Int)

        static let red = Color.basic(1)
        static let green = Color.basic(2)
        static let yellow = Color.basic(3)
        static let blue = Color.basic(4)
        static let magenta = Color.basic(5)
        static let cyan = Color.basic(6)

        var description: String {
            switch self {
            case let .basic(n): ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"][n % 8] + (n >= 8 ? " (bright)" : "")
            case let .palette(n): "palette \(n)"
            case let .rgb(r, g, b): "rgb(\(r),\(g),\(b))"
            }
        }
    }

    /// How a cell is drawn.
    struct Style: Equatable, Sendable, CustomStringConvertible {
        var foreground: Color?
        var background: Color?
        var bold = false
        var dim = false
        var italic = false
        var underline = false
        var inverse = false

        static let plain = Style()

        var description: String {
            var parts: [String] = []
            if let foreground { parts.append(foreground.description) }
            if let background { parts.append("on \(background)") }
            for (flag, name) in [(bold, "bold"), (dim, "dim"), (italic, "italic"), (underline, "underline"), (inverse, "inverse")] where flag {
                parts.append(name)
            }
            return parts.isEmpty ? "plain" : parts.joined(separator: " ")
        }
    }

    struct Cell: Equatable {
        var scalar: Unicode.Scalar
        var style: Style
        /// The right half of a wide character: holds nothing of its own.
        var isContinuation = false

        static let blank = Cell(scalar: " ", style: .plain)
    }

    private(set) var cells: [[Cell]] = [[]]
    private(set) var cursorRow = 0
    private(set) var cursorColumn = 0
    private(set) var columns: Int
    /// Rows of the visible screen; absolute positions and scrolling use it.
    private(set) var height: Int
    /// The scrollback row shown at the top of the screen.
    private(set) var top = 0
    private var style = Style.plain
    private var saved: (row: Int, column: Int, style: Style)?
    private var pendingWrap = false

    init(_ bytes: [UInt8], columns: Int = 80, rows: Int = 24) {
        self.columns = max(1, columns)
        self.height = max(1, rows)
        feed(String(decoding: bytes, as: UTF8.self))
    }

    init(_ text: String, columns: Int = 80, rows: Int = 24) {
        self.columns = max(1, columns)
        self.height = max(1, rows)
        feed(text)
    }

    /// Output received in parts, the terminal's size changing between them (`sizes[i]` applies
    /// from byte `sizes[i].offset` on), as a window resized while a program runs.
    init(_ bytes: [UInt8], sizes: [(offset: Int, rows: Int, columns: Int)]) {
        let first = sizes.first ?? (0, 24, 80)
        self.columns = max(1, first.columns)
        self.height = max(1, first.rows)
        var start = 0
        for (index, size) in sizes.enumerated() {
            let end = index + 1 < sizes.count ? min(bytes.count, sizes[index + 1].offset) : bytes.count
            if index > 0 { resize(rows: size.rows, columns: size.columns) }
            if end > start { feed(String(decoding: bytes[start..<end], as: UTF8.self)) }
            start = max(start, end)
        }
    }

    /// A window resized the way xterm does it: nothing reflows; a narrower screen cuts lines,
    /// a shorter one keeps the cursor's row on it.
    mutating func resize(rows: Int, columns: Int) {
        self.columns = max(1, columns)
        height = max(1, rows)
        for row in cells.indices where cells[row].count > self.columns { cells[row].removeLast(cells[row].count - self.columns) }
        cursorColumn = min(cursorColumn, self.columns - 1)
        pendingWrap = false
        if cursorRow >= top + height { top = cursorRow - height + 1 }
        top = max(0, min(top, cells.count - 1))
    }

    // MARK: - Reading the screen

    /// Every line, trailing blanks removed.
    var lines: [String] { cells.indices.map { text(ofRow: $0) } }

    /// The line the cursor is on (trailing blanks removed): at a prompt, the prompt and what is typed.
    var cursorLine: String { text(ofRow: cursorRow) }

    /// The cursor's line up to the cursor, trailing blanks kept: at a prompt, the prompt and
    /// what is typed, with the space a completion added.
    var beforeCursor: String {
        let row = cells[cursorRow]
        var scalars = String.UnicodeScalarView()
        for cell in row.prefix(cursorColumn) where !cell.isContinuation { scalars.append(cell.scalar) }
        if row.count < cursorColumn { scalars.append(contentsOf: repeatElement(" ", count: cursorColumn - row.count)) }
        return String(scalars)
    }

    /// The cursor's line from the cursor on, trailing blanks removed: a hint drawn after the cursor.
    var afterCursor: String {
        let row = cells[cursorRow]
        guard cursorColumn < row.count else { return "" }
        return Self.text(of: row[cursorColumn...])
    }

    /// The lines above the cursor's line, oldest first.
    var linesAboveCursor: [String] { Array(lines[..<cursorRow]) }

    /// The lines of the visible screen (the last `height` rows of the scrollback).
    var visibleLines: [String] { Array(lines[top..<min(cells.count, top + height)]) }

    var description: String { lines.joined(separator: "\n") }

    func text(ofRow row: Int) -> String {
        guard cells.indices.contains(row) else { return "" }
        return Self.text(of: cells[row][...])
    }

    private static func text(of cells: ArraySlice<Cell>) -> String {
        var scalars = String.UnicodeScalarView()
        for cell in cells where !cell.isContinuation { scalars.append(cell.scalar) }
        while let last = scalars.last, last == " " { scalars.removeLast() }
        return String(scalars)
    }

    /// The style of each character of `row` (wide characters once), with the characters.
    func styledCharacters(ofRow row: Int) -> [(scalar: Unicode.Scalar, style: Style)] {
        guard cells.indices.contains(row) else { return [] }
        return cells[row].filter { !$0.isContinuation }.map { ($0.scalar, $0.style) }
    }

    /// The runs of one style along `row`: `[("filter", cyan), (" ", plain), ("regoin", red)…]`.
    func runs(ofRow row: Int) -> [(text: String, style: Style)] {
        var runs: [(text: String, style: Style)] = []
        for (scalar, style) in styledCharacters(ofRow: row) {
            if let last = runs.last, last.style == style {
                runs[runs.count - 1].text.unicodeScalars.append(scalar)
            } else {
                runs.append((String(scalar), style))
            }
        }
        return runs
    }

    /// The styles of the characters of the first `text` in `row` at or after `from` (counted in
    /// characters), or nil when `row` does not show it. One style when they all share it.
    func styles(of text: String, inRow row: Int, from: Int = 0) -> [Style]? {
        let characters = styledCharacters(ofRow: row)
        let wanted = Array(text.unicodeScalars)
        guard !wanted.isEmpty, characters.count >= wanted.count, from <= characters.count - wanted.count else { return nil }
        for start in from...(characters.count - wanted.count)
        where characters[start..<(start + wanted.count)].map(\.scalar) == wanted {
            return characters[start..<(start + wanted.count)].map(\.style)
        }
        return nil
    }

    /// The style `text` is drawn in on `row`, when all of it is drawn in one style.
    func style(of text: String, inRow row: Int, from: Int = 0) -> Style? {
        guard let styles = styles(of: text, inRow: row, from: from), let first = styles.first,
              styles.allSatisfy({ $0 == first }) else { return nil }
        return first
    }

    /// The style `text` is drawn in on the cursor's line.
    func style(of text: String, from: Int = 0) -> Style? { style(of: text, inRow: cursorRow, from: from) }

    // MARK: - Replaying output

    /// Cells a character takes, as libc says in a UTF-8 locale (the shell's own rule).
    static func width(of scalar: Unicode.Scalar) -> Int {
        if scalar.value < 0x7F { return 1 }
        return Int(cpty_wcwidth(scalar.value))
    }

    private mutating func feed(_ text: String) {
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar.value {
            case 0x1B:
                escape(&scalars)
            case 0x9B:
                controlSequence(&scalars)
            case 0x0D:
                pendingWrap = false
                cursorColumn = 0
            case 0x0A, 0x0B, 0x0C:
                pendingWrap = false
                lineFeed()
            case 0x08:
                pendingWrap = false
                cursorColumn = max(0, cursorColumn - 1)
            case 0x09:
                cursorColumn = min(columns - 1, (cursorColumn / 8 + 1) * 8)
            case 0x00..<0x20, 0x7F:
                continue
            default:
                print(scalar)
            }
        }
    }

    private mutating func print(_ scalar: Unicode.Scalar) {
        let width = Self.width(of: scalar)
        if width <= 0 {
            // A combining mark joins the character before it; it takes no cell.
            return
        }
        if pendingWrap || cursorColumn + width > columns {
            pendingWrap = false
            lineFeed()
            cursorColumn = 0
        }
        put(Cell(scalar: scalar, style: style), at: cursorColumn)
        if width == 2 { put(Cell(scalar: " ", style: style, isContinuation: true), at: cursorColumn + 1) }
        if cursorColumn + width >= columns {
            cursorColumn = columns - 1
            pendingWrap = true
        } else {
            cursorColumn += width
        }
    }

    /// Down one row; at the bottom of the screen the screen scrolls (the scrollback grows).
    private mutating func lineFeed() {
        moveTo(row: cursorRow + 1)
        if cursorRow >= top + height { top = cursorRow - height + 1 }
    }

    private mutating func moveTo(row: Int) {
        cursorRow = max(0, row)
        while cells.count <= cursorRow { cells.append([]) }
    }

    /// Moves up or down within the visible screen (cursor movement never scrolls).
    private mutating func moveVertically(by delta: Int) {
        moveTo(row: min(max(top, cursorRow + delta), top + height - 1))
    }

    private mutating func put(_ cell: Cell, at column: Int) {
        pad(to: column + 1)
        // Overwriting half of a wide character blanks its other half.
        if cells[cursorRow][column].isContinuation, column > 0 { cells[cursorRow][column - 1] = .blank }
        if column + 1 < cells[cursorRow].count, cells[cursorRow][column + 1].isContinuation, !cell.isContinuation {
            cells[cursorRow][column + 1] = .blank
        }
        cells[cursorRow][column] = cell
    }

    private mutating func pad(to count: Int) {
        if cells[cursorRow].count < count {
            cells[cursorRow].append(contentsOf: repeatElement(.blank, count: count - cells[cursorRow].count))
        }
    }

    private mutating func escape(_ scalars: inout String.UnicodeScalarView.Iterator) {
        guard let next = scalars.next() else { return }
        if next != "[" { pendingWrap = false }
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
        case "7":
            saveCursor()
        case "8":
            restoreCursor()
        case "M":  // reverse index: up one line
            moveVertically(by: -1)
        case "D":  // index
            lineFeed()
        case "E":  // next line
            lineFeed()
            cursorColumn = 0
        default:
            break
        }
    }

    private mutating func saveCursor() {
        saved = (cursorRow - top, cursorColumn, style)
    }

    private mutating func restoreCursor() {
        guard let saved else { cursorColumn = 0; moveTo(row: top); return }
        moveTo(row: top + saved.row)
        cursorColumn = saved.column
        style = saved.style
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
        case "d":  // to row
            moveTo(row: top + min(height, count) - 1)
        case "H", "f":  // to row and column
            let column = numbers.count > 1 ? max(1, numbers[1] ?? 1) : 1
            moveTo(row: top + min(height, count) - 1)
            cursorColumn = min(columns - 1, column - 1)
        case "C":
            cursorColumn = min(columns - 1, cursorColumn + count)
        case "D":
            cursorColumn = max(0, cursorColumn - count)
        case "A":
            moveVertically(by: -count)
        case "B", "e":
            moveVertically(by: count)
        case "E":
            moveVertically(by: count)
            cursorColumn = 0
        case "F":
            moveVertically(by: -count)
            cursorColumn = 0
        case "s":
            saveCursor()
        case "u":
            restoreCursor()
        case "K":
            eraseInLine(first ?? 0)
        case "J":
            eraseInDisplay(first ?? 0)
        case "X":  // erase characters
            pad(to: cursorColumn)
            let end = min(cells[cursorRow].count, cursorColumn + count)
            if end > cursorColumn {
                for index in cursorColumn..<end { cells[cursorRow][index] = .blank }
            }
        case "@":  // insert blanks
            pad(to: cursorColumn)
            cells[cursorRow].insert(contentsOf: repeatElement(.blank, count: count), at: cursorColumn)
            if cells[cursorRow].count > columns { cells[cursorRow].removeLast(cells[cursorRow].count - columns) }
        case "P":  // delete characters
            if cursorColumn < cells[cursorRow].count {
                cells[cursorRow].removeSubrange(cursorColumn..<min(cells[cursorRow].count, cursorColumn + count))
            }
        case "m":
            selectGraphicRendition(numbers.map { $0 ?? 0 })
        default:
            break
        }
        if final != "m" { pendingWrap = false }
    }

    private mutating func selectGraphicRendition(_ codes: [Int]) {
        var codes = codes.isEmpty ? [0] : codes
        var index = 0
        func extendedColor() -> Color? {
            // 38;5;N or 38;2;R;G;B
            guard index + 1 < codes.count else { return nil }
            if codes[index + 1] == 5, index + 2 < codes.count {
                defer { index += 2 }
                let n = codes[index + 2]
                return n < 16 ? .basic(n) : .palette(n)
            }
            if codes[index + 1] == 2, index + 4 < codes.count {
                defer { index += 4 }
                return .rgb(codes[index + 2], codes[index + 3], codes[index + 4])
            }
            return nil
        }
        while index < codes.count {
            let code = codes[index]
            switch code {
            case 0: style = .plain
            case 1: style.bold = true
            case 2: style.dim = true
            case 3: style.italic = true
            case 4: style.underline = true
            case 7: style.inverse = true
            case 22: style.bold = false; style.dim = false
            case 23: style.italic = false
            case 24: style.underline = false
            case 27: style.inverse = false
            case 30...37: style.foreground = .basic(code - 30)
            case 38: style.foreground = extendedColor()
            case 39: style.foreground = nil
            case 40...47: style.background = .basic(code - 40)
            case 48: style.background = extendedColor()
            case 49: style.background = nil
            case 90...97: style.foreground = .basic(code - 90 + 8)
            case 100...107: style.background = .basic(code - 100 + 8)
            default: break
            }
            index += 1
        }
        codes.removeAll()
    }

    private mutating func eraseInLine(_ mode: Int) {
        switch mode {
        case 1:
            pad(to: cursorColumn + 1)
            for index in 0...cursorColumn { cells[cursorRow][index] = .blank }
        case 2:
            cells[cursorRow] = []
        default:
            if cursorColumn < cells[cursorRow].count { cells[cursorRow].removeSubrange(cursorColumn...) }
        }
    }

    private mutating func eraseInDisplay(_ mode: Int) {
        switch mode {
        case 1:
            for row in top..<cursorRow { cells[row] = [] }
            eraseInLine(1)
        case 2, 3:
            for row in top..<cells.count { cells[row] = [] }
        default:
            eraseInLine(0)
            if cursorRow + 1 < cells.count { cells.removeSubrange((cursorRow + 1)...) }
        }
    }
}
