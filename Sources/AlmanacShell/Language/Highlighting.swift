import AlmanacCore

/// What a piece of a typed line is, for drawing it in colour as it is typed.
public enum WordRole: Sendable, Equatable {
    case plain
    case command, unknownCommand
    case dataset, unknownDataset
    case field, unknownField
    /// A name followed by `(` that is no function.
    case unknownFunction
    /// A word the command knows (`asc`, `clear`, a setting's value) or a filter's `and`, `(`.
    case keyword
    case `operator`
    case number
    case string
    case unclosedQuote
    case comment

    /// The SGR parameters it is drawn with; nil when it is drawn as typed.
    var sgr: String? {
        switch self {
        case .plain: nil
        case .command: "32"
        case .unknownCommand, .unknownDataset, .unknownField, .unknownFunction, .unclosedQuote: "31"
        case .dataset: "34"
        case .field: "36"
        case .keyword, .operator: "1"
        case .number: "35"
        case .string: "33"
        case .comment: "90"
        }
    }
}

/// A role for an argument of a command: a whole word, or some characters of an unquoted one
/// (`population>5` is a field, an operator and a number).
public struct ArgumentRole: Sendable, Equatable {
    public var word: Int
    /// Characters of the word's text; nil for all of it (quotes included).
    public var characters: Range<Int>?
    public var role: WordRole

    public init(word: Int, characters: Range<Int>? = nil, role: WordRole) {
        self.word = word
        self.characters = characters
        self.role = role
    }

    /// Numbers as numbers and quoted words as strings: what a word is when nothing else is known.
    public static func literal(_ word: Word, at index: Int) -> ArgumentRole {
        if word.isQuoted { return ArgumentRole(word: index, role: .string) }
        let text = word.text.hasPrefix("#") ? String(word.text.dropFirst()) : word.text
        return ArgumentRole(word: index, role: Double(text) != nil && !text.isEmpty ? .number : .plain)
    }
}

/// Colours a typed line: command names, datasets, fields (known or not), operators, numbers,
/// quoted text, an unclosed quote. Names the cursor is still typing are not called unknown
/// while they can still become known.
///
/// Field names are looked up in sets kept between keys: a key costs a tokenizing of the line
/// and a few hash lookups, whatever the size of the data.
public final class Highlighter {
    public struct Span: Equatable, Sendable {
        public var characters: Range<Int>
        public var role: WordRole
    }

    private var fieldCache: (key: [ObjectIdentifier], names: Set<String>, folded: [String], catalogs: [FieldCatalog])?

    public init() {}

    /// The coloured parts of `line`, in order. `cursor` is the cursor's offset in characters.
    public func spans(of line: String, cursor: Int, in session: Session) -> [Span] {
        let layout = Tokenizer.layout(of: line)
        var spans: [Span] = []
        var wordsOfStatement: [Int: [(Word, Range<Int>)]] = [:]
        for piece in layout.pieces {
            switch piece {
            case let .word(word, range, statement): wordsOfStatement[statement, default: []].append((word, range))
            case .separator: break
            case let .comment(range): spans.append(Span(characters: range, role: .comment))
            case let .unclosedQuote(range): spans.append(Span(characters: range, role: .unclosedQuote))
            }
        }
        for (_, words) in wordsOfStatement {
            guard let (name, nameRange) = words.first else { continue }
            let typing = nameRange.upperBound == cursor
            guard let command = session.commands.lookup(name.text) else {
                let prefix = typing && session.commands.allNames.contains { $0.lowercased().hasPrefix(name.text.lowercased()) }
                spans.append(Span(characters: nameRange, role: prefix ? .plain : .unknownCommand))
                continue
            }
            spans.append(Span(characters: nameRange, role: .command))
            let arguments = words.dropFirst().map(\.0)
            let ranges = words.dropFirst().map(\.1)
            for argument in command.roles(of: Array(arguments), in: session) where ranges.indices.contains(argument.word) {
                let range = ranges[argument.word]
                var characters = range
                if let part = argument.characters {
                    characters = (range.lowerBound + part.lowerBound)..<(range.lowerBound + part.upperBound)
                }
                let role = resolve(argument.role, text: part(of: arguments[argument.word].text, argument.characters),
                                   typing: characters.upperBound == cursor, in: session)
                if role != .plain { spans.append(Span(characters: characters, role: role)) }
            }
        }
        return spans.sorted { $0.characters.lowerBound < $1.characters.lowerBound }
    }

    private func part(of text: String, _ characters: Range<Int>?) -> String {
        guard let characters else { return text }
        return String(Array(text)[max(0, characters.lowerBound)..<min(text.count, characters.upperBound)])
    }

    /// Fields and datasets the command names: known, unknown, or still being typed.
    private func resolve(_ role: WordRole, text: String, typing: Bool, in session: Session) -> WordRole {
        switch role {
        case .field:
            guard let (names, folded, catalogs) = fieldNames(in: session) else { return .plain }
            if names.contains(text) || catalogs.contains(where: { FieldLookup.field(text, in: $0) != nil }) { return .field }
            let typed = Folding.fold(text)
            if typing, folded.contains(where: { $0.hasPrefix(typed) }) { return .plain }
            // A path across links (`homeworld.climate`), or one still being typed.
            let paths = session.completionSource().completionPaths(continuing: text).map { Folding.fold($0.path) }
            if paths.contains(typed) { return .field }
            if typing, paths.contains(where: { $0.hasPrefix(typed) }) { return .plain }
            // A name `columns … as NAME` gave a computed column: later commands read it
            // (`sort density`, `filter density > 500`). Asked last: most words are fields.
            let computed = ExpressionWords.namesIfReady(in: session).keys
            if computed.contains(text) { return .field }
            if typing, computed.contains(where: { Folding.fold($0).hasPrefix(typed) }) { return .plain }
            return .unknownField
        case .dataset:
            if session.catalog.contains(text) || text.lowercased() == "all" { return .dataset }
            if typing, (session.catalog.names + ["all"]).contains(where: { $0.hasPrefix(text.lowercased()) }) { return .plain }
            return .unknownDataset
        default:
            return role
        }
    }

    /// The field names of the datasets in scope (nil while a large one's fields are still being
    /// worked out: nothing is called unknown then), kept until the scope or a dataset changes.
    private func fieldNames(in session: Session) -> (Set<String>, [String], [FieldCatalog])? {
        var datasets: [Dataset] = []
        for name in session.scopeNames {
            // Not loaded yet (or failed): its fields are unknown, so no name is called wrong.
            guard let dataset = session.catalog.dataset(name) else { return nil }
            datasets.append(dataset)
        }
        let key = datasets.map(ObjectIdentifier.init)
        if let cache = fieldCache, cache.key == key { return (cache.names, cache.folded, cache.catalogs) }
        var names = Set<String>()
        var catalogs: [FieldCatalog] = []
        for dataset in datasets {
            guard let fields = dataset.fieldsIfReady else { return nil }
            names.formUnion(FieldLookup.names(in: fields))
            catalogs.append(fields)
        }
        let folded = names.map { Folding.fold($0) }
        fieldCache = (key, names, folded, catalogs)
        return (names, folded, catalogs)
    }
}
