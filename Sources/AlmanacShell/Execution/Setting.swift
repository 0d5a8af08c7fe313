import AlmanacCore

/// One setting, declared once — its name, the values it takes, its default and its help — from
/// which `set` lists, parses, completes, colours and documents it (help, the manual page) and
/// words its errors, as VisiData's `option()` does. A new setting is one declaration in
/// `Setting.standard`.
public struct Setting: Sendable {
    public let name: String
    /// Other spellings `set` takes (`colour`).
    public let aliases: [String]
    /// The values, as usage shows them: `on|off`, `N|auto`, `SIZE`.
    public let values: String
    /// The words it takes, for completion and colouring (none when it takes a number or size).
    public let choices: [String]
    /// What it does, one or two sentences for help and the manual page.
    public let help: String
    private let read: @Sendable (Settings) -> String
    private let write: @Sendable (inout Settings, String) throws(ShellError) -> Void

    public init(_ name: String, aliases: [String] = [], values: String, choices: [String] = [], help: String,
                read: @escaping @Sendable (Settings) -> String,
                write: @escaping @Sendable (inout Settings, String) throws(ShellError) -> Void) {
        self.name = name
        self.aliases = aliases
        self.values = values
        self.choices = choices
        self.help = help
        self.read = read
        self.write = write
    }

    /// The setting's value in `settings`, as `set` shows it.
    public func value(in settings: Settings) -> String { read(settings) }

    /// Its value when almanac starts (colour: on a terminal).
    public var defaultValue: String { read(Settings(color: true)) }

    /// Sets it from `text`; an error says which values it takes.
    public func set(_ text: String, in settings: inout Settings) throws(ShellError) { try write(&settings, text) }

    /// Whether `name` names it, ignoring case.
    public func isNamed(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return lowered == self.name || aliases.contains(lowered)
    }

    /// `on` or `off` (also true/false, yes/no, 1/0), into a Boolean setting.
    public static func onOff(_ name: String, _ keyPath: WritableKeyPath<Settings, Bool> & Sendable, aliases: [String] = [],
                             help: String) -> Setting {
        Setting(name, aliases: aliases, values: "on|off", choices: ["on", "off"], help: help,
                read: { $0[keyPath: keyPath] ? "on" : "off" },
                write: { settings, text throws(ShellError) in settings[keyPath: keyPath] = try onOff(text, for: name) })
    }

    /// One of an enumeration's cases, by its raw value.
    public static func choice<Value: RawRepresentable & CaseIterable & Sendable>(
        _ name: String, _ keyPath: WritableKeyPath<Settings, Value> & Sendable, help: String
    ) -> Setting where Value.RawValue == String {
        let choices = Value.allCases.map(\.rawValue)
        return Setting(name, values: choices.joined(separator: "|"), choices: choices, help: help,
                       read: { $0[keyPath: keyPath].rawValue },
                       write: { settings, text throws(ShellError) in
                           guard let value = Value(rawValue: text.lowercased()) else {
                               throw .invalid("\(name) must be \(Self.either(choices)), not '\(SafeText.escape(text))'")
                           }
                           settings[keyPath: keyPath] = value
                       })
    }

    static func onOff(_ value: String, for name: String) throws(ShellError) -> Bool {
        switch value.lowercased() {
        case "on", "true", "yes", "1": return true
        case "off", "false", "no", "0": return false
        default: throw .invalid("\(name) must be on or off, not '\(SafeText.escape(value))'")
        }
    }

    /// `a`, `a or b`, `a, b or c`.
    static func either(_ words: [String]) -> String {
        guard words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " or " + words[words.count - 1]
    }
}

/// The settings `set` knows, in the order it lists them.
public struct SettingTable: Sendable {
    public let settings: [Setting]

    public init(_ settings: [Setting]) { self.settings = settings }

    public var names: [String] { settings.map(\.name) }

    /// The setting `name` names (or one of its aliases), ignoring case.
    public func setting(_ name: String) -> Setting? { settings.first { $0.isNamed(name) } }

    /// The unknown-setting error, with the closest name.
    func unknown(_ name: String) -> ShellError {
        let suggestion = Suggestion.closest(to: name, among: names)
        return .invalid("unknown setting '\(SafeText.escape(name))'"
            + (suggestion.map { " — did you mean '\($0)'?" } ?? " — settings are \(names.joined(separator: ", "))"))
    }

    /// `format table|… (default table): how results are written.`, a line each: help's and the
    /// manual page's words.
    public var discussion: String {
        settings.map { "\($0.name) \($0.values) (default \($0.defaultValue)): \($0.help)" }.joined(separator: "\n")
    }
}
