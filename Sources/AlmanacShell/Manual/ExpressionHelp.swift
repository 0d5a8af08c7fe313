import AlmanacCore

/// `help expressions`, and the manual's EXPRESSIONS section: the language every command that
/// takes a field takes (filter, sort, columns, group, histogram, describe).
enum ExpressionHelp {
    static let introduction = """
    Wherever a command takes a field it takes an expression: a value computed from the \
    record's fields. filter takes a condition, sort, columns, group, histogram and describe \
    any value; columns and group name it with as NAME, and later commands may use the name. \
    On an attached PostgreSQL table the database computes it (every value a bound parameter); \
    what SQL cannot compute is refused, never fetched.
    """

    static let rules: [(topic: String, text: String)] = [
        ("Values", "numbers (12, 0.5, 1e6), 'text' or \"text\", null, true, false, dates (2024-06-30, "
            + "2014-12-10T16:36:50Z), field paths (population, currencies.code, point.latitude), (parentheses). "
            + "A bare word right of a comparison is text, as filter has always read it: region = Europe. "
            + "Write a - b with spaces: a-b is one name (iso639-1)."),
        ("Operators", "+ - * / % and unary -; || joins text; = (or ==) != < <= > >=; ~ and !~ contain or not, "
            + "ignoring case and accents; =~ matches a regular expression (ICU syntax, (?i) for case); "
            + "is null, is not null; and, or, not."),
        ("Meaning", "/ is real division; division by zero and any operation on a missing value give none, "
            + "never an error. Numbers written as text (\"180\") compute as numbers; null, \"\", n/a, unknown "
            + "and none are no value; ISO timestamps are dates. date - date is days, date + n is n days later. "
            + "A comparison over a list is true when any element matches (!= and !~: when none does). "
            + "x = null and x is null are true when x itself is missing or null, never for a null inside it. "
            + "Types are checked before anything runs: sort name / 2 says 'name' is text."),
        ("Aggregates", "group takes count(x), sum(x), avg(x), min(x), max(x), distinct(x) after its keys, "
            + "each with as NAME; group region sum population still works."),
    ]

    static let examples = [
        "filter population / area > 1000", "filter name =~ '^Un'", "filter count(borders) = 0",
        "sort population / area desc", "sort length(name) desc", "columns name, population / area as density",
        "sort density desc", "group region avg(population / area) as density", "group year(created) as year",
        "histogram log10(population / area) 8", "describe population / area",
        "filter year(created) = 2014 and height / 100 > 1.8",
    ]

    /// `round(x[, digits])  rounded half away from zero, to digits after the point`.
    static var functions: [(usage: String, summary: String)] {
        ExpressionFunction.all.map { ($0.usage, $0.summary) }
    }

    /// The help text, line by line.
    static var lines: [String] {
        var lines = ["Expressions", "", introduction, ""]
        for rule in rules { lines += ["\(rule.topic): \(rule.text)", ""] }
        lines.append("Functions:")
        let width = functions.map { TextWidth.of($0.usage) }.max() ?? 0
        for function in functions { lines.append("  " + TextWidth.pad(function.usage, to: width) + "  " + function.summary) }
        lines += ["", "Examples:"] + examples.map { "  " + $0 }
        return lines
    }

    /// The manual's section.
    static var manual: String {
        var lines = [MDoc.text(introduction), ".Bl -tag -width Ds"]
        for rule in rules {
            lines.append(".It " + MDoc.quoted(rule.topic))
            lines.append(MDoc.text(rule.text))
        }
        lines.append(".El")
        lines += [".Pp", "Functions:", ".Bl -tag -width Ds"]
        for function in functions {
            lines.append(".It Li " + MDoc.quoted(function.usage))
            lines.append(MDoc.text(function.summary + "."))
        }
        lines.append(".El")
        lines.append(MDoc.literal(examples))
        return lines.joined(separator: "\n")
    }
}
