/// Hints from history, as fish's autosuggestions: the rest of the newest entry that begins
/// with what is typed, preferring entries typed while the same dataset was in use.
///
/// Each entry's dataset is worked out by replaying the `use` commands of the history in order
/// (the file keeps only the lines), and recorded as the session goes. Entries are kept as
/// UTF-8 bytes, so a key costs a few thousand short `memcmp`s, not String comparisons.
public struct HistoryHints {
    private var entries: [(bytes: [UInt8], context: String?)] = []
    /// The dataset in use after the last entry, as its `use` commands say.
    private var replayedContext: String?

    public init(_ history: [String]) {
        for entry in history { append(entry, context: replayedContext) }
    }

    /// Records an entry typed while `context` (the dataset in use) was current.
    public mutating func append(_ entry: String, context: String?) {
        let context = Self.normalized(context)
        // Lines with control characters (a pasted tab, a joined newline) are never offered:
        // drawn after the cursor they would move it.
        if !entry.unicodeScalars.contains(where: { SafeText.needsEscape($0) }) {
            entries.append((Array(entry.utf8), context))
            if entries.count > HistoryStore.capacity { entries.removeFirst(entries.count - HistoryStore.capacity) }
        }
        replayedContext = Self.context(after: entry, startingFrom: context)
    }

    /// The text to show after `typed`: the rest of the newest entry under `context` that starts
    /// with it, else of the newest under any dataset. Nil for an empty line, or when none fits.
    /// `skipping` passes over entries not worth offering (a filter that would find nothing).
    public func hint(for typed: String, context: String?, skipping: (String) -> Bool = { _ in false }) -> String? {
        let context = Self.normalized(context)
        let prefix = Array(typed.utf8)
        guard !prefix.isEmpty else { return nil }
        var fallback: [UInt8]?
        for entry in entries.reversed() where entry.bytes.count > prefix.count && entry.bytes.starts(with: prefix) {
            guard entry.context == context || fallback == nil else { continue }
            if skipping(String(decoding: entry.bytes, as: UTF8.self)) { continue }
            if entry.context == context { return Self.rest(of: entry.bytes, after: prefix.count) }
            fallback = entry.bytes
        }
        return fallback.flatMap { Self.rest(of: $0, after: prefix.count) }
    }

    private static func rest(of bytes: [UInt8], after count: Int) -> String? {
        // A prefix that ends inside a character cannot be continued.
        guard let text = String(validating: bytes[count...], as: UTF8.self) else { return nil }
        return text
    }

    /// The dataset in use after `line` runs, when `context` was before: its last `use NAME`.
    static func context(after line: String, startingFrom context: String?) -> String? {
        guard mentionsUse(line) else { return context }
        if let name = plainUse(line) { return normalized(name) }
        guard let statements = try? Tokenizer.statements(in: line) else { return context }
        var current = context
        for statement in statements where statement.words.count == 2 && statement.words[0].text.lowercased() == "use" {
            current = normalized(statement.words[1].text)
        }
        return current
    }

    /// Whether `line` holds "use" in any case: bytes, not `lowercased().contains`, which costs
    /// Foundation's string search for each of the ten thousand lines replayed at the first key.
    private static func mentionsUse(_ line: String) -> Bool {
        let word: [UInt8] = [0x75, 0x73, 0x65]  // "use"
        var matched = 0
        for byte in line.utf8 {
            let lower = byte | 0x20
            if lower == word[matched] {
                matched += 1
                if matched == 3 { return true }
            } else {
                matched = lower == UInt8(ascii: "u") ? 1 : 0
            }
        }
        return false
    }

    /// The name in `use NAME` written plainly (letters, digits, `_`, `-`, `.`; blanks around),
    /// the usual form, without the tokenizer; nil for anything else.
    private static func plainUse(_ line: String) -> String? {
        var bytes = Substring(line).utf8[...]
        while bytes.first == 0x20 { bytes.removeFirst() }
        while bytes.last == 0x20 { bytes.removeLast() }
        guard bytes.count > 4, bytes.prefix(3).map({ $0 | 0x20 }) == [0x75, 0x73, 0x65] else { return nil }
        bytes.removeFirst(3)
        guard bytes.first == 0x20 else { return nil }
        while bytes.first == 0x20 { bytes.removeFirst() }
        let plain = bytes.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F || byte == 0x2D || byte == 0x2E
        }
        guard plain, !bytes.isEmpty else { return nil }
        return String(Substring(bytes))
    }

    /// `use all` and no `use` at all are the same scope.
    private static func normalized(_ context: String?) -> String? {
        guard let name = context?.lowercased(), name != "all" else { return nil }
        return name
    }
}
