/// One argument of a command, declared once: the usage line, the parsing, the completion, the
/// colouring and the errors (which point at the offending word) all come from it — as
/// swift-argument-parser does for a program's options, and DuckDB's shell for its metadata
/// commands' arity.
public struct Parameter: Sendable {
    public enum Kind: Sendable {
        /// A field of the results (`population`, `languages.name`); checked by the command,
        /// which knows the dataset.
        case field
        /// A whole number in the range, or one of the words.
        case number(ClosedRange<Int>, or: [String])
        /// One of the words.
        case word([String])
        /// A dataset's name (`all` too, when `all` is true); checked by the command.
        case dataset(all: Bool)
    }

    public enum Arity: Sendable {
        case one
        case optional
        /// One or more, commas (or, without suffixes, spaces) between; each item may end in
        /// one of `suffixes` (`population desc`).
        case list(suffixes: [String])
        /// None or more, as `list`.
        case optionalList(suffixes: [String])
    }

    /// How the usage line names it: `FIELD`, `BINS`, `N`.
    public var name: String
    public var kind: Kind
    public var arity: Arity

    public init(_ name: String, _ kind: Kind, _ arity: Arity = .one) {
        self.name = name
        self.kind = kind
        self.arity = arity
    }

    public static func field(_ arity: Arity = .one) -> Parameter { Parameter("FIELD", .field, arity) }

    /// `FIELD`, `[BINS]`, `[N|next|prev]`, `FIELD [asc|desc][, FIELD [asc|desc]...]`.
    public var synopsis: String {
        let one: String
        switch kind {
        case .field: one = name
        case let .number(_, words): one = ([name] + words).joined(separator: "|")
        case let .word(words): one = words.joined(separator: "|")
        case let .dataset(all): one = all ? "\(name)|all" : name
        }
        switch arity {
        case .one: return one
        case .optional: return "[\(one)]"
        case let .list(suffixes):
            let item = suffixes.isEmpty ? one : "\(one) [\(suffixes.joined(separator: "|"))]"
            return "\(item)[, \(item)...]"
        case let .optionalList(suffixes):
            let item = suffixes.isEmpty ? one : "\(one) [\(suffixes.joined(separator: "|"))]"
            return "[\(item)[, \(item)...]]"
        }
    }

    var isList: Bool {
        switch arity {
        case .list, .optionalList: true
        case .one, .optional: false
        }
    }

    var isRequired: Bool {
        switch arity {
        case .one, .list: true
        case .optional, .optionalList: false
        }
    }

    var suffixes: [String] {
        switch arity {
        case let .list(suffixes), let .optionalList(suffixes): suffixes
        case .one, .optional: []
        }
    }

    /// The words it may be, where they are few (completion offers them).
    var words: [String] {
        switch kind {
        case .field: []
        case let .dataset(all): all ? ["all"] : []
        case let .number(_, words), let .word(words): words
        }
    }
}

extension CommandSpec {
    /// A command whose arguments are declared: its usage line is made from them.
    public init(name: String, aliases: [String] = [], summary: String, parameters: [Parameter],
                examples: [String] = [], discussion: String = "") {
        let usage = ([name] + parameters.map(\.synopsis)).joined(separator: " ")
        self.init(name: name, aliases: aliases, summary: summary, usage: usage, examples: examples, discussion: discussion)
        self.parameters = parameters
    }
}
