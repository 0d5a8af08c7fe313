/// The shell's settings, changed with `set` and shown by `set` alone.
public struct Settings: Sendable, Equatable {
    public var format: OutputFormat = .table
    /// Rows per page; nil follows the terminal's height (and prints everything into a pipe).
    public var pageSize: Int?
    public var color: Bool
    public var pager: Bool = true
    /// Hints from history after the cursor, and colours as the line is typed (at the prompt).
    public var hints: Bool = true
    public var highlight: Bool = true
    /// How much a load from http(s) may read: `maxpages` and `maxbytes`.
    public var fetchBounds = FetchBounds()
    /// One line per field for each record: always, never, or when a table is wider than the terminal.
    public var expanded: ExpandedMode = .off
    /// After each command, how long it took, on standard error.
    public var timer = false
    /// In a script, every shaping command's listing too, not only the last command's (`ScriptAnswer`).
    public var echo = false

    public init(color: Bool) { self.color = color }

    /// Every setting, in the order `set` lists them.
    public static let names = ["format", "pagesize", "color", "pager", "hints", "highlight", "maxpages", "maxbytes", "expanded", "timer", "echo"]

    public func value(of name: String) -> String? {
        switch name {
        case "format": format.name
        case "pagesize": pageSize.map(String.init) ?? "auto"
        case "color": color ? "on" : "off"
        case "pager": pager ? "on" : "off"
        case "hints": hints ? "on" : "off"
        case "highlight": highlight ? "on" : "off"
        case "maxpages": String(fetchBounds.maximumPages)
        case "maxbytes": Self.sizeText(fetchBounds.maximumBytes)
        case "expanded": expanded.rawValue
        case "timer": timer ? "on" : "off"
        case "echo": echo ? "on" : "off"
        default: nil
        }
    }

    /// The values a setting accepts, for completion and errors.
    public static func choices(for name: String) -> [String] {
        switch name {
        case "format": OutputFormat.all.map(\.name)
        case "pagesize": ["auto"]
        case "color", "pager", "hints", "highlight", "timer", "echo": ["on", "off"]
        case "expanded": ExpandedMode.allCases.map(\.rawValue)
        default: []
        }
    }

    public mutating func set(_ name: String, to value: String) throws(ShellError) {
        let lowered = value.lowercased()
        switch name.lowercased() {
        case "format":
            guard let format = OutputFormat.named(lowered) else {
                throw .invalid("format must be one of \(Self.choices(for: "format").joined(separator: ", ")), not '\(SafeText.escape(value))'")
            }
            self.format = format
        case "pagesize":
            // One rule: 1 to 1,000,000 rows, or auto. (0 is not a silent alias of auto.)
            if lowered == "auto" { pageSize = nil; return }
            guard let size = Int(value), (1...1_000_000).contains(size) else {
                throw .invalid("pagesize must be a whole number from 1 to 1,000,000, or auto — not '\(SafeText.escape(value))'")
            }
            pageSize = size
        case "color", "colour":
            color = try Self.onOff(value, for: "color")
        case "pager":
            pager = try Self.onOff(value, for: "pager")
        case "hints":
            hints = try Self.onOff(value, for: "hints")
        case "highlight":
            highlight = try Self.onOff(value, for: "highlight")
        case "maxpages":
            guard let pages = Int(value), pages >= 1, pages <= 1_000_000 else {
                throw .invalid("maxpages must be a whole number from 1 to 1000000 — not '\(SafeText.excerpt(value))'")
            }
            fetchBounds.maximumPages = pages
        case "maxbytes":
            guard let bytes = Self.size(lowered), bytes >= 1 << 10, bytes <= 1 << 40 else {
                throw .invalid("maxbytes is a size from 1K to 1024G, like 64M or 2G — not '\(SafeText.excerpt(value))'")
            }
            fetchBounds.maximumBytes = bytes
        case "expanded":
            guard let mode = ExpandedMode(rawValue: lowered) else {
                throw .invalid("expanded must be on, off or auto, not '\(SafeText.escape(value))'")
            }
            expanded = mode
        case "timer":
            timer = try Self.onOff(value, for: "timer")
        case "echo":
            echo = try Self.onOff(value, for: "echo")
        default:
            let suggestion = Suggestion.closest(to: name, among: Self.names)
            throw .invalid("unknown setting '\(SafeText.escape(name))'"
                + (suggestion.map { " — did you mean '\($0)'?" } ?? " — settings are \(Self.names.joined(separator: ", "))"))
        }
    }

    /// `512K`, `64M`, `2G` (powers of 1024), or bytes.
    static func size(_ text: String) -> Int? {
        let units: [Character: Int] = ["k": 10, "m": 20, "g": 30]
        var digits = Substring(text)
        var shift = 0
        if let last = digits.last, let unit = units[last] {
            shift = unit
            digits = digits.dropLast()
        }
        guard let number = Int(digits), number >= 0, number <= Int.max >> shift else { return nil }
        return number << shift
    }

    static func sizeText(_ bytes: Int) -> String {
        for (unit, shift) in [("G", 30), ("M", 20), ("K", 10)] where bytes % (1 << shift) == 0 { return "\(bytes >> shift)\(unit)" }
        return String(bytes)
    }

    private static func onOff(_ value: String, for name: String) throws(ShellError) -> Bool {
        switch value.lowercased() {
        case "on", "true", "yes", "1": return true
        case "off", "false", "no", "0": return false
        default: throw .invalid("\(name) must be on or off, not '\(SafeText.escape(value))'")
        }
    }
}

import AlmanacCore
