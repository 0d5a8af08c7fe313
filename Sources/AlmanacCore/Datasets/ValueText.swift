/// How a field's value reads for people — the one rule every view uses (detail views,
/// listings, `group`), so a field reads the same wherever it is shown:
///
/// - **Absent is absent**: `null`, `""`, and the placeholder words `n/a`, `unknown`, `none`
///   and `(none)` (any case) mean "no value". They read as nil: a detail leaves the row out,
///   a table leaves the cell empty, `group` counts them under `<none>`. Other words
///   (`indefinite`) are information and stay.
/// - **Numbers as written**: a number shows the digits of its source literal — never a
///   `Double` printed back (`123456789012345678901234567890`, `1e999` stay as they are).
/// - **Thousands grouped, except years and identifiers**: `5379475` reads `5,379,475`, but a
///   field whose name says it holds a year or an identifier (`year`, `birth_year`, `id`,
///   `cityId`, `code`, `zip`, …) keeps its digits together (`1500`, `9864`).
///
/// Machine formats (json, csv, …) never go through this: they write the source values.
public enum ValueText {
    /// Whether `text` is one of the ways data says "no value".
    public static func isAbsent(_ text: String) -> Bool {
        guard text.utf8.count <= 12, mayBeAbsent(utf8: text.utf8) else { return false }
        // ASCII (nearly always) without Foundation: it runs once per distinct value in the
        // loops of sort, group and describe. Twelve bytes or fewer make a small String.
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            var bytes = Array(text.utf8)[...]
            while let first = bytes.first, first == 0x20 || first == 0x09 { bytes = bytes.dropFirst() }
            while let last = bytes.last, last == 0x20 || last == 0x09 { bytes = bytes.dropLast() }
            let lowered = bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
            return absentWords.contains(String(decoding: lowered, as: UTF8.self))
        }
        return absentWords.contains(text.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// Whether the string at `index` of `document` is absent; a long one is not read at all.
    public static func isAbsent(stringAt index: Int, in document: JSONDocument) -> Bool {
        document.textRange(at: index).count <= 12 && isAbsent(document.string(at: index))
    }

    /// False when UTF-8 `bytes` surely are no word for none, decided from the bytes alone (the
    /// loops over every record ask it before making a `String`): every such word but "" holds
    /// an `n`, which no letter outside ASCII lower-cases to; and text that trims to "" starts
    /// with a space: a tab, or a Unicode space (U+0020, U+00A0, U+1680, U+2000–U+205F, U+3000),
    /// whose UTF-8 starts 0x20, 0xC2, 0xE1, 0xE2 or 0xE3.
    @inline(__always)
    static func mayBeAbsent<Bytes: Sequence<UInt8>>(utf8 bytes: Bytes) -> Bool {
        var first: UInt8?
        for byte in bytes {
            if byte == 0x6E || byte == 0x4E { return true }
            if first == nil { first = byte }
        }
        guard let first else { return true }
        return first == 0x20 || first == 0x09 || first == 0xC2 || (first >= 0xE1 && first <= 0xE3)
    }

    /// The words that mean no value, lower-cased (a database's SQL reads them from here too).
    public static let absentWords: Set<String> = ["", "n/a", "unknown", "none", "(none)"]

    /// The value as people read it in `field` (a key or dotted path), or nil when it is
    /// absent. Lists read as their present elements joined by commas; objects as JSON.
    public static func text(of value: JSONValue, field: String) -> String? {
        switch value.kind {
        case .string:
            let text = value.document.string(at: value.index)
            return isAbsent(text) ? nil : text
        case .number: return number(value.document.string(at: value.index), field: field)
        case .true: return "true"
        case .false: return "false"
        case .null: return nil
        case .array:
            let elements = value.array ?? []
            if elements.allSatisfy({ $0.kind != .object && $0.kind != .array }) {
                let texts = elements.compactMap { text(of: $0, field: field) }
                return texts.isEmpty ? nil : texts.joined(separator: ", ")
            }
            return elements.isEmpty ? nil : JSONWriter.string(value)
        case .object:
            return value.document.count(at: value.index) == 0 ? nil : JSONWriter.string(value)
        }
    }

    /// A number literal as written, its whole part grouped in thousands unless `field` holds
    /// years or identifiers. Literals with an exponent (`1e999`) are shown untouched.
    public static func number(_ literal: String, field: String) -> String {
        guard groupsThousands(field) else { return literal }
        return grouped(literal)
    }

    /// A number computed from text (`"1000"` in SWAPI's strings), read like a literal.
    public static func number(_ value: Double, field: String) -> String {
        number(NumberFormat.plain(value), field: field)
    }

    /// Whether numbers of `field` are quantities, grouped in thousands: every field but those
    /// whose last name part is a year or an identifier word (`birth_year`, `cityId`, `iso-code`).
    public static func groupsThousands(_ field: String) -> Bool {
        let last = field.split(separator: ".").last.map(String.init) ?? field
        return !words(of: last).contains { ungroupedWords.contains($0) }
    }

    /// Name parts that mark a year or an identifier.
    static let ungroupedWords: Set<String> = [
        "year", "yr", "born", "founded", "established", "built", "date",
        "id", "ids", "code", "codes", "zip", "postcode", "isbn", "issn", "ean", "upc", "phone",
    ]

    /// `cityId` → city, id; `birth_year` → birth, year; `ISO3166-code` → iso3166, code.
    static func words(of name: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previousWasLower = false
        for character in name {
            if character == "_" || character == "-" || character == " " || character == "." {
                if !current.isEmpty { words.append(current) }
                current = ""
                previousWasLower = false
                continue
            }
            if character.isUppercase, previousWasLower, !current.isEmpty {
                words.append(current)
                current = ""
            }
            current += character.lowercased()
            previousWasLower = character.isLowercase || character.isNumber
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// `-1234567.50` → `-1,234,567.50`: commas in the whole part of a plain decimal literal.
    static func grouped(_ literal: String) -> String {
        var utf8 = Array(literal.utf8)
        let negative = utf8.first == UInt8(ascii: "-")
        if negative { utf8.removeFirst() }
        let point = utf8.firstIndex(of: UInt8(ascii: ".")) ?? utf8.count
        let whole = utf8[..<point]
        guard whole.count > 3, utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".") }) else { return literal }
        var result: [UInt8] = negative ? [UInt8(ascii: "-")] : []
        result.reserveCapacity(literal.utf8.count + whole.count / 3)
        for (offset, digit) in whole.enumerated() {
            if offset > 0, (whole.count - offset) % 3 == 0 { result.append(UInt8(ascii: ",")) }
            result.append(digit)
        }
        result.append(contentsOf: utf8[point...])
        return String(decoding: result, as: UTF8.self)
    }
}

