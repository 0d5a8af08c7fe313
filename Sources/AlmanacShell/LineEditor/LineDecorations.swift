import CLibEdit
import CShims

/// What the shell draws over the line libedit drew.
public struct LineDecoration: Equatable {
    /// Colours as SGR parameters over ranges of characters; nil draws nothing over the line
    /// (highlighting is off), empty draws it plain (to take back earlier colours).
    public var styles: [(characters: Range<Int>, sgr: String)]?
    /// Text to show dimmed after the cursor when the cursor is at the end of the line.
    public var hint: String?

    public init(styles: [(characters: Range<Int>, sgr: String)]? = nil, hint: String? = nil) {
        self.styles = styles
        self.hint = hint
    }

    public static func == (lhs: LineDecoration, rhs: LineDecoration) -> Bool {
        lhs.hint == rhs.hint && lhs.styles?.map(\.characters) == rhs.styles?.map(\.characters)
            && lhs.styles?.map(\.sgr) == rhs.styles?.map(\.sgr)
    }
}

/// Where libedit puts each character of the prompt and the line: one cell per column, a wide
/// character that does not fit at the end of a row moved to the next (libedit pads with a
/// space), a row that fills up ending there. Nil for text libedit draws otherwise (control
/// characters as `^X`, combining marks in a cell of their own): nothing is drawn over it.
struct EditorLayout {
    /// Row and column of each scalar of the prompt, then of the line, then of the end.
    private let positions: [(row: Int, column: Int)]
    private let promptCount: Int

    init?(prompt: String, line: some Sequence<Unicode.Scalar>, columns: Int) {
        let columns = max(1, columns)
        var positions: [(row: Int, column: Int)] = []
        var row = 0
        var column = 0
        var promptCount = 0
        for (isPrompt, scalars) in [(true, Array(prompt.unicodeScalars)), (false, Array(line))] {
            for scalar in scalars {
                let width = TextWidth.of(scalar)
                guard width > 0, !SafeText.needsEscape(scalar) else { return nil }
                if column + width > columns {
                    row += 1
                    column = 0
                }
                positions.append((row, column))
                column += width
                if column >= columns {
                    row += 1
                    column = 0
                }
                if isPrompt { promptCount += 1 }
            }
        }
        positions.append((row, column))
        self.positions = positions
        self.promptCount = promptCount
    }

    /// Where the line's scalar `index` is drawn (`index` == the line's length: its end).
    func position(ofLine index: Int) -> (row: Int, column: Int) { positions[promptCount + index] }

    var end: (row: Int, column: Int) { positions[positions.count - 1] }
}

extension LineEditor {
    // MARK: - Where things are

    private var columns: Int { max(1, TerminalInfo.current(descriptor: outputDescriptor).columns) }

    /// The scalars of the line, and the cursor's offset among them.
    private func lineScalars() -> (scalars: [Unicode.Scalar], cursor: Int) {
        guard let info = el_wline(editLine)?.pointee else { return ([], 0) }
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(info.lastchar - info.buffer)
        for index in 0..<(info.lastchar - info.buffer) {
            scalars.append(Unicode.Scalar(UInt32(bitPattern: info.buffer[index])) ?? "\u{FFFD}")
        }
        return (scalars, info.cursor - info.buffer)
    }

    /// The cursor's row (0 for the prompt's first) and column as libedit placed it.
    func cursorPosition() -> (row: Int, column: Int) {
        let (scalars, cursor) = lineScalars()
        if let layout = EditorLayout(prompt: visiblePrompt, line: scalars, columns: columns) { return layout.position(ofLine: cursor) }
        // Text libedit draws its own way: count cells, which is right but for the rare wrap.
        let cells = TextWidth.of(visiblePrompt) + TextWidth.of(String(String.UnicodeScalarView(scalars.prefix(cursor))))
        return (cells / columns, cells % columns)
    }

    /// Where the line ends.
    func endPosition() -> (row: Int, column: Int) {
        let (scalars, _) = lineScalars()
        if let layout = EditorLayout(prompt: visiblePrompt, line: scalars, columns: columns) { return layout.end }
        let cells = TextWidth.of(visiblePrompt) + TextWidth.of(String(String.UnicodeScalarView(scalars)))
        return (cells / columns, cells % columns)
    }

    // MARK: - Drawing over libedit's line

