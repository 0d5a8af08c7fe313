import Testing
@testable import AlmanacCore

/// The tools the loops of describe and group lean on: the radix sort of numbers, the table of
/// texts by their bytes, and the byte test before a value is checked for a word for none.
@Suite struct CountingToolsTests {
    /// A fixed pseudo-random sequence (xorshift), so a failure repeats.
    struct Numbers {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        mutating func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
    }

    @Test("sortNumbers orders as sort(): negatives, duplicates, infinities, tiny and huge values, 5,000 of them")
    func radixSortMatchesSort() {
        var random = Numbers()
        var values: [Double] = [.infinity, -.infinity, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .greatestFiniteMagnitude, 0]
        for index in 0..<5_000 {
            switch index % 4 {
            case 0: values.append(Double(Int64(bitPattern: random.next()) % 1000) / 8)  // many duplicates, both signs
            case 1: values.append(Double(bitPattern: random.next() & ~(0x7FF << 52) | (UInt64(1000 + index % 100) << 52)))
            case 2: values.append(-Double(random.next() % 100_000) * 1e-3)
            default: values.append(Double(random.next() >> 11) * 1e10)
            }
        }
        var sorted = values
        sorted.sortNumbers()
        #expect(sorted.map(\.bitPattern) == values.sorted().map(\.bitPattern))
    }

    @Test("sortNumbers keeps sort()'s order of -0 and 0 (by position), and sorts NaN as sort() does")
    func radixSortFallsBackForNegativeZeroAndNaN() {
        var values = (0..<2_000).map { Double($0 % 7) - 3 }
        values[10] = -0.0
        var sorted = values
        sorted.sortNumbers()
        #expect(sorted.map(\.bitPattern) == values.sorted().map(\.bitPattern))
        values[20] = .nan
        sorted = values
        sorted.sortNumbers()
        #expect(sorted.map(\.bitPattern) == values.sorted().map(\.bitPattern))
    }

    @Test("ByteTable: equal bytes get the first value given, wherever they lie; 10,000 texts survive the table's growth")
    func byteTableNumbersTextsByTheirBytes() {
        var table = ByteTable(empty: 0)
        func value(_ text: String, or new: Int32) -> Int32 {
            var text = text
            return text.withUTF8 { table.value(of: $0, or: new).value }
        }
        #expect(value("", or: 99) == 0)
        for index in 1...10_000 { #expect(value("text \(index) — ещё", or: Int32(index)) == Int32(index)) }
        for index in stride(from: 10_000, through: 1, by: -7) { #expect(value("text \(index) — ещё", or: -1) == Int32(index)) }
        // The same bytes from an array, not a String.
        let bytes = Array("text 42 — ещё".utf8)
        #expect(bytes.withUnsafeBufferPointer { table.value(of: $0, or: -1).value } == 42)
        let entry = bytes.withUnsafeBufferPointer { table.value(of: $0, or: -1).entry }
        #expect(table.withBytes(of: entry) { Array($0) } == bytes)
        // "é" composed and decomposed are different bytes, so different texts.
        #expect(value("\u{E9}", or: 20_001) == 20_001)
        #expect(value("e\u{301}", or: 20_002) == 20_002)
    }

    @Test("the byte test never rules out a word for none: spaces of every kind around them, any case, the Kelvin sign")
    func byteTestKeepsEveryAbsentWord() {
        let absent = ["", " ", "\t", "n/a", "N/A", " none ", "\u{A0}unknown\u{A0}", "(None)", "\u{3000}", "\u{2007}n/a",
                      "\u{1680}", "UN\u{212A}NOWN"]
        for text in absent {
            #expect(ValueText.isAbsent(text), "\(text.debugDescription)")
            #expect(ValueText.mayBeAbsent(utf8: text.utf8), "\(text.debugDescription)")
        }
        for text in ["Вена", "Россия", "indefinite", "город", "Köln", "东京", "x"] {
            #expect(!ValueText.isAbsent(text), "\(text.debugDescription)")
        }
        // Text without an n that starts with a letter is ruled out from its bytes.
        #expect(!ValueText.mayBeAbsent(utf8: "Вена".utf8))
        #expect(ValueText.mayBeAbsent(utf8: "Köln".utf8))  // an n: asked in full
    }
}
