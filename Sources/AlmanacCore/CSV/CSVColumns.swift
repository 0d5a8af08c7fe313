/// The columns of a CSV text as the parser learns them: each one's key in the document and
/// its type so far. A column is typed by all its cells: numbers while every cell is a number
/// (or a word for none), booleans while every cell is `true` or `false`, text from the first
/// cell that is neither. Cells are written as what the column is when they come; what the
/// column turns out to be is settled once at the end (`JSONDocumentBuilder.settle`).
struct CSVColumn {
    enum Kind: UInt8 { case empty, number, boolean, text }

    var name: String
    var key: (payload: UInt64, ordinal: Int)
    var kind = Kind.empty
    /// The decimal separator its numbers use, once one did (`.` or, in a `;` file, `,`).
    var separator: UInt8?
    /// Numbers were written before a cell showed the column is text: they become text.
    var numbersBeforeText = false
    /// Words for none (`NULL`, `NA`) were written as text: null in a column of numbers or booleans.
    var nullWords = false
    /// Numbers with a decimal comma were written, as written, after the column became text:
    /// they stay numbers (`CSVParser.writeCommaNumber`).
    var commaNumbers = false

    /// What the end has to change in this column's cells, if anything.
    var settling: CSVSettling? {
        switch kind {
        case .boolean: .booleans
        case .number where nullWords: .nulls
        case .text where numbersBeforeText || commaNumbers: .numbersToText(separator: separator)
        default: nil
        }
    }
}

/// What a column's cells become once the whole column is known.
enum CSVSettling {
    /// `true`/`false` text to booleans, words for none to null.
    case booleans
    /// Words for none among numbers to null.
    case nulls
    /// Numbers written before the column showed it is text: text again, but for numbers with
    /// a decimal comma (`separator`: the column's before; a literal with a comma: after),
    /// which stay numbers.
    case numbersToText(separator: UInt8?)
}

extension JSONDocumentBuilder {
    /// Pre-interns a column's key, so each cell's key is one node word written.
    mutating func internKey(_ name: String) -> (payload: UInt64, ordinal: Int) {
        var name = name
        return name.withUTF8 { bytes in
            resolvePending()
            return keys.intern(bytes, arena: &arenaBytes)
        }
    }

    /// Appends the key of a pre-interned column.
    @inline(__always)
    mutating func appendKey(column key: (payload: UInt64, ordinal: Int)) { appendKey(key) }

    /// Rewrites the cells of the columns whose type the whole text settled (see `CSVColumn`),
    /// in one pass over the records of the array at `root` (the last node written); a number
    /// that becomes text takes one node instead of two, so the nodes after it (a cell's list
    /// or object with its containers' ends) move down.
    mutating func settle(_ columns: [CSVColumn], root: Int) {
        var actions: [UInt64: CSVSettling] = [:]
        for column in columns {
            if let settling = column.settling { actions[Self.stringTag | column.key.payload] = settling }
        }
        guard !actions.isEmpty, nodeWords.count > root + 2 else { return }
        resolvePending()
        let total = nodeWords.count
        var read = root + 2
        var write = root + 2
        while read < total {
            let object = write
            let members = count(at: read)
            nodeWords[write] = nodeWords[read]
            read += 2
            write += 2
            for _ in 0..<members {
                let key = nodeWords[read]
                nodeWords[write] = key
                read += 1
                write += 1
                let kind = kind(at: read)
                guard let action = actions[key] else {
                    let words = moveValue(from: read, to: write)
                    read += words
                    write += words
                    continue
                }
                switch (action, kind) {
                case (.booleans, .string), (.nulls, .string):
                    nodeWords[write] = settledWord(of: nodeWords[read], booleans: { if case .booleans = action { true } else { false } }())
                    read += 1
                    write += 1
                case let (.numbersToText(separator), .number):
                    if let number = settledNumberWord(of: nodeWords[read], separator: separator) {
                        nodeWords[write] = number
                        nodeWords[write + 1] = nodeWords[read + 1]
                        write += 2
                    } else {
                        nodeWords[write] = textWord(ofLiteral: nodeWords[read])
                        write += 1
                    }
                    read += 2
                default:
                    let words = moveValue(from: read, to: write)
                    read += words
                    write += words
                }
            }
            nodeWords[object + 1] = UInt64(write)
        }
        nodeWords[root + 1] = UInt64(write)
        if write < total { nodeWords.removeLast(total - write) }
    }

    /// A string's node word as a boolean or null (a word for none), or as it was.
    private func settledWord(of word: UInt64, booleans: Bool) -> UInt64 {
        let range = JSONDocument.textRange(ofWord: word)
        let text = CSVCell.trimmed(UnsafeBufferPointer(rebasing: arenaBytes.buffer[range]))
        if booleans, let flag = CSVCell.boolean(text) { return UInt64((flag ? JSONDocument.Kind.true : .false).rawValue) << JSONDocument.tagShift }
        if CSVCell.isNullWord(text) { return UInt64(JSONDocument.Kind.null.rawValue) << JSONDocument.tagShift }
        return word
    }

    /// A number's first node word if it stays a number in a column of text: one with a
    /// decimal comma, written before the column became text (its `separator` a comma, its
    /// literal with a point) or after (its literal as written, normalized here). Nil otherwise.
    private mutating func settledNumberWord(of word: UInt64, separator: UInt8?) -> UInt64? {
        let range = JSONDocument.textRange(ofWord: word)
        let literal = UnsafeBufferPointer(rebasing: arenaBytes.buffer[range])
        if literal.contains(UInt8(ascii: ",")) {
            let normalized = CSVCell.normalized(literal)
            let payload = UInt64(arenaBytes.count) << JSONDocument.lengthBits | UInt64(normalized.count)
            normalized.withUnsafeBufferPointer { arenaBytes.append($0) }
            return UInt64(JSONDocument.Kind.number.rawValue) << JSONDocument.tagShift | payload
        }
        return separator == UInt8(ascii: ",") && literal.contains(UInt8(ascii: ".")) ? word : nil
    }

    /// A number literal's node word as an interned string. (A literal with a decimal comma
    /// stays a number, so none needs its comma back.)
    private mutating func textWord(ofLiteral word: UInt64) -> UInt64 {
        let range = JSONDocument.textRange(ofWord: word)
        let payload = word & ~(UInt64(0xF) << JSONDocument.tagShift)
        guard range.count <= Self.internLimit else { return Self.stringTag | payload }
        let slice = UnsafeBufferPointer(rebasing: arenaBytes.buffer[range])
        return Self.stringTag | values.adopt(hash: InternTable.hash(slice), payload: payload, arena: arenaBytes.buffer)
    }

    /// Moves the value at `read` to `write` (not after it), its containers' ends moved with
    /// it (a cell's JSON list or object); returns the words it takes.
    mutating func moveValue(from read: Int, to write: Int) -> Int {
        let word = nodeWords[read]
        switch JSONDocument.kind(ofWord: word) {
        case .number:
            nodeWords[write] = word
            nodeWords[write + 1] = nodeWords[read + 1]
            return 2
        case .array, .object:
            let end = Int(nodeWords[read + 1])
            var index = read
            while index < end {
                let word = nodeWords[index]
                nodeWords[write + index - read] = word
                switch JSONDocument.kind(ofWord: word) {
                case .number: nodeWords[write + index - read + 1] = nodeWords[index + 1]; index += 2
                case .array, .object: nodeWords[write + index - read + 1] = nodeWords[index + 1] - UInt64(read - write); index += 2
                default: index += 1
                }
            }
            return end - read
        default:
            nodeWords[write] = word
            return 1
        }
    }
}
