import Testing
@testable import AlmanacCore

/// The parser checks a string's bytes sixteen at a time (`almanac_json_string_run`) and goes
/// byte by byte wherever that stops. Strings of every length around those steps, with plain
/// and Cyrillic characters, three- and four-byte ones, broken ones and control characters in
/// every place, must read as Swift's own UTF-8 decoder reads them: the same text, or an error
/// at the same byte.
@Suite struct JSONStringScanTests {
    /// What a plain reading says of the document `["…"]`: the text, or the offset of the
    /// first byte that is a control character or does not start a valid character.
    static func expected(_ document: [UInt8], contentEnd: Int) -> (text: String?, errorOffset: Int?) {
        var index = 2
        while index < contentEnd {
            let byte = document[index]
            if byte < 0x20 { return (nil, index) }
            if byte < 0x80 { index += 1; continue }
            var iterator = document[index...].makeIterator()
            var decoder = UTF8()
            guard case let .scalarValue(scalar) = decoder.decode(&iterator) else { return (nil, index) }
            index += UTF8.width(scalar)
        }
        return (String(decoding: document[2..<contentEnd], as: UTF8.self), nil)
    }

    static func parse(_ document: [UInt8]) -> (text: String?, errorOffset: Int?) {
        document.withUnsafeBufferPointer { bytes in
            var builder = JSONDocumentBuilder(expectedBytes: bytes.count)
            do throws(LoadFailure) {
                let root = try JSONParser.parse(bytes, source: "t.json", into: &builder)
                let parsed = builder.finish()
                return (parsed.elements(of: root).first.map { parsed.string(at: $0) }, nil)
            } catch let .json(error) {
                return (nil, error.offset)
            } catch {
                return (nil, -1)
            }
        }
    }

    @Test func stringsReadAsAPlainReadingDoes() {
        let pieces: [[UInt8]] = [
            Array("a".utf8), Array(" ".utf8), Array("Z".utf8), Array("м".utf8), Array("ё".utf8), Array("é".utf8),
            Array("€".utf8), Array("😀".utf8), [0x01], [0x1F], [0xD0], [0xBC], [0xC0], [0xC1], [0xFF],
            [0xE2, 0x82], [0xF0, 0x9F], [0xD0, 0x41],
        ]
        var generator = SystemRandomNumberGenerator()
        var checked = 0
        for length in 0...70 {
            for _ in 0..<40 {
                // Mostly good characters, so the vector steps run before the bad one.
                var content: [UInt8] = []
                while content.count < length {
                    let good = Int.random(in: 0..<10, using: &generator) < 9
                    content += good ? pieces[Int.random(in: 0..<8, using: &generator)] : pieces.randomElement(using: &generator)!
                }
                let document = Array("[\"".utf8) + content + Array("\"]".utf8)
                let want = Self.expected(document, contentEnd: 2 + content.count)
                let got = Self.parse(document)
                #expect(got.text == want.text && got.errorOffset == want.errorOffset, "\(content)")
                checked += 1
            }
        }
        #expect(checked == 71 * 40)
    }
}
