/// A handle on one value of a `JSONDocument`, for code that reads a few fields of a record
/// (typed models, detail views). Hot loops use the document's index API instead.
public struct JSONValue: Sendable {
    public let document: JSONDocument
    public let index: Int

    public init(document: JSONDocument, index: Int) {
        self.document = document
        self.index = index
    }

    public var kind: JSONDocument.Kind { document.kind(at: index) }
    public var isNull: Bool { kind == .null }

    public var string: String? { kind == .string ? document.string(at: index) : nil }
    public var number: Double? { kind == .number ? document.number(at: index) : nil }
    /// A number's literal exactly as written in the source.
    public var literal: String? { kind == .number ? document.string(at: index) : nil }
    public var bool: Bool? {
        switch kind {
        case .true: true
        case .false: false
        default: nil
        }
    }

    public subscript(key: String) -> JSONValue? {
        document.member(key, of: index).map { JSONValue(document: document, index: $0) }
    }

    /// The elements of an array (nil for anything else).
    public var array: [JSONValue]? {
        guard kind == .array else { return nil }
        return document.elements(of: index).map { JSONValue(document: document, index: $0) }
    }

    /// The members of an object in source order (empty for anything else).
    public var members: [(key: String, value: JSONValue)] {
        document.members(of: index).map { (document.string(at: $0.key), JSONValue(document: document, index: $0.value)) }
    }

    /// A short description of the value's type, for messages: "a string", "an array".
    public var typeDescription: String { kind.typeDescription }
}

extension JSONDocument.Kind {
    public var typeDescription: String {
        switch self {
        case .null: "null"
        case .true, .false: "a boolean"
        case .string: "a string"
        case .number: "a number"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
