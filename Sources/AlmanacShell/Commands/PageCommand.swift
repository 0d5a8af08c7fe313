import AlmanacCore

/// `page`, `page N`, `page next|prev|first|last` pages through the current result set.
public enum PageCommand: Command {
    static let page = Parameter("N", .number(Int.min...Int.max, or: ["next", "prev", "first", "last"]), .optional,
                               hidden: ["n", "p", "previous"])

    public static let spec = CommandSpec(
        name: "page",
        summary: "Show a page of the current results",
        parameters: [page],
        examples: ["page", "page 2", "page next", "page last"]
    )

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        let given = try arguments.parse()[Self.page].first
        var source = try session.results()
        let page = try target(given, current: session.page, pages: Listing.pageCount(&source, in: session))
        return try session.list(source, page: page)
    }

    /// The page the argument asks for, from the current one, checked against the number of pages.
    static func target(_ given: ArgumentValue?, current: Int, pages: Int) throws -> Int {
        var page = current
        if let given {
            if let number = given.number {
                guard (1...pages).contains(number) else {
                    let shown = Int(given.text) == nil ? SafeText.excerpt(given.text) : String(number)
                    throw ShellError.at(column: given.word.column, width: TextWidth.of(given.text),
                                        .invalid("there \(pages == 1 ? "is 1 page" : "are \(pages) pages"); page \(shown) does not exist"))
                }
                page = number
            } else {
                switch given.text.lowercased() {
                case "next", "n": page += 1
                case "prev", "previous", "p": page -= 1
                case "first": page = 1
                default: page = pages
                }
            }
        }
        guard (1...pages).contains(page) else {
            throw ShellError.invalid(page < 1 ? "already on the first page" : "already on the last page (\(pages))")
        }
        return page
    }
}
