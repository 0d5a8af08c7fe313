import Testing
@testable import AlmanacCore

/// Whitespace is skipped sixteen bytes a step, short strings are read in one step, and lines
/// are counted sixteen bytes a step (Scan.h): what they find must be what one byte at a time
/// finds, and every error must say the same line and column.
@Suite struct JSONScanTests {
    /// The line and column of `offset`, counted apart from the parser: lines split at '\n',
    /// columns in Unicode scalars.
    static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        let before = bytes[..<offset]
        let line = before.filter { $0 == 0x0A }.count + 1
        let lastLine = before.lastIndex(of: 0x0A).map { before[($0 + 1)...] } ?? before[...]
        return (line, String(decoding: lastLine, as: UTF8.self).unicodeScalars.count + 1)
    }

    static func parse(_ buffer: UnsafeBufferPointer<UInt8>, progress: JSONParser.Progress? = nil,
                      lines: LineTracker = LineTracker()) -> Result<(JSONDocument, Int), JSONError> {
        var builder = JSONDocumentBuilder(expectedBytes: buffer.count)
        do throws(LoadFailure) {
            let root = try JSONParser.parse(buffer, source: "t.json", into: &builder, progress: progress, lines: lines)
            return .success((builder.finish(), root))
        } catch let .json(error) {
            return .failure(error)
        } catch {
            return .failure(JSONError(reason: .empty, source: "unexpected \(error)", offset: -1, line: 0, column: 0))
        }
    }

    static func parse(_ bytes: [UInt8]) -> Result<(JSONDocument, Int), JSONError> {
        bytes.withUnsafeBufferPointer { parse($0) }
    }

    static let blanks: [String] = [" ", "\n", "\r\n", "\t", "\n    ", " \t\r\n"]

    static func run(_ length: Int, _ generator: inout some RandomNumberGenerator) -> String {
        var text = ""
        while text.utf8.count < length { text += blanks.randomElement(using: &generator)! }
        return text
    }

    @Test func whitespaceRunsOfEveryLengthAndKindAreSkipped() throws {
        var generator = SystemRandomNumberGenerator()
        for length in 0...45 {
            for padding in [0, 3, 20] {
                let w = { Self.run(length, &generator) }
                let text = "{" + w() + "\"k\"" + w() + ":" + w() + "[" + w() + "1" + w() + "," + w() + "\"v\"" + w() + "]" + w() + "}"
                    + String(repeating: " ", count: padding)
                guard case let .success((document, root)) = Self.parse(Array(text.utf8)) else {
                    Issue.record("\(text.debugDescription) did not parse")
                    continue
                }
                let array = try #require(document.member("k", of: root))
                let elements = document.elements(of: array)
                #expect(elements.count == 2 && document.number(at: elements[0]) == 1 && document.string(at: elements[1]) == "v")
            }
        }
    }

    @Test func anErrorAfterWhitespaceSaysItsLineAndColumn() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...45 {
            for padding in [0, 30] {
                let bytes = Array(("[\"д\"," + Self.run(length, &generator) + "1" + Self.run(length, &generator) + "x"
                                   + String(repeating: " ", count: padding)).utf8)
                let offset = bytes.firstIndex(of: UInt8(ascii: "x"))!
                let want = Self.lineAndColumn(of: offset, in: bytes)
                guard case let .failure(error) = Self.parse(bytes) else { Issue.record("parsed"); continue }
                #expect(error.offset == offset && error.line == want.line && error.column == want.column, "\(bytes)")
                #expect(error.reason == .expected("',' or ']'", found: "'x'"))
            }
        }
    }

    /// Keys and values of every length near the sixteen-byte step, with an escape, a Cyrillic
    /// letter or a control character anywhere, near the end of the text or not.
    @Test func shortStringsReadAsTheFullScanReadsThem() throws {
        let pieces: [(raw: String, decoded: String)] = [("a", "a"), ("\\\"", "\""), ("м", "м"), ("\\n", "\n"), ("\u{01}", "")]
        var generator = SystemRandomNumberGenerator()
        for length in 0...20 {
            for _ in 0..<30 {
                var raw = ""
                var decoded = ""
                while raw.utf8.count < length {
                    let piece = Int.random(in: 0..<8, using: &generator) < 6 ? pieces[0] : pieces.randomElement(using: &generator)!
                    raw += piece.raw
                    decoded += piece.decoded
                }
                for padding in [0, 1, 15, 16, 40] {
                    let bytes = Array(("{\"" + raw + "\": \"" + raw + "\"}" + String(repeating: "\n", count: padding)).utf8)
                    let result = Self.parse(bytes)
                    if let control = bytes.firstIndex(of: 0x01) {
                        guard case let .failure(error) = result else { Issue.record("\(raw.debugDescription) parsed"); continue }
                        let want = Self.lineAndColumn(of: control, in: bytes)
                        #expect(error.reason == .controlCharacterInString(0x01) && error.offset == control
                                && error.line == want.line && error.column == want.column, "\(raw.debugDescription)")
                    } else {
                        guard case let .success((document, root)) = result else { Issue.record("\(raw.debugDescription): \(result)"); continue }
                        let members = document.members(of: root)
                        #expect(members.count == 1 && document.string(at: members[0].key) == decoded
                                && document.string(at: members[0].value) == decoded, "\(raw.debugDescription)")
                    }
                }
            }
        }
    }

    @Test func anUnclosedShortStringSaysWhereTheTextEnds() {
        // The text, and where the error is: at its end, or at an escape cut short.
        for (text, offset) in [("[\"abc", 5), ("[\"abc\\", 5), ("{\"abc", 5), ("[\"" + String(repeating: "b", count: 20), 22)] {
            guard case let .failure(error) = Self.parse(Array(text.utf8)) else { Issue.record("parsed"); continue }
            #expect(error.offset == offset && error.line == 1 && error.column == offset + 1, "\(text)")
        }
    }

    /// Counted a stretch at a time, as the loader does before giving pages back: the same line
    /// and column as counting from the start, stretches longer than a lane's 255 steps too.
    @Test func lineCountsAgreeWithAByteLoopOverLongStretches() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "\n", "д", "€", "😀", "\r\n", "  ", "\"x\""]
        var text = ""
        while text.utf8.count < 20_000 { text += pieces.randomElement(using: &generator)! }
        text += String(repeating: "z", count: 9000)
        let all = Array(text.utf8)
        // The line and column at every offset, from one pass.
        var positions = [(line: 1, column: 1)]
        for byte in all {
            let last = positions[positions.count - 1]
            positions.append(byte == 0x0A ? (last.line + 1, 1) : (last.line, last.column + (byte & 0xC0 == 0x80 ? 0 : 1)))
        }
        #expect(positions.last! == Self.lineAndColumn(of: all.count, in: all))
        all.withUnsafeBufferPointer { bytes in
            for step in [1, 15, 16, 17, 255 * 16 - 1, 255 * 16, 255 * 16 + 17, 9000, 30_000] {
                let tracker = LineTracker()
                var end = 0
                while end < bytes.count {
                    end = min(bytes.count, end + step)
                    tracker.advance(to: end, in: bytes)
                    let want = positions[end]
                    #expect(tracker.line == want.line && tracker.column == want.column, "step \(step) end \(end)")
                }
            }
        }
    }

    /// A text of a few MB whose first part was counted (as before its pages are given back):
    /// errors past it, in a string with a raw line break, in a CRLF text, after Cyrillic on
    /// the same line, say the line and column counted from the start.
    @Test func errorsAfterCountedStretchesSayTheirLineAndColumn() {
        let record = "  {\r\n    \"имя\" : \"Привет, мир\",\r\n    \"n\" : 12.5\r\n  },\r\n"
        let head = "[\r\n" + String(repeating: record, count: 40_000)
        let tails = [
            "  {\"имя\": \"Привет\nмир\"}\r\n]",
            "  {\"имя\": \"Привет\"}\r\n  {\"n\": 1}\r\n]",
            "  {\"имя\": \"Привет\", x}\r\n]",
            "  {\"имя\": \"Привет\", \"n\": 1\r\n",
        ]
        for tail in tails {
            let bytes = Array((head + tail).utf8)
            let lines = LineTracker()
            let result = bytes.withUnsafeBufferPointer { buffer in
                Self.parse(buffer, progress: { consumed throws(CancelledError) in lines.advance(to: consumed - 1000, in: buffer) }, lines: lines)
            }
            #expect(lines.offset > 1 << 20, "nothing was counted ahead")
            guard case let .failure(error) = result else { Issue.record("parsed"); continue }
            let want = Self.lineAndColumn(of: error.offset, in: bytes)
            #expect(error.offset > head.utf8.count)
            #expect(error.line == want.line && error.column == want.column, "\(tail.debugDescription): \(error)")
        }
    }
}
