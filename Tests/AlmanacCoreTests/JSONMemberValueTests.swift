import Testing
@testable import AlmanacCore

/// Member values go straight to strings and numbers (`parseMemberValue`), and a string that
/// does not end within sixteen bytes is scanned inline before the full scan: the same texts
/// and errors as array elements, which go through `parseValue`.
@Suite struct JSONMemberValueTests {
    static func result(_ text: [UInt8]) -> (text: String?, number: Double?, errorOffset: Int?, reason: JSONError.Reason?) {
        switch JSONScanTests.parse(text) {
        case let .success((document, root)):
            let value = document.kind(at: root) == .object ? document.members(of: root)[0].value : document.elements(of: root)[0]
            switch document.kind(at: value) {
            case .string: return (document.string(at: value), nil, nil, nil)
            case .number: return (nil, document.number(at: value), nil, nil)
            default: return (nil, nil, nil, nil)
            }
        case let .failure(error): return (nil, nil, error.offset, error.reason)
        }
    }

    @Test func memberValuesReadAsArrayElementsDo() {
        let pieces: [[UInt8]] = [
            Array("a".utf8), Array(" ".utf8), Array("м".utf8), Array("é".utf8), Array("€".utf8), Array("😀".utf8),
            Array("\\n".utf8), Array("\\u0416".utf8), [0x01], [0xD0], [0xBC], [0xFF], [0xE2, 0x82], [0xD0, 0x41],
        ]
        var generator = SystemRandomNumberGenerator()
        for length in 0...50 {
            for _ in 0..<20 {
                var content: [UInt8] = []
                while content.count < length {
                    let good = Int.random(in: 0..<10, using: &generator) < 9
                    content += good ? pieces[Int.random(in: 0..<6, using: &generator)] : pieces.randomElement(using: &generator)!
                }
                for padding in [0, 20] {
                    let tail = Array(repeating: UInt8(ascii: " "), count: padding)
                    let element = Self.result(Array("[\"".utf8) + content + Array("\"]".utf8) + tail)
                    let member = Self.result(Array("{\"k\" : \"".utf8) + content + Array("\"}".utf8) + tail)
                    #expect(member.text == element.text && member.reason == element.reason
                            && member.errorOffset == element.errorOffset.map { $0 + 6 }, "\(content)")
                }
            }
        }
    }

    /// The colon with every spacing around it, and a value of every kind after it.
    @Test func everySpacingAroundTheColonReads() {
        for spacing in ["", " ", "  ", "\n", " \r\n ", "\t"] {
            for after in ["", " ", "  ", "\n  ", "\t"] {
                for value in ["1", "-2.5", "\"x\"", "true", "[3]", "{\"y\": 4}", "null"] {
                    let text = "{\"k\"" + spacing + ":" + after + value + "}"
                    guard case let .success((document, root)) = JSONScanTests.parse(Array(text.utf8)) else {
                        Issue.record("\(text.debugDescription) did not parse")
                        continue
                    }
                    let members = document.members(of: root)
                    #expect(members.count == 1 && document.string(at: members[0].key) == "k", "\(text.debugDescription)")
                }
            }
        }
    }

    @Test func aMissingOrCutValueAfterTheColonSaysWhere() {
        let cases: [(text: String, offset: Int, reason: JSONError.Reason)] = [
            ("{\"k\" : ", 7, .unexpectedEnd(expected: "a value")),
            ("{\"k\" :", 6, .unexpectedEnd(expected: "a value")),
            ("{\"k\" : }", 7, .expected("a value", found: "'}'")),
            ("{\"k\" :: 1}", 6, .expected("a value", found: "':'")),
            ("{\"k\"  1}", 6, .expected("':'", found: "'1'")),
            ("{\"k\" : -}", 7, .invalidNumber("-")),
            ("{\"k\" : \"д", 10, .unexpectedEnd(expected: "'\"' to close the string")),
            ("{\"k\"\n : \nx}", 9, .expected("a value", found: "'x'")),
        ]
        for (text, offset, reason) in cases {
            let bytes = Array(text.utf8)
            guard case let .failure(error) = JSONScanTests.parse(bytes) else { Issue.record("\(text.debugDescription) parsed"); continue }
            let want = JSONScanTests.lineAndColumn(of: offset, in: bytes)
            #expect(error.offset == offset && error.reason == reason && error.line == want.line && error.column == want.column,
                    "\(text.debugDescription): \(error)")
        }
    }
}
