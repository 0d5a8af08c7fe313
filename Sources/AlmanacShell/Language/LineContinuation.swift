/// A line that ends in a `\` (not itself escaped) continues on the next: the backslash and
/// the line break read as one space. At the prompt the next line is read at `...> `, and a file
/// saved in the editor joins its lines the same way, so a long command is one history entry.
/// (Scripts keep one command per line, so their errors keep their line numbers.)
public enum LineContinuation {
    public static let prompt = "...> "

    /// Whether `line` ends in an odd number of backslashes.
    public static func continues(_ line: some StringProtocol) -> Bool {
        var trailing = 0
        for character in line.reversed() {
            guard character == "\\" else { break }
            trailing += 1
        }
        return trailing % 2 == 1
    }

    /// `first` without its final backslash, then `next`: one space between them.
    public static func join(_ first: String, _ next: String) -> String {
        var head = Substring(first.dropLast())
        while head.last == " " || head.last == "\t" { head.removeLast() }
        let tail = next.drop { $0 == " " || $0 == "\t" }
        if head.isEmpty { return String(tail) }
        return head + " " + tail
    }

    /// Lines with their continuations joined, each with the number of the line it started on.
    public static func commands(in lines: some Sequence<String>) -> [(text: String, line: Int)] {
        var commands: [(text: String, line: Int)] = []
        var pending: (text: String, line: Int)?
        for (index, line) in lines.enumerated() {
            let current = pending.map { (join($0.text, line), $0.line) } ?? (line, index + 1)
            if continues(current.0) { pending = current } else { commands.append(current); pending = nil }
        }
        // A backslash on the last line has nothing to continue with: it stays (and is reported).
        if let pending { commands.append(pending) }
        return commands
    }
}
