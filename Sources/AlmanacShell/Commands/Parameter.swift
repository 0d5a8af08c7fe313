import AlmanacCore

/// One argument of a command, declared once: the usage line, the parsing, the completion, the
/// colouring and the errors (which point at the offending word) all come from it — as
/// swift-argument-parser does for a program's options, and DuckDB's shell for its metadata
/// commands' arity.
public struct Parameter: Sendable {
    public enum Kind: Sendable {
        /// A field of the results (`population`, `languages.name`), or one of the forms
        /// (`reset`, `+FIELD`: the lower-case ones complete); checked by the command, which
        /// knows the dataset.
        case field(or: [String] = [])
        /// A whole number in the range, or one of the words. Digits too many for a number
        /// read as the range's end they lean to.
        case number(ClosedRange<Int>, or: [String])
        /// One of the words.
        case word([String])
        /// A dataset's name (`all` too, when `all` is true); checked by the command. `orFile`:
        /// or a path (load's `load ~/towns.csv`), which TAB completes once it has a / or ~.
        case dataset(all: Bool, orFile: Bool = false)
        /// Text the command reads itself — a name, a path, a condition, a date — or one of the
        /// words; `source` says what completes it.
        case text(TextSource, or: [String] = [])
        /// An aggregate, `AGG FIELD` (`sum population`): a function's name, then a field.
        case aggregate
        /// Nothing more than its keyword (`--force`, `world`).
        case flag
    }

    /// What completes a `.text` parameter.
    public enum TextSource: Sendable {
        case nothing
        case files
        /// Record names, for each word.
        case recordNames
        /// Record names, for the first word.
        case recordName
        case commands
        /// The commands `watch` runs, then the chosen one's own arguments.
        case watchedCommand
        case settings
        /// The values of the setting named by the word before.
        case settingValues
        /// Stations serving the direction.
        case stations(Directions)
        /// Country names (path, reach, within).
        case countries
        /// The words, for the first word.
        case words([String])
        /// A unit after a number (`within 50 km`): nothing for the number itself.
        case unit(String)
        /// A filter's fields, operators, values and joining words.
        case condition
        /// `DATASET.FIELD` (link): a dataset's name and `.`, then that dataset's fields.
        case datasetFields
    }

    public enum Arity: Sendable {
        case one
        case optional
        /// One or more, commas (or, without suffixes, spaces) between; each item may end in
        /// one of `suffixes` (`population desc`).
        case list(suffixes: [String])
        /// None or more, as `list`.
        case optionalList(suffixes: [String])
        /// One or more words, taken as typed, commas and all (free text): the rest of the line,
        /// or up to the next keyword.
        case words
        /// None or more, as `words`.
        case optionalWords
    }

    /// How the usage line names it: `FIELD`, `BINS`, `N`.
    public var name: String
    public var kind: Kind
    public var arity: Arity
    /// The word that introduces it, anywhere on the line (`from STATION`, `--force`); nil for a
    /// parameter given by its place.
    public var keyword: String?
    /// Words it also takes, neither shown nor completed (`n` for `next`).
    public var hidden: [String] = []
    /// Another parameter's keyword that must be given before this one is offered (`as` after `from`).
    public var requires: String?

    /// This parameter, offered only once `keyword` is given.
    public func requiring(_ keyword: String) -> Parameter {
        var parameter = self
        parameter.requires = keyword
        return parameter
    }

    public init(_ name: String, _ kind: Kind, _ arity: Arity = .one, after keyword: String? = nil, hidden: [String] = []) {
        self.name = name
        self.kind = kind
        self.arity = arity
        self.keyword = keyword
        self.hidden = hidden
    }

    public static func field(_ arity: Arity = .one) -> Parameter { Parameter("FIELD", .field(), arity) }

    /// Whether `other` is this parameter: the same name and keyword (a command's are all different).
    public func isSame(as other: Parameter) -> Bool { name == other.name && keyword == other.keyword }

    /// A keyword alone, anywhere on the line: `[--force]`.
    public static func flag(_ keyword: String) -> Parameter { Parameter(keyword, .flag, .optional, after: keyword) }

