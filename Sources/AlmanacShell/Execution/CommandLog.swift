import AlmanacCore
import Foundation

/// The session's working commands, as `save` writes them: the lines that built the current
/// results (VisiData's command log). Kept as commands succeed: `load`s and `link`s; the last `use` and
/// the search, filter, sort, limit and drill-down steps since it; `columns` changes; the last
/// value of each setting. A step `back` undoes is taken out again, as is a line that failed
/// (never added). Lines are kept as the tokenizer read them, quoted again where needed, with
/// URLs' passwords left out, and a file loaded by a relative path named by its absolute path
/// (the script is replayed from any folder).
public struct CommandLog: Sendable {
    enum Kind: Equatable {
        /// load (and link): datasets that exist from then on.
        case load
        case use
        case setting(String)
        /// search, filter, sort, limit, show #N: a step of the query, undone by back.
        case step
        /// columns: a choice for one dataset, undone by back, forgotten at the next use.
        case columns
    }

    struct Entry: Sendable {
        let id: Int
        let kind: Kind
        let lines: [String]
    }

    private var entries: [Entry] = []
    /// The entries behind each of the session's `undoable` changes, in the same order.
    private var undoable: [Int] = []
    private var nextID = 0
    /// The last `group` line: a drill-down (`show #N`) is replayed after it.
    private var lastGroup: String?
    /// Whether a password was left out of a line.
    public private(set) var leftOutPassword = false

    public init() {}

    /// The lines to save, in order.
    public var lines: [String] { entries.flatMap(\.lines) }

    /// Notes a statement that succeeded: `words` after the command's name; whether a group
    /// listing was the last listing before it (then `show #N` drills into a group); how many
    /// changes `back` can undo after it (the session keeps a bounded number).
    /// `directory`: what a relative path was read from (the current folder when nil).
    mutating func record(_ command: any Command.Type, _ words: [Word], afterGroups: Bool, undoable: Int, directory: String? = nil) {
        defer { if self.undoable.count > undoable { self.undoable.removeFirst(self.undoable.count - undoable) } }
        let name = command.spec.name
        let line = Self.line(name, name == "load" ? Self.anchoringSource(words, in: directory ?? FileManager.default.currentDirectoryPath) : words)
        if name == "back" {
            if let id = self.undoable.popLast() { entries.removeAll { $0.id == id } }
            return
        }
        if name == "group" { lastGroup = line }
        var kind: Kind?
        var lines = [line]
        switch name {
        case "load" where !words.isEmpty, "link" where !words.isEmpty: kind = .load
        case "use" where !words.isEmpty:
            // `use` resets the columns too: a `columns` line kept from before would replay
            // ahead of its `use`, where no single dataset is in use, and fail.
            entries.removeAll { $0.kind == .use || $0.kind == .step || $0.kind == .columns }
            self.undoable = []
            kind = .use
        case "set" where words.count >= 2:
            let setting = Kind.setting(words[0].text.lowercased())
            entries.removeAll { $0.kind == setting }
            kind = setting
        case "columns" where !words.isEmpty: kind = .columns
        case "show" where ShowCommand.drillsDown(words, afterGroups: afterGroups):
            // A drill-down into a group listing: the group first, then its number.
            if let lastGroup { lines = [lastGroup, line] }
            kind = .step
        case _ where command.spec.role.shapes(given: words.count): kind = .step
        default: break
        }
        guard let kind else { return }
        nextID += 1
        entries.append(Entry(id: nextID, kind: kind, lines: lines.map { redacted($0) }))
        if kind == .step || kind == .columns { self.undoable.append(nextID) }
    }

    private mutating func redacted(_ line: String) -> String {
        let redacted = PasswordRedaction.line(line)
        if redacted != line { leftOutPassword = true }
        return redacted
    }

    /// The words of `load … from FILE` with a relative FILE made absolute against `directory`
    /// (`./` steps dropped; `..` kept, as a symbolic link may stand before it). URLs, `~/…`
    /// and absolute paths stay as typed.
    static func anchoringSource(_ words: [Word], in directory: @autoclosure () -> String) -> [Word] {
        guard let from = words.firstIndex(where: { !$0.isQuoted && $0.text.lowercased() == "from" }), from + 1 < words.count else { return words }
        let typed = words[from + 1]
        guard case .file? = try? LoadSource.parse(typed.text), !typed.text.hasPrefix("/"), typed.text != "~", !typed.text.hasPrefix("~/") else {
            return words
        }
        let folder = directory()
        let steps = typed.text.split(separator: "/").filter { $0 != "." }
        var anchored = typed
        anchored.text = (folder.hasSuffix("/") ? folder : folder + "/") + steps.joined(separator: "/")
        // Quoted when the tokenizer would split it or read its quotes and escapes.
        anchored.isQuoted = typed.isQuoted || anchored.text.contains { " \t\n\r;\\\"'#".contains($0) }
        var result = words
        result[from + 1] = anchored
        return result
    }

    /// The statement as a line that reads back as the same words.
    /// Appended word by word: `joined(separator:)` is not specialised for this, and its first
    /// call looked up its associated types at run time (a quarter of a million instructions in
    /// every script, `-c quit` included).
    static func line(_ name: String, _ words: [Word]) -> String {
        var line = name
        for word in words {
            line += " "
            guard word.isQuoted || word.text.isEmpty else {
                line += word.text
                continue
            }
            line += "\"" + word.text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
        }
        return line
    }
}
