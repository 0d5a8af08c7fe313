import AlmanacCore

/// The shell's settings, changed with `set` and shown by `set` alone; each is declared once in
/// `SettingTable.standard`.
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

    /// The value of the setting `name`, as `set` shows it.
    public func value(of name: String, in table: SettingTable = .standard) -> String? { table.setting(name)?.value(in: self) }

    /// Sets the setting `name` from `value`; an error names the values it takes.
    public mutating func set(_ name: String, to value: String, in table: SettingTable = .standard) throws(ShellError) {
        guard let setting = table.setting(name) else { throw table.unknown(name) }
        try setting.set(value, in: &self)
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
}
