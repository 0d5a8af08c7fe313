/// A statement and its parameters, built so that text a user typed only ever travels as a
/// parameter: fragments are appended with their own parameters, and the placeholders are
/// numbered (`$1`, `$2`, …) when the statement is sent. Identifiers come quoted from the
/// catalog (`PostgresConnection.quote`), never from what was typed.
public struct SQL: Sendable, Equatable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The statement with each placeholder as `marker`.
    private var template: String
    public private(set) var parameters: [String?]

    /// Stands for a parameter until the statement is numbered. The program's own text may hold
    /// the same character (a quoted column named with U+0001): there it is doubled, and a
    /// single one is always a placeholder (followed by its `::type`).
    static let marker: Character = "\u{1}"

    public init(_ trusted: String = "") {
        template = Self.literal(trusted)
        parameters = []
    }

    /// `trusted` as template text: any marker in it doubled, so it stays itself.
    private static func literal(_ trusted: String) -> String {
        trusted.utf8.contains(1) ? trusted.replacingOccurrences(of: "\u{1}", with: "\u{1}\u{1}") : trusted
    }

    public init(stringLiteral value: String) { self.init(value) }

    /// Appends SQL the program wrote (keywords, quoted identifiers, constants).
    public mutating func append(_ trusted: String) { template += Self.literal(trusted) }

    /// Appends another fragment with its parameters.
    public mutating func append(_ fragment: SQL) {
        template += fragment.template
        parameters += fragment.parameters
    }

    /// Appends a parameter holding `value`, cast to `type` so the server never has to guess it.
    public mutating func bind(_ value: String?, as type: String = "text") {
        template.append(Self.marker)
        template += "::" + type
        parameters.append(value)
    }

    public static func + (left: SQL, right: SQL) -> SQL {
        var result = left
        result.append(right)
        return result
    }

    public static func + (left: SQL, right: String) -> SQL {
        var result = left
        result.append(right)
        return result
    }

    /// Fragments joined by a separator.
    public static func joined(_ fragments: [SQL], separator: String) -> SQL {
        var result = SQL()
        for (index, fragment) in fragments.enumerated() {
            if index > 0 { result.append(separator) }
            result.append(fragment)
        }
        return result
    }

    /// A parameter alone: `$n::type`.
    public static func value(_ value: String?, as type: String = "text") -> SQL {
        var result = SQL()
        result.bind(value, as: type)
        return result
    }

    public var isEmpty: Bool { template.isEmpty }

    /// The statement with numbered placeholders, as sent to the server.
    public var text: String {
        var result = ""
        result.reserveCapacity(template.utf8.count + parameters.count * 2)
        var number = 0
        var literalMarker = false
        for character in template {
            if character == Self.marker, !literalMarker {
                literalMarker = true
                continue
            }
            if literalMarker {
                literalMarker = false
                if character == Self.marker {
                    result.append(character)
                    continue
                }
                number += 1
                result += "$\(number)"
            }
            result.append(character)
        }
        if literalMarker {
            number += 1
            result += "$\(number)"
        }
        return result
    }

    public var description: String { text }
}
