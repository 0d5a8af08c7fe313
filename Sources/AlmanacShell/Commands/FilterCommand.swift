import AlmanacCore
import AlmanacPostgres

/// `filter EXPR` narrows the current result set; `filter clear` resets it.
public enum FilterCommand: Command {
    public static let spec = CommandSpec(
        name: "filter",
        summary: "Narrow the results with conditions on fields",
        usage: "filter FIELD OP VALUE [and|or ...] | filter clear",
        examples: [
            "filter region = Europe and population > 10000000", "filter currencies.code = EUR",
            "filter languages.iso639_1 = es", "filter callingCodes = 57",
            "filter classification = mammal and average_lifespan > 100",
            "filter directions = from and countryTitle = Россия", "filter clear",
        ],
        discussion: """
        OP is = (or ==) != ~ (contains) !~ < <= > >=. Join conditions with and, or, not and parentheses. \
        Text compares ignoring case and accents, numbers numerically; dotted paths reach into \
        objects and lists, and a list matches when any element does.
        """
    )

    public static func complete(_ request: CompletionRequest, in session: Session) -> [CompletionCandidate] {
        let words = request.arguments
        if words.isEmpty { return request.matching(["clear"]) + CompletionSources.fields(request, in: session) }
        let tokens = FilterExpression.tokens(words.map { ($0.text, $0.isQuoted) })
        guard let last = tokens.last else { return [] }
        if !last.isQuoted, FilterExpression.Operator(rawValue: last.text) != nil, tokens.count >= 2 {
            return CompletionSources.values(of: tokens[tokens.count - 2].text, request, in: session)
        }
        if !last.isQuoted, ["and", "or", "not", "("].contains(last.text.lowercased()) {
            return CompletionSources.fields(request, in: session)
        }
        if tokens.count >= 3, FilterExpression.Operator(rawValue: tokens[tokens.count - 2].text) != nil {
            return request.matching(["and", "or"])
        }
        if tokens.count % 3 == 1 { return request.matching(FilterExpression.Operator.allCases.map(\.rawValue)) }
        return []
    }

    /// Fields, operators, values, and the words that join conditions, as the parser reads them.
    public static func roles(of arguments: [Word], in session: Session) -> [ArgumentRole] {
        if arguments.count == 1, !arguments[0].isQuoted, arguments[0].text.lowercased() == "clear" {
            return [ArgumentRole(word: 0, role: .keyword)]
        }
        enum Expecting { case field, comparison, value, join }
        var expecting = Expecting.field
        var roles: [ArgumentRole] = []
        for token in FilterExpression.tokens(arguments.map { ($0.text, $0.isQuoted) }) {
            let keyword = token.isQuoted ? nil : token.text.lowercased()
            let isOperator = !token.isQuoted && FilterExpression.Operator(rawValue: token.text) != nil
            var role = WordRole.plain
            switch expecting {
            case .field where keyword == "not" || keyword == "(":
                role = .keyword
            case .field:
                role = .field
                expecting = .comparison
            case .comparison:
                role = isOperator ? .operator : .plain
                expecting = isOperator ? .value : .join
            case .value:
                role = ArgumentRole.literal(Word(token.text, isQuoted: token.isQuoted), at: 0).role
                expecting = .join
            case .join where keyword == "and" || keyword == "or":
                role = .keyword
                expecting = .field
            case .join:
                role = keyword == ")" ? .keyword : .plain
            }
            roles.append(ArgumentRole(word: token.word, characters: token.isQuoted ? nil : token.characters, role: role))
        }
        return roles
    }

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        guard !arguments.isEmpty else { throw arguments.usageError("missing a condition") }
        if arguments.count == 1, !arguments.words[0].isQuoted, arguments[0].lowercased() == "clear" {
            return try session.apply(.clear)
        }
        let expression: FilterExpression
        do {
            expression = try FilterExpression.parse(FilterExpression.tokens(arguments.words.map { ($0.text, $0.isQuoted) }))
        } catch {
            throw arguments.usageError(error.message)
        }
        return try session.apply(.filter(expression))
    }
}
