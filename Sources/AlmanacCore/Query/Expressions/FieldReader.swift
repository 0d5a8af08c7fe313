/// A field's values over rows of a dataset as a vector of its bound type: from the field's
/// column when it has one (one small array read in order), else record by record. Each
/// distinct short string is read once (equal short strings share a node word).
struct FieldReader {
    let dataset: Dataset
    let catalog: FieldCatalog
    let rows: [Int]
    let cancellation: Cancellation

    func read(_ name: String, type: ValueType, container: Bool) throws(CancelledError) -> ValueVector {
        let element = type.element
        if element == .null { return ExpressionEvaluator.constant(.null, type: .null, rows: rows.count) }
        let path = dataset.compile(FieldPath(name))
        var reading = Reading(document: dataset.document, type: element)
        if !type.isList, !container, !path.hasTwinSpellings, let column = catalog.column(name) {
            if element == .number {
                reading.numbers = try Self.numbers(of: column, rows: rows, cancellation: cancellation) { kind, word in
                    reading.take(kind: kind, word: word)
                    return reading.numbers.removeLast()
                }
                return reading.vector(offsets: nil)
            }
            // One value per row: the vector sized once (growing it was a fifth of a computed filter).
            reading.reserve(rows.count)
            try column.kinds.withUnsafeBufferPointer { kinds throws(CancelledError) in
                try column.words.withUnsafeBufferPointer { words throws(CancelledError) in
                    for (position, row) in rows.enumerated() {
                        if position & 0xFFFF == 0 { try cancellation.checkpoint() }
                        reading.take(kind: kinds[row], word: words[row])
                    }
                }
            }
            return reading.vector(offsets: nil)
        }
        var offsets: [Int]? = type.isList ? [0] : nil
        offsets?.reserveCapacity(rows.count + 1)
        for (position, row) in rows.enumerated() {
            if position & 0x3FFF == 0 { try cancellation.checkpoint() }
            let before = reading.count
            switch dataset.scalar(of: path, row: row) {
            case .missing: break
            case let .node(node): reading.take(node: node)
            case .several:
                dataset.forEachValue(of: path, row: row) { value in
                    if offsets == nil, reading.count > before { return }
                    reading.take(value)
                }
            }
            if offsets != nil {
                offsets!.append(reading.count)
            } else if reading.count == before {
                reading.takeAbsent()
            }
        }
        return reading.vector(offsets: offsets)
    }

    /// A number field's column as numbers, written straight into the vector: the entries that
    /// are not numbers (text, a literal, null) are few, and `other` reads each afterwards.
    static func numbers(of column: FieldCatalog.Column, rows: [Int], cancellation: Cancellation,
                        other: (UInt8, UInt64) -> Double) throws(CancelledError) -> [Double] {
        var numbers = [Double](repeating: .nan, count: rows.count)
        var others: [Int] = []
        let numberKind = JSONDocument.Kind.number.rawValue
        var start = 0
        while start < rows.count {
            try cancellation.checkpoint()
            let end = min(start + 0x10000, rows.count)
            column.kinds.withUnsafeBufferPointer { kinds in
                column.words.withUnsafeBufferPointer { words in
                    rows.withUnsafeBufferPointer { rows in
                        numbers.withUnsafeMutableBufferPointer { numbers in
                            for position in start..<end {
                                let row = rows[position]
                                if kinds[row] == numberKind {
                                    numbers[position] = Double(bitPattern: words[row])
                                } else {
                                    others.append(position)
                                }
                            }
                        }
                    }
                }
            }
            start = end
        }
        for position in others {
            let row = rows[position]
            numbers[position] = other(column.kinds[row], column.words[row])
        }
        return numbers
    }

    /// Whether the value at the path itself is there (for `is null` on an object): missing,
    /// null, an empty object or list, or a word for none are not.
    func presence(of name: String) throws(CancelledError) -> [Bool] {
        let path = dataset.compile(FieldPath(name))
        let document = dataset.document
        let keys = path.path.components.map { document.key($0) }
        var present = [Bool](repeating: false, count: rows.count)
        for (position, row) in rows.enumerated() {
            if position & 0x3FFF == 0 { try cancellation.checkpoint() }
            var node: Int? = dataset.records[row]
            var crossesList = false
            for key in keys {
                guard let current = node else { break }
                if document.kind(at: current) == .array { crossesList = true; break }
                node = document.kind(at: current) == .object ? document.member(key, of: current) : nil
            }
            if crossesList {
                var any = false
                dataset.forEachValue(of: path, row: row) { value in if !any, dataset.isPresent(value) { any = true } }
                present[position] = any
                continue
            }
            guard let node else { continue }
            switch document.kind(at: node) {
            case .null: present[position] = false
            case .object, .array: present[position] = document.count(at: node) > 0
            case .string: present[position] = !ValueText.isAbsent(stringAt: node, in: document)
            default: present[position] = true
            }
        }
        return present
    }

