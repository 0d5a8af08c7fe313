/// Writes values of a `JSONDocument` back as JSON text: keys in source order, numbers with
/// their source literal, strings escaped as RFC 8259 requires (non-ASCII kept as UTF-8).
public struct JSONWriter: Sendable {
    public var pretty: Bool
    public private(set) var bytes: [UInt8] = []

    public init(pretty: Bool = false) { self.pretty = pretty }

    /// One value as a string.
    public static func string(_ value: JSONValue, pretty: Bool = false) -> String {
        var writer = JSONWriter(pretty: pretty)
        writer.write(value.document, value.index)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    public mutating func write(_ value: JSONValue) { write(value.document, value.index) }

    /// Empties the text written so far, keeping its memory for the next (one buffer for many values).
    public mutating func clear() { bytes.removeAll(keepingCapacity: true) }

    public mutating func write(_ document: JSONDocument, _ index: Int, indent: Int = 0) {
        switch document.kind(at: index) {
        case .null: append("null")
        case .true: append("true")
        case .false: append("false")
        case .number:
            let range = document.textRange(at: index)
            document.withArenaBytes { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[range])) }
        case .string:
            writeString(document, index)
        case .array:
            let count = document.count(at: index)
            guard count > 0 else { append("[]"); return }
            bytes.append(UInt8(ascii: "["))
            var child = index + 2
            for position in 0..<count {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                write(document, child, indent: indent + 1)
                child = document.end(of: child)
            }
            newline(indent)
            bytes.append(UInt8(ascii: "]"))
        case .object:
            let count = document.count(at: index)
            guard count > 0 else { append("{}"); return }
            bytes.append(UInt8(ascii: "{"))
            var child = index + 2
            for position in 0..<count {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                writeString(document, child)
                if pretty { append(": ") } else { bytes.append(UInt8(ascii: ":")) }
                write(document, child + 1, indent: indent + 1)
                child = document.end(of: child + 1)
            }
            newline(indent)
            bytes.append(UInt8(ascii: "}"))
        }
    }

    public mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

    /// A Swift string as a JSON string literal.
    public mutating func writeString(_ text: String) {
        var text = text
        text.withUTF8 { writeEscaped($0) }
    }

    private mutating func writeString(_ document: JSONDocument, _ index: Int) {
        let range = document.textRange(at: index)
        document.withArenaBytes { writeEscaped(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    private mutating func writeEscaped(_ text: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        // Most text needs no escape: copied whole.
        if !text.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            bytes.append(contentsOf: text)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in text {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0x08: append("\\b")
            case 0x0C: append("\\f")
            case 0..<0x20:
                append("\\u00")
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private mutating func newline(_ indent: Int) {
        guard pretty else { return }
        bytes.append(0x0A)
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }
}