    /// `FIELD`, `[BINS]`, `[N|next|prev]`, `FIELD [asc|desc][, FIELD [asc|desc]...]`, `from STATION`.
    public var synopsis: String {
        var one: String
        switch kind {
        case .field, .aggregate, .flag: one = name
        case let .number(_, words): one = ([name] + words).joined(separator: "|")
        case let .word(words): one = words.joined(separator: "|")
        case let .dataset(all, orFile): one = all ? "\(name)|all" : orFile ? "\(name)|PATH" : name
        case let .text(_, words): one = ([name] + words).joined(separator: name.contains(" ") ? " | " : "|")
        }
        if let keyword, keyword != name { one = "\(keyword) \(one)" }
        let forms: [String] = if case let .field(forms) = kind { forms } else { [] }
        switch arity {
        case .one, .words: return one
        case .optional, .optionalWords: return "[\(one)]"
        case let .list(suffixes):
            return ([Self.item(one, suffixes)] + forms).joined(separator: " | ")
        case let .optionalList(suffixes):
            return "[" + ([Self.item(one, suffixes)] + forms).joined(separator: " | ") + "]"
        }
    }

    /// `FIELD [asc|desc][, FIELD [asc|desc]...]`.
    private static func item(_ one: String, _ suffixes: [String]) -> String {
        let item = suffixes.isEmpty ? one : "\(one) [\(suffixes.joined(separator: "|"))]"
        return "\(item)[, \(item)...]"
    }

    /// The usage line's parameters: an optional one given by its place nests in the optional
    /// one before it, since it cannot be given alone (`[NAME [VALUE]]`).
    static func synopsis(of parameters: [Parameter]) -> [String] {
        var parts: [String] = []
        var nested = 0
        for (index, parameter) in parameters.enumerated() {
            let opensNest = parameter.keyword == nil && parameter.isOptionalOne
                && index + 1 < parameters.count && parameters[index + 1].keyword == nil && parameters[index + 1].isOptionalOne
            if opensNest || nested > 0, parameter.keyword == nil, parameter.isOptionalOne {
                let inner = String(parameter.synopsis.dropFirst().dropLast())
                parts.append("[" + inner + (opensNest ? "" : String(repeating: "]", count: nested + 1)))
                nested = opensNest ? nested + 1 : 0
            } else {
                parts.append(parameter.synopsis)
            }
        }
        return parts
    }

    var isOptionalOne: Bool { if case .optional = arity { true } else { false } }

    var isList: Bool {
        switch arity {
        case .list, .optionalList: true
        case .one, .optional, .words, .optionalWords: false
        }
    }

    /// Free text: the words as typed, up to the end or the next keyword.
    var takesWords: Bool {
        switch arity {
        case .words, .optionalWords: true
        case .one, .optional, .list, .optionalList: false
        }
    }

    var isRequired: Bool {
        switch arity {
        case .one, .list, .words: true
        case .optional, .optionalList, .optionalWords: false
        }
    }

    var isFlag: Bool { if case .flag = kind { true } else { false } }

    /// Takes one word after its keyword (`--size 60x20`); else words up to the next keyword.
    var takesOneWord: Bool {
        switch arity {
        case .one, .optional: true
        case .list, .optionalList, .words, .optionalWords: false
        }
    }

    var suffixes: [String] {
        switch arity {
        case let .list(suffixes), let .optionalList(suffixes): suffixes
        case .one, .optional, .words, .optionalWords: []
        }
    }

    /// The words it may be, where they are few (completion offers them; not forms such as
    /// `+FIELD` or a URL's shape).
    var words: [String] {
        let words: [String] = switch kind {
        case let .field(forms): forms
        case let .dataset(all, _): all ? ["all"] : []
        case let .number(_, words), let .word(words), let .text(_, words): words
        case .aggregate: Aggregate.Function.allCases.map(\.rawValue)
        case .flag: []
        }
        return words.filter { $0.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" } }
    }
}

extension CommandSpec {
    /// A command whose arguments are declared: its usage line is made from them.
    public init(name: String, aliases: [String] = [], summary: String, parameters: [Parameter],
                examples: [String] = [], discussion: String = "") {
        self.init(name: name, aliases: aliases, summary: summary, usage: "", examples: examples, discussion: discussion)
        self.writtenUsage = nil
        self.parameters = parameters
    }
}