    /// Draws this key's colours and hint, once per key, after libedit's refresh; `again`
    /// (something the colours depend on changed, a dataset loaded) draws them once more if
    /// they differ from what is drawn.
    func decorateIfNeeded(again: Bool = false) {
        let onlyIfChanged = decorated
        guard !decorated || again else { return }
        decorated = true
        guard !decorationsSuspended, let decorate else {
            shownHint = nil
            return
        }
        let (scalars, cursor) = lineScalars()
        let line = String(String.UnicodeScalarView(scalars))
        // The highlighter counts characters; libedit, scalars.
        var scalarOfCharacter: [Int] = []
        scalarOfCharacter.reserveCapacity(scalars.count + 1)
        var offset = 0
        var cursorCharacter = 0
        for character in line {
            if offset < cursor { cursorCharacter += 1 }
            scalarOfCharacter.append(offset)
            offset += character.unicodeScalars.count
        }
        scalarOfCharacter.append(offset)
        let decoration = decorate(line, cursorCharacter)
        if onlyIfChanged {
            guard decoration != drawnDecoration else { return }
            eraseHint()
        }
        shownHint = nil
        drawnDecoration = decoration
        guard let layout = EditorLayout(prompt: visiblePrompt, line: scalars, columns: columns) else { return }
        var text = ""
        if let styles = decoration.styles, !scalars.isEmpty {
            var sgrOfScalar = [String?](repeating: nil, count: scalars.count)
            for style in styles {
                let lower = scalarOfCharacter[min(style.characters.lowerBound, scalarOfCharacter.count - 1)]
                let upper = scalarOfCharacter[min(style.characters.upperBound, scalarOfCharacter.count - 1)]
                for index in lower..<max(lower, upper) { sgrOfScalar[index] = style.sgr }
            }
            text += Self.redraw(scalars, styles: sgrOfScalar, layout: layout, cursor: layout.position(ofLine: cursor))
        }
        if let hint = decoration.hint, cursor == scalars.count, EditorLayout(prompt: "", line: hint.unicodeScalars, columns: .max) != nil {
            // Only on the cursor's row, with the last column free: a hint never wraps the line.
            let end = layout.end
            if end.row == 0, end.column + TextWidth.of(hint) < columns {
                text += "\u{1B}7\u{1B}[2m" + hint + "\u{1B}[0m\u{1B}8"
                shownHint = (line, hint)
                hintOnScreen = true
            }
        }
        if !text.isEmpty { writeOut(text) }
    }

    /// The line's characters written again in their styles, row by row, the cursor put back
    /// where it was (`ESC 7` / `ESC 8`). The same characters in the same cells: libedit's idea
    /// of the screen stays true.
    static func redraw(_ scalars: [Unicode.Scalar], styles: [String?], layout: EditorLayout,
                       cursor: (row: Int, column: Int)) -> String {
        var text = "\u{1B}7"
        var row = -1
        var current: String?? = .none
        for (index, scalar) in scalars.enumerated() {
            let position = layout.position(ofLine: index)
            if position.row != row {
                row = position.row
                text += "\u{1B}8"
                let down = row - cursor.row
                if down < 0 { text += "\u{1B}[\(-down)A" } else if down > 0 { text += "\u{1B}[\(down)B" }
                text += "\r"
                if position.column > 0 { text += "\u{1B}[\(position.column)C" }
                current = .some(nil)  // ESC 8 brought back the plain style saved with the cursor
            }
            let style = styles[index]
            if current != .some(style) {
                text += "\u{1B}[0m" + (style.map { "\u{1B}[\($0)m" } ?? "")
                current = .some(style)
            }
            text.unicodeScalars.append(scalar)
        }
        return text + "\u{1B}[0m\u{1B}8"
    }

    /// Takes the hint off the screen (the cursor is at the end of the line, where it starts).
    func eraseHint() {
        guard hintOnScreen else { return }
        writeOut("\u{1B}[K")
        hintOnScreen = false
    }

    // MARK: - Accepting the hint

    enum HintPart { case whole, word }
    enum Movement { case character, endOfLine, word }

    /// →, End, Ctrl-F (the whole hint) and Alt-F (its next word); without a hint, the key's
    /// usual movement.
    func acceptHint(_ part: HintPart, orMove movement: Movement) -> UInt8 {
        let (before, after) = currentLine()
        if after.isEmpty, let shown = shownHint, shown.line == before {
            var accepted = shown.hint
            if part == .word {
                let characters = Array(shown.hint)
                var end = 0
                while end < characters.count, characters[end] == " " { end += 1 }
                while end < characters.count, characters[end] != " " { end += 1 }
                accepted = String(characters[..<end])
            }
            el_winsertstr(editLine, accepted.wide)
            return UInt8(CC_REFRESH)
        }
        let rest = Array(after)
        var distance = 0
        switch movement {
        case .character: distance = min(1, rest.count)
        case .endOfLine: distance = rest.count
        case .word:
            while distance < rest.count, !(rest[distance].isLetter || rest[distance].isNumber) { distance += 1 }
            while distance < rest.count, rest[distance].isLetter || rest[distance].isNumber { distance += 1 }
        }
        guard distance > 0 else { return UInt8(CC_NORM) }
        el_cursor(editLine, Int32(rest.prefix(distance).reduce(0) { $0 + $1.unicodeScalars.count }))
        return UInt8(CC_CURSOR)
    }
}