extension Dataset {
    /// The value as people read it in the field `path` reaches (see `ValueText`); nil when absent.
    public func displayText(of value: FieldValue, in path: FieldPath) -> String? {
        let field = path.components.last ?? ""
        switch value {
        case let .node(index) where document.kind(at: index) == .object: return ObjectIdentity.text(of: index, in: document)
        case let .node(index): return ValueText.text(of: document.value(at: index), field: field)
        case let .text(text): return ValueText.isAbsent(text) ? nil : text
        case let .number(number): return ValueText.number(number, field: field)
        }
    }

    /// Whether a value is there for people: not null, not one of the words for none.
    public func isPresent(_ value: FieldValue) -> Bool {
        switch value {
        case let .node(index):
            switch document.kind(at: index) {
            case .null: return false
            case .string: return !ValueText.isAbsent(stringAt: index, in: document)
            default: return true
            }
        case let .text(text): return !ValueText.isAbsent(text)
        case .number: return true
        }
    }

    /// Every value `path` reaches in the record at `row`, read by `ValueText` and joined by
    /// commas; nil when none is present.
    public func displayText(of path: CompiledPath, row: Int) -> String? {
        var texts: [String] = []
        forEachWholeValue(of: path, row: row) { value in
            if let text = displayText(of: value, in: path.path) { texts.append(text) }
        }
        return texts.isEmpty ? nil : texts.joined(separator: ", ")
    }
}
