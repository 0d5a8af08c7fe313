import AlmanacCore

/// `columns FIELD[, FIELD…]` chooses and orders the columns of listings of the dataset in use;
/// `columns +FIELD` / `-FIELD` adds or drops one; `columns reset` goes back to the default;
/// `columns` alone says which are shown.
public enum ColumnsCommand: Command {
    static let fields = Parameter("FIELD", .field(or: ["+FIELD", "-FIELD", "reset"]), .optionalList(suffixes: []))

    public static let spec = CommandSpec(
        name: "columns",
        summary: "Choose the columns of listings: columns name, population",
        parameters: [fields],
        examples: ["columns", "columns name, population, area", "columns name, population / area as density", "columns +capital", "columns -region", "columns reset"],
        discussion: """
        The chosen columns are every format's (the programs' formats otherwise write whole records); \
        export writes them too (export FILE all: whole records). A field the current sort or filter uses is shown too. back \
        undoes a change. A column may be computed: EXPR as NAME (columns name, population / area as \
        density), and later commands may use NAME (sort density desc): help expressions. A field given a \
        name (columns name, area as a) is that field under the name: sorted, grouped, described and filtered as it.
        """
    ).role(.shapes(answeringBelow: 1))

    /// What the columns belong to: the one dataset (or attached table) of the results.
    struct Owner {
        let name: String
        let defaults: [String]
        let fieldsInUse: [String]
        /// The field as written when the results have it; else the unknown-field error.
        let check: (String) throws -> String
        /// A computed column checked (its fields and types) before it is shown.
        let checkComputed: (Expression) throws -> Void
        /// The results listed again with the new columns.
        let relist: () throws -> CommandResult
    }

