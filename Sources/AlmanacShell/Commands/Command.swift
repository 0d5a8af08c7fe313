import AlmanacCore

/// One command of the shell: what it is called, how it is used, how its arguments complete,
/// and what it does. Adding a command is one new type plus one line in `CommandTable.standard`,
/// then `make man`: the manual page lists every command's usage and examples.
public protocol Command: SendableMetatype {
    static var spec: CommandSpec { get }

    /// Candidates for the word being typed. The default completes nothing.
    static func complete(_ request: CompletionRequest, in session: Session) -> [CompletionCandidate]

    /// What each argument is, for colouring the line as it is typed. The default: numbers
    /// and quoted text.
    static func roles(of arguments: [Word], in session: Session) -> [ArgumentRole]

    /// The paragraph `help NAME` and the manual page show; the default is the spec's (`set`
    /// describes the settings of the table it is given).
    static func discussion(settings: SettingTable) -> String

    /// Does the command's work and returns its answer (nil when it has none), which the
    /// session writes in the format set.
    static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult?
}

extension Command {
    public static func discussion(settings: SettingTable) -> String { spec.discussion }

    /// Declared parameters complete as they are declared; otherwise nothing.
    public static func complete(_ request: CompletionRequest, in session: Session) -> [CompletionCandidate] {
        guard let parameters = spec.parameters else { return [] }
        return Parameter.candidates(request, in: parameters, session: session)
    }

    /// Declared fields are fields and declared words keywords; otherwise numbers and quoted text.
    public static func roles(of arguments: [Word], in session: Session) -> [ArgumentRole] { rolesAsDeclared(of: arguments, in: session) }

    /// The default roles, for a command that adjusts them (`path A to B`).
    public static func rolesAsDeclared(of arguments: [Word], in session: Session) -> [ArgumentRole] {
        guard let parameters = spec.parameters else { return arguments.enumerated().map { ArgumentRole.literal($1, at: $0) } }
        let keywords = Set(parameters.compactMap(\.keyword))
        let known = Set(parameters.flatMap { $0.words + $0.suffixes })
        let fields = parameters.contains { if case .field = $0.kind { true } else { false } }
        let datasets = parameters.contains { if case .dataset = $0.kind { true } else { false } }
        // Expressions where fields go (`sort population / area desc`).
        if fields, ExpressionWords.areComputed(arguments) { return ExpressionCompletion.roles(of: arguments) }
        return arguments.enumerated().map { index, word in
            let bare = word.text.hasSuffix(",") ? String(word.text.dropLast()) : word.text
            if !word.isQuoted, keywords.contains(bare.lowercased()) { return ArgumentRole(word: index, role: .keyword) }
            if datasets, index == 0 { return ArgumentRole(word: index, role: .dataset) }
            if !word.isQuoted, known.contains(bare.lowercased()) { return ArgumentRole(word: index, role: .keyword) }
            if fields, !word.isQuoted, Int(bare) == nil { return ArgumentRole(word: index, role: .field) }
            return ArgumentRole.literal(word, at: index)
        }
    }
}

/// What `help` shows about a command.
public struct CommandSpec: Sendable {
    public var name: String
    public var aliases: [String]
    /// One line, no final period: shown in the `help` list.
    public var summary: String
    /// The synopsis, starting with the name: `set [NAME [VALUE]]`. Made from the declared
    /// parameters when it is read (help, a usage error), not when the command table is built
    /// at every start.
    public var usage: String {
        get { writtenUsage ?? ([name] + Parameter.synopsis(of: parameters ?? [])).joined(separator: " ") }
        set { writtenUsage = newValue }
    }
    /// The usage as written, for a command that does not declare its parameters.
    var writtenUsage: String?
    /// Full lines a user could type, shown by `help NAME`.
    public var examples: [String]
    /// A paragraph for `help NAME` when the usage line is not enough.
    public var discussion: String
    /// The arguments, when the command declares them (`Parameter`): then its usage, parsing,
    /// completion, colouring and errors come from them.
    public var parameters: [Parameter]?
    /// Whether it answers or shapes the results (quiet in scripts unless last): `CommandRole`.
    public var role: CommandRole = .answers

    public init(
        name: String, aliases: [String] = [], summary: String, usage: String,
        examples: [String] = [], discussion: String = ""
    ) {
        self.name = name
        self.aliases = aliases
        self.summary = summary
        self.writtenUsage = usage
        self.examples = examples
        self.discussion = discussion
    }
}

/// The words after the command name.
public struct Arguments: Sendable {
    public var words: [Word]
    public let spec: CommandSpec

    public init(_ words: [Word], spec: CommandSpec) {
        self.words = words
        self.spec = spec
    }

    public var isEmpty: Bool { words.isEmpty }

    /// A usage error for this command, with what was wrong.
    public func usageError(_ problem: String? = nil) -> ShellError {
        .usage(problem: problem, usage: spec.usage)
    }
}
