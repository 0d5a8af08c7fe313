import AlmanacCore

/// `page`, `page N`, `page next|prev|first|last` pages through the current result set.
public enum PageCommand: Command {
    public static let spec = CommandSpec(
        name: "page",
        summary: "Show a page of the current results",
        usage: "page [N|next|prev|first|last]",
        examples: ["page", "page 2", "page next", "page last"]
    )

    public static func complete(_ request: CompletionRequest, in session: Session) -> [CompletionCandidate] {
        request.arguments.isEmpty ? request.matching(["next", "prev", "first", "last"]) : []
    }

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        try arguments.expect(count: 0...1)
        if var table = session.tableInUse() {
            // The database sends the one page asked for.
            let pages = try TableListing.pageCount(&table, in: session)
            let page = try target(arguments, current: session.page, pages: pages)
            return try TableListing.show(table, page: page, in: session)
        }
        let results = try session.pinnedResults()
        let page = try target(arguments, current: session.page, pages: Listing.pageCount(results, in: session))
        session.page = page
        session.lastGroups = nil
        return Listing.result(results, page: page, in: session)
    }

    /// The page the argument asks for, from the current one, checked against the number of pages.
    static func target(_ arguments: Arguments, current: Int, pages: Int) throws -> Int {
        var page = current
        if arguments.count == 1 {
            switch arguments[0].lowercased() {
            case "next", "n": page += 1
            case "prev", "previous", "p": page -= 1
            case "first": page = 1
            case "last": page = pages
            default:
                let text = arguments[0]
                guard let number = Int(text) else {
                    // A whole number too large for Int, either sign: as missing as page 0.
                    let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : Substring(text)
                    if !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
                        throw ShellError.invalid("there \(pages == 1 ? "is 1 page" : "are \(pages) pages"); page \(SafeText.excerpt(text)) does not exist")
                    }
                    throw arguments.usageError("a page is a number, next, prev, first or last — not '\(SafeText.escape(text))'")
                }
                guard (1...pages).contains(number) else {
                    throw ShellError.invalid("there \(pages == 1 ? "is 1 page" : "are \(pages) pages"); page \(number) does not exist")
                }
                page = number
            }
        }
        guard (1...pages).contains(page) else {
            throw ShellError.invalid(page < 1 ? "already on the first page" : "already on the last page (\(pages))")
        }
        return page
    }
}
