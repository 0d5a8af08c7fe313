@testable import AlmanacCore
import Testing

/// ByteSearch.firstIndex against the obvious search, on texts of every length around its
/// 16-byte steps and its switch to memmem, with needles made to occur near the ends.
struct ByteSearchTests {
    static func naive(_ needle: [UInt8], _ haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        for start in 0...(haystack.count - needle.count) where Array(haystack[start..<(start + needle.count)]) == needle {
            return start
        }
        return nil
    }

    @Test func firstIndexFindsWhatAPlainScanFinds() {
        var generator = SystemRandomNumberGenerator()
        // Few distinct bytes (Cyrillic lead bytes and a few letters), so partial matches abound.
        let alphabet: [UInt8] = [0xD0, 0xD1, 0xBC, 0xBE, 0x81, 0xBA, 0x61, 0x62]
        for length in 0...300 {
            for _ in 0..<12 {
                var haystack = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
                let needleLength = Int.random(in: 1...20, using: &generator)
                let needle = (0..<needleLength).map { _ in alphabet.randomElement(using: &generator)! }
                // Plant it at the very end half the time: the vector loop must reach it.
                if Bool.random(using: &generator), length >= needleLength {
                    haystack.replaceSubrange((length - needleLength)..<length, with: needle)
                }
                let found = haystack.withUnsafeBufferPointer { hay in
                    needle.withUnsafeBufferPointer { ByteSearch.firstIndex(of: $0, in: hay) }
                }
                #expect(found == Self.naive(needle, haystack), "needle \(needle) in \(haystack)")
            }
        }
    }

    @Test func anEmptyNeedleIsFoundAtTheStart() {
        let found = [UInt8]("abc".utf8).withUnsafeBufferPointer { hay in
            [UInt8]().withUnsafeBufferPointer { ByteSearch.firstIndex(of: $0, in: hay) }
        }
        #expect(found == 0)
    }
}
