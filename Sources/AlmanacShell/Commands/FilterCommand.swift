import AlmanacCore

/// `filter EXPR` narrows the current result set; `filter clear` takes the filters away.
public enum FilterCommand: Command {
    static let condition = Parameter("FIELD OP VALUE [and|or ...]", .text(.condition, or: ["clear"]), .words)

    public static let spec = CommandSpec(
        name: "filter",
        summary: "Narrow the results with conditions on fields",
        parameters: [condition],
        examples: [
            "filter region = Europe and population > 10000000", "filter currencies.code = EUR",
            "filter languages.iso639_1 = es", "filter callingCodes = 57",
            "filter classification = mammal and average_lifespan > 100",
            "filter directions = from and countryTitle = Россия", "filter homeworld = Tatooine",
            "filter population / area > 1000", "filter name =~ '^Un'", "filter count(borders) = 0", "filter clear",
        ],
        discussion: """
        OP is = (or ==) != ~ (contains) !~ < <= > >=. Join conditions with and, or, not and parentheses. \
        Text compares ignoring case and accents, numbers numerically (numbers written as text too, \
        and galactic years as signed years: birth_year < 100BBY), ISO dates by their instant \
        (2023-12-31T23:59:59-02:00 is after 2024-01-01); < <= > >= never match no value (null, "", \
        n/a, unknown, none), while != keeps it; dotted paths reach into \
        objects and lists, and a list matches when any element does. A path that ends at an object \
        compares the object's name, as group and listings show it — its title, name, login or id \
        (milestone = v2.0, user = octocat; milestone.due_on = 2024-06-30 reaches inside); an object \
        with none of these compares its members. SWAPI links compare by the \
        name of what they point at, as show names them (homeworld = Tatooine, films = "A New Hope"); \
        sort and group read them the same way. Any condition of the expression language works too \
        (population / area > 1000, year(created) = 2014), and so does the name a computed column \
        was given (after columns name, population / area as density: filter density > 500): help expressions. \
        When nothing is left, a line on standard error says why: a value no record has and the \
        near one that some do (did you mean Europe (53)?), or the condition that removed the last \
        records and their largest or smallest value; a rarer spelling that would add records is \
        named (also 'mammals' (1)). TAB TAB after FIELD = lists the values with their counts; \
        why #N says which conditions a record met. filter clear takes away the filters (and show #N's \
        groups, and limits) since the last search, near, within, outside or reach: that step's results \
        come back (every record when none), in the order of the sorts since; back undoes it.
        """
    ).role(.shapes())

    /// Fields, functions, operators, values, and the words that join conditions, as the parser reads them.
    public static func roles(of arguments: [Word], in session: Session) -> [ArgumentRole] {
        if arguments.count == 1, !arguments[0].isQuoted, arguments[0].text.lowercased() == "clear" {
            return [ArgumentRole(word: 0, role: .keyword)]
        }
        return ExpressionCompletion.roles(of: arguments, keywords: [], groupedNumbers: true)
    }

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        let words = try arguments.parse()[condition].map(\.word)
        if words.count == 1, !words[0].isQuoted, words[0].text.lowercased() == "clear" {
            return try session.apply(.clear)
        }
        let tokens = FilterExpression.tokens(words.map { ($0.text, $0.isQuoted) })
        do {
            let expression = resolvingComputedNames(try FilterExpression.parse(tokens), in: session)
            let before = try session.results()
            var answer = try session.apply(.filter(expression))
            session.explain(expression, before: before, answer: &answer)
            return answer
        } catch let error as FilterSyntaxError {
            // Pointed at the token it is about, or past the end where something is missing.
            guard let place = error.token, place < tokens.count else { throw arguments.usageError(error.message, after: words.last) }
            throw pointed(at: tokens[place], words: words, arguments.usageError(error.message))
        } catch let error as QueryError {
            throw pointedAtValue(error, tokens: tokens, words: words)
        }
    }

    /// A value the field cannot be compared with (`area > abc`), pointed at that value: the
    /// word after the field's comparison.
    static func pointedAtValue(_ error: QueryError, tokens: [FilterToken], words: [Word]) -> any Error {
        guard case let .typeMismatch(field, _, _) = error else { return error }
        guard let place = tokens.indices.first(where: { index in
            index + 2 < tokens.count && !tokens[index].isQuoted && tokens[index].text.lowercased() == field.lowercased()
                && tokens[index + 1].token?.isSymbol == true
                && ExpressionTokens.comparisonSymbols.contains(tokens[index + 1].text)
        }) else { return error }
        return pointed(at: tokens[place + 2], words: words, .invalid("\(error)"))
    }

    /// `error` with the caret under `token`: a quoted one with its quotes, else its part of the word.
    static func pointed(at token: FilterToken, words: [Word], _ error: ShellError) -> ShellError {
        let word = words[token.word]
        let (column, width) = token.isQuoted ? (word.column, TextWidth.of(word.text) + 2)
            : (word.column + token.characters.lowerBound, max(1, TextWidth.of(token.text)))
        return ShellError.at(column: column, width: width, error)
    }

    /// The condition with the names given to computed columns (`columns name, population /
    /// area as density`) read as their expressions, as sort, group and describe read them:
    /// `filter density > 5000` is `filter population / area > 5000`.
    static func resolvingComputedNames(_ expression: FilterExpression, in session: Session) -> FilterExpression {
        let names = ExpressionWords.names(in: session)
        guard !names.isEmpty, expression.fields.contains(where: { names[$0] != nil }) else { return expression }
        return FilterExpression(expression.expression.substituting(names.mapValues(\.expression)))
    }
}
