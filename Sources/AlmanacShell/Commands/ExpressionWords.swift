import AlmanacCore

/// Where an expression's error is on the command line: its span's words and characters as
/// columns, for the caret under the operand (`sort name / 2` → under `name`).
enum ExpressionWords {
    /// The command's words as the expression language reads them.
    static func tokens(_ words: [Word]) -> [ExpressionToken] {
        ExpressionTokens.tokens(words.map { ($0.text, $0.isQuoted) })
    }

    /// The columns `span` covers among `words` (the command's arguments), or nil when it is not on them.
    static func columns(of span: ExpressionSpan, in words: [Word]) -> (column: Int, width: Int)? {
        guard words.indices.contains(span.startWord), words.indices.contains(span.endWord) else { return nil }
        let first = words[span.startWord]
        let last = words[span.endWord]
        let start = first.column + (span.startQuoted ? 0 : min(span.startCharacter, first.text.count))
        let end = last.column + (span.endQuoted ? TextWidth.of(last.text) + 2 : min(span.endCharacter, last.text.count))
        return (start, max(1, end - start))
    }

    /// The error pointed at its place among `words`; a syntax error also shows the usage.
    static func pointed(_ error: any Error, in words: [Word], arguments: Arguments? = nil) -> any Error {
        if let error = error as? ExpressionError, error.isSyntax {
            let shell = arguments.map { $0.usageError(error.message) } ?? ShellError.invalid(error.message)
            guard let span = error.span, let place = columns(of: span, in: words) else {
                guard let last = words.last else { return shell }
                return ShellError.at(column: last.column + TextWidth.of(last.text) + (last.isQuoted ? 2 : 0) + 1, width: 1, shell)
            }
            return ShellError.at(column: place.column, width: place.width, shell)
        }
        if let error = error as? ExpressionError, let span = error.span, let place = columns(of: span, in: words) {
            return ShellError.at(column: place.column, width: place.width, .invalid(error.message))
        }
        return error
    }
}

extension ExpressionWords {
    /// Whether the words are more than field names (`population / area`, `length(name)`,
    /// `x as y`): then the expression language reads them, else the declared parameters as
    /// always.
    static func areComputed(_ words: [Word]) -> Bool {
        words.enumerated().contains { index, word in
            guard !word.isQuoted else { return false }
            if index > 0, word.text.lowercased() == "as" { return true }
            if word.text == "-" || word.text == "+" { return true }
            return word.text.dropFirst().contains { "()*/%|=<>~!+".contains($0) } || word.text.first.map { "(*/%|=<>~!".contains($0) } == true
        }
    }

    /// Whether a comma-separated item is `columns`' own add-or-drop form: one word `+NAME` or
    /// `-NAME`. A sign inside an item (`population + 1 as p`, `-area as west`) is arithmetic.
    static func addsOrDrops(_ words: [Word]) -> Bool {
        let line = words.map { $0.isQuoted ? "q" : $0.text }.joined(separator: " ")
        return line.split(separator: ",").contains { item in
            let words = item.split(separator: " ")
            guard words.count == 1, let sign = words[0].first, sign == "+" || sign == "-", words[0].count > 1 else { return false }
            return !words[0].dropFirst().contains { "()*/%|=<>~!+".contains($0) }
        }
    }

    /// The names given with `as` to the chosen columns of the dataset or table in use: a later
    /// command may use them (`sort density desc`).
    static func names(in session: Session) -> [String: (spec: String, expression: Expression)] {
        names(of: try? session.results().datasetNames, in: session)
    }

    /// The same names without waiting for a load: colouring the line, on every key, reads only
    /// what is there (`completionSource`), or the bar of a load it waited for would be drawn
    /// over the prompt as the user types.
    static func namesIfReady(in session: Session) -> [String: (spec: String, expression: Expression)] {
        names(of: session.completionSource().datasetNames, in: session)
    }

    private static func names(of owners: [String]?, in session: Session) -> [String: (spec: String, expression: Expression)] {
        guard let owners, owners.count == 1, let owner = owners.first,
              let columns = session.chosenColumns[owner] else { return [:] }
        var names: [String: (spec: String, expression: Expression)] = [:]
        for spec in columns where spec.contains(" as ") {
            if let parsed = try? ComputedField.parse(spec) { names[parsed.name] = (spec, parsed.expression) }
        }
        return names
    }

    /// A spec with the names of computed columns resolved: a name alone is that column's spec;
    /// a name inside an expression is its expression.
    static func resolving(_ item: ExpressionItem, names: [String: (spec: String, expression: Expression)]) -> String {
        if item.name == nil, let field = item.expression.fieldName, let named = names[field] { return named.spec }
        let expression = item.expression.substituting(names.mapValues(\.expression))
        var resolved = item
        resolved.expression = expression
        return resolved.spec
    }

    /// The items of a command's words, parsed, an error pointed at its place.
    static func items(_ arguments: Arguments, suffixes: [String] = [], names: Bool = true, spaces: Bool = false) throws -> [ExpressionItem] {
        do {
            return try ExpressionList.parse(tokens(arguments.words), suffixes: suffixes, names: names, spaces: spaces)
        } catch {
            throw pointed(error, in: arguments.words, arguments: arguments)
        }
    }

    /// Checks expressions as typed (their fields and types) against the results, so an error
    /// points at the operand on the line.
    static func check(_ expressions: [Expression], names: [String: (spec: String, expression: Expression)], in session: Session,
                      words: [Word]) throws {
        let source = try session.results()
        for expression in expressions {
            do {
                try source.checkExpression(expression.substituting(names.mapValues(\.expression)), cancellation: session.cancellation)
            } catch let error as QueryError {
                throw pointed(ExpressionError("\(error)", at: expression.span), in: words)
            } catch {
                throw pointed(error, in: words)
            }
        }
    }
}