    static func owner(in session: Session) throws -> Owner {
        let source = try session.results()
        guard let defaults = source.defaultColumns, let name = source.datasetNames.first else {
            throw ShellError.invalid("columns belong to one dataset: use NAME first (the datasets in use are \(session.scopeNames.joined(separator: ", ")))")
        }
        return Owner(name: name, defaults: defaults, fieldsInUse: source.fieldsInUse,
                     check: { name in
                         // A column the results computed (near's distance) is one too, as is the
                         // name such a step gives it, chosen before the step runs.
                         if let column = source.inMemory?.computedColumn(name) { return column.name }
                         if let known = ComputedColumn.stepNames.first(where: { $0 == name.lowercased() }) { return known }
                         return try source.checkField(name, cancellation: session.cancellation)
                     },
                     checkComputed: { try source.checkExpression($0, cancellation: session.cancellation) },
                     relist: { try session.list(source, page: 1) })
    }

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        if ExpressionWords.areComputed(arguments.words), !ExpressionWords.addsOrDrops(arguments.words) {
            return try computed(arguments, in: session)
        }
        let given = try arguments.parse()[fields]
        let owner = try owner(in: session)
        let current = session.chosenColumns[owner.name]
        guard !given.isEmpty else { return shown(owner, in: session) }
        var chosen = current ?? owner.defaults
        if given.count == 1, !given[0].word.isQuoted, given[0].text.lowercased() == "reset" {
            session.remember(.columns(dataset: owner.name, previous: current))
            session.chosenColumns[owner.name] = nil
            return try owner.relist()
        }
        /// The field a word names, checked; an unknown one is pointed at.
        func field(_ value: ArgumentValue, dropping sign: Bool) throws -> String {
            do {
                return try owner.check(sign ? String(value.text.dropFirst()) : value.text)
            } catch let error as QueryError {
                throw ShellError.invalid("\(error)").pointing(at: [value.word])
            }
        }
        let signed = given.filter { $0.text.hasPrefix("+") || $0.text.hasPrefix("-") }
        if signed.count == given.count {
            let computedNames = ExpressionWords.names(in: session)
            for value in given {
                // `-density` drops the column computed `as density`.
                if value.text.hasPrefix("-"), let spec = computedNames[String(value.text.dropFirst())]?.spec, chosen.contains(spec) {
                    chosen.removeAll { $0 == spec }
                    continue
                }
                let name = try field(value, dropping: true)
                if value.text.hasPrefix("+") {
                    if !chosen.contains(name) { chosen.append(name) }
                } else {
                    guard chosen.contains(name) else {
                        throw ShellError.invalid("\(SafeText.escape(name)) is not one of the columns: \(chosen.joined(separator: ", "))")
                            .pointing(at: [value.word])
                    }
                    chosen.removeAll { $0 == name }
                }
            }
        } else {
            if let mixed = signed.first {
                throw arguments.usageError("'\(SafeText.escape(mixed.text))': either name the columns, or add and drop with +FIELD and -FIELD",
                                           at: mixed.word)
            }
            // A field named twice is one column: JSON has one key for it.
            chosen = try given.map { try field($0, dropping: false) }.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
        }
        guard !chosen.isEmpty else { throw ShellError.invalid("a listing needs at least one column") }
        session.remember(.columns(dataset: owner.name, previous: current))
        session.chosenColumns[owner.name] = chosen
        return try owner.relist()
    }

    /// `columns name, population / area as density`: fields and computed columns, each checked.
    static func computed(_ arguments: Arguments, in session: Session) throws -> CommandResult {
        let owner = try owner(in: session)
        let names = ExpressionWords.names(in: session)
        var chosen: [String] = []
        /// Each column's name (its `as NAME`, else its text) and its spec: one name, one column,
        /// or JSON would hold a key twice and `sort NAME` pick one silently.
        var named: [String: String] = [:]
        for item in try ExpressionWords.items(arguments) {
            let spec = ExpressionWords.resolving(item, names: names)
            let field = item.name == nil ? item.expression.fieldName : nil
            let name = item.name ?? field ?? spec
            // A field named twice is that one column; anything else under a taken name is not.
            let identity = field.map { "field " + $0.lowercased() } ?? spec
            if let earlier = named[name.lowercased()], earlier != identity {
                throw ExpressionWords.pointed(ExpressionError("two columns are named '\(SafeText.escape(name))': give each its own name with as",
                                                              at: item.span), in: arguments.words)
            }
            named[name.lowercased()] = identity
            do {
                if let field = item.expression.fieldName, item.name == nil, names[field] == nil {
                    let checked = try owner.check(field)
                    if !chosen.contains(checked) { chosen.append(checked) }
                    continue
                }
                try owner.checkComputed(item.expression.substituting(names.mapValues(\.expression)))
            } catch let error as QueryError {
                throw ExpressionWords.pointed(ExpressionError("\(error)", at: item.span), in: arguments.words)
            } catch {
                throw ExpressionWords.pointed(error, in: arguments.words)
            }
            if !chosen.contains(spec) { chosen.append(spec) }
        }
        let current = session.chosenColumns[owner.name]
        session.undoable.append(.columns(dataset: owner.name, previous: current))
        session.chosenColumns[owner.name] = chosen
        return try owner.relist()
    }

    /// `columns` alone: the columns a listing shows now, and why.
    static func shown(_ owner: Owner, in session: Session) -> CommandResult {
        let chosen = session.chosenColumns[owner.name]
        let columns = chosen ?? owner.defaults
        let extra = owner.fieldsInUse.filter { !columns.contains($0) }
        var text = "\(owner.name): \(columns.isEmpty ? "no columns" : columns.joined(separator: ", "))" + (chosen == nil ? " (the default)" : "")
        if !extra.isEmpty { text += "; also shown: \(extra.joined(separator: ", ")) (sorted or filtered by)" }
        let table = ResultTable(columns: [ResultColumn("dataset"), ResultColumn("columns", .list), ResultColumn("chosen", .boolean),
                                          ResultColumn("also", .list)],
                                rows: [[.text(owner.name), .list(columns.map { .text($0) }), .boolean(chosen != nil),
                                        .list(extra.map { .text($0) })]])
        return CommandResult(table, shape: .object, prose: .lines([SafeText.escape(text)]))
    }
}
