import Testing
@testable import AlmanacCore

/// Values no guess knows wait for their intern-table probe (`appendStringLookingUp`) when
/// they are slices of the input; decoded ones (with escapes) are probed at once. Waiting must
/// leave every node and the arena exactly as probing at once does.
@Suite struct DeferredInterningTests {
    /// A value as JSON: plain, or with its first character written as a \u escape (which
    /// decodes to the same bytes, through the parser's scratch buffer).
    static func quoted(_ value: String, escaped: Bool) -> String {
        guard escaped, let first = value.unicodeScalars.first else { return "\"\(value)\"" }
        let hex = String(first.value, radix: 16)
        return "\"\\u" + String(repeating: "0", count: 4 - hex.count) + hex + String(value.unicodeScalars.dropFirst()) + "\""
    }

    static func text(escaped: Bool) -> String {
        var random = SplitMix64(seed: 7)
        let countries = ["Россия", "Österreich", "France", ""]
        let stations = (0..<3_000).map { number -> String in
            let country = countries[Int(random.next() % 4)]
            let city = "Город \(random.next() % 300)"
            let title = number % 7 == 0 ? String(repeating: "Длинное название ", count: 5) : "Станция \(number) \(random.next() % 1_000)"
            let values = [("countryTitle", country), ("cityTitle", city), ("regionTitle", number % 3 == 0 ? city : "Область"), ("stationTitle", title)]
            let members = values.map { "\"\($0.0)\": \(quoted($0.1, escaped: escaped))" }
            return "{" + members[0] + ", \"point\": {\"longitude\": \(Double(number) / 3), \"latitude\": 1e-\(number % 9)}, "
                + members[1...].joined(separator: ", ") + ", \"stationId\": \(number)}"
        }
        return "[" + stations.joined(separator: ",\n") + "]"
    }

    static func parse(_ text: String) throws -> JSONDocument {
        var builder = JSONDocumentBuilder(expectedBytes: text.utf8.count)
        _ = try Array(text.utf8).withUnsafeBufferPointer { bytes throws(LoadFailure) in
            try JSONParser.parse(bytes, source: "t.json", into: &builder)
        }
        return builder.finish()
    }

    @Test func valuesThatWaitGiveTheNodesAndArenaOfValuesProbedAtOnce() throws {
        let waiting = try Self.parse(Self.text(escaped: false))
        let atOnce = try Self.parse(Self.text(escaped: true))
        #expect(waiting.nodes.count == 3_000 * 22 + 2)
        #expect(waiting.nodes == atOnce.nodes)
        #expect(waiting.arena == atOnce.arena)
    }
}