    /// Values appended one at a time, read as the field's type.
    struct Reading {
        let document: JSONDocument
        let type: ValueType
        var numbers: [Double] = []
        var texts: [String?] = []
        var booleans: [UInt8] = []
        var numberOfWord: [UInt64: Double] = [:]
        var textOfWord: [UInt64: String?] = [:]

        init(document: JSONDocument, type: ValueType) {
            self.document = document
            self.type = type
        }

        mutating func reserve(_ capacity: Int) {
            switch type {
            case .number, .date: numbers.reserveCapacity(capacity)
            case .boolean: booleans.reserveCapacity(capacity)
            default: texts.reserveCapacity(capacity)
            }
        }

        var count: Int {
            switch type {
            case .number, .date: numbers.count
            case .boolean: booleans.count
            default: texts.count
            }
        }

        mutating func takeAbsent() {
            switch type {
            case .number, .date: numbers.append(.nan)
            case .boolean: booleans.append(ValueVector.absent)
            default: texts.append(nil)
            }
        }

        /// A column's entry: a kind and a node word (a number's bits for numbers).
        @inline(__always)
        mutating func take(kind: UInt8, word: UInt64) {
            switch kind {
            case JSONDocument.Kind.number.rawValue:
                let number = Double(bitPattern: word)
                switch type {
                case .number: numbers.append(number)
                case .date: numbers.append(.nan)
                case .boolean: booleans.append(ValueVector.absent)
                default: texts.append(NumberFormat.plain(number))
                }
            case JSONDocument.Kind.string.rawValue: take(stringWord: word)
            case JSONDocument.Kind.true.rawValue: take(literal: true)
            case JSONDocument.Kind.false.rawValue: take(literal: false)
            default: takeAbsent()
            }
        }

        mutating func take(node: Int) {
            switch document.kind(at: node) {
            case .number:
                switch type {
                case .number: numbers.append(document.number(at: node))
                case .date: numbers.append(.nan)
                case .boolean: booleans.append(ValueVector.absent)
                default: texts.append(document.string(at: node))
                }
            case .string: take(stringWord: document.node(node))
            case .true: take(literal: true)
            case .false: take(literal: false)
            default: takeAbsent()
            }
        }

        mutating func take(_ value: FieldValue) {
            switch value {
            case let .node(node): take(node: node)
            case let .number(number):
                switch type {
                case .number: numbers.append(number)
                case .date: numbers.append(.nan)
                case .boolean: booleans.append(ValueVector.absent)
                default: texts.append(NumberFormat.plain(number))
                }
            case let .text(text): take(text: text)
            }
        }

        mutating func take(literal: Bool) {
            switch type {
            case .boolean: booleans.append(literal ? 1 : 0)
            case .number, .date: numbers.append(.nan)
            default: texts.append(literal ? "true" : "false")
            }
        }

        @inline(__always)
        mutating func take(stringWord word: UInt64) {
            switch type {
            case .number, .date:
                if let known = numberOfWord[word] { numbers.append(known); return }
                let text = string(word)
                let number = ValueText.isAbsent(text) ? .nan
                    : (type == .number ? NumericText.value(of: text) : CalendarDate.seconds(text)) ?? .nan
                if JSONDocument.textRange(ofWord: word).count <= JSONDocumentBuilder.internLimit { numberOfWord[word] = number }
                numbers.append(number)
            case .boolean:
                let text = string(word).lowercased()
                booleans.append(text == "true" ? 1 : text == "false" ? 0 : ValueVector.absent)
            default:
                if let known = textOfWord[word] { texts.append(known); return }
                let text = string(word)
                let value: String? = ValueText.isAbsent(text) ? nil : text
                if JSONDocument.textRange(ofWord: word).count <= JSONDocumentBuilder.internLimit { textOfWord[word] = value }
                texts.append(value)
            }
        }

        mutating func take(text: String) {
            switch type {
            case .number: numbers.append(ValueText.isAbsent(text) ? .nan : NumericText.value(of: text) ?? .nan)
            case .date: numbers.append(CalendarDate.seconds(text) ?? .nan)
            case .boolean: booleans.append(text == "true" ? 1 : text == "false" ? 0 : ValueVector.absent)
            default: texts.append(ValueText.isAbsent(text) ? nil : text)
            }
        }

        func string(_ word: UInt64) -> String {
            let range = JSONDocument.textRange(ofWord: word)
            return document.arena.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
        }

        func vector(offsets: [Int]?) -> ValueVector {
            switch type {
            case .number, .date: ValueVector(.numbers(numbers), type: type, offsets: offsets)
            case .boolean: ValueVector(.booleans(booleans), type: type, offsets: offsets)
            default: ValueVector(.texts(texts), type: type == .null ? .text : type, offsets: offsets)
            }
        }
    }
}
