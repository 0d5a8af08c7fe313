import Foundation
import Synchronization

/// Text compared the way people expect: without regard to case or diacritics
/// (`Åland` matches `aland`, `МОСК` matches `моск`). Foundation does the folding.
///
/// Foundation's `folding` costs about a microsecond a string, which is seconds for a million
/// station titles. For Latin, Greek and Cyrillic text — every name in the bundled data — the
/// result is a per-character mapping, so each character's folding is asked of Foundation once
/// and remembered; text with anything else (CJK, Arabic, combining marks, whose folding
/// depends on neighbours) goes to Foundation whole. A test checks both paths agree on every
/// name in the data.
public enum Folding {
    public static func fold(_ text: some StringProtocol) -> String {
        var text = String(text)
        var folded: [UInt8] = []
        folded.reserveCapacity(text.utf8.count)
        let fast = text.withUTF8 { appendFolded($0, to: &folded) }
        if fast { return String(decoding: folded, as: UTF8.self) }
        return foundationFold(text)
    }

    /// The reference: Foundation's case- and diacritic-insensitive folding.
    public static func foundationFold(_ text: some StringProtocol) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// Appends the folded UTF-8 of `bytes` to `output`, the way `fold` does.
    public static func appendFolded(utf8 bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        let start = output.count
        if !appendFolded(bytes, to: &output) {
            output.removeSubrange(start...)
            output.append(contentsOf: foundationFold(String(decoding: bytes, as: UTF8.self)).utf8)
        }
    }

    /// Whether `candidate` starts with `prefix`, both folded.
    public static func hasPrefix(_ candidate: String, _ prefix: String) -> Bool {
        prefix.isEmpty || fold(candidate).hasPrefix(fold(prefix))
    }

    // MARK: - The remembered per-character foldings

    /// Characters below this are folded through the table (Latin, Greek, Cyrillic).
    static let tableLimit: UInt32 = 0x530

    /// For each character below `tableLimit`, where the UTF-8 of its folding sits in
    /// `foldedBytes` (offset << 8 | length); length 0 marks the combining marks, which only
    /// Foundation folds right. Flat arrays: no reference counting in the inner loop.
    private static let (table, foldedBytes): ([UInt32], [UInt8]) = {
        var table: [UInt32] = []
        var bytes: [UInt8] = []
        for value in 0..<tableLimit {
            var folded: [UInt8] = []
            if !(0x300...0x36F).contains(value), let scalar = Unicode.Scalar(value) {
                folded = Array(foundationFold(String(scalar)).utf8)
            }
            table.append(UInt32(bytes.count) << 8 | UInt32(folded.count))
            bytes.append(contentsOf: folded)
        }
        return (table, bytes)
    }()

    /// ASCII folds to lowercase; the table covers the rest.
    @inline(__always)
    private static func appendFolded(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) -> Bool {
        let table = Self.table
        let foldedBytes = Self.foldedBytes
        return table.withUnsafeBufferPointer { table in
            foldedBytes.withUnsafeBufferPointer { foldedBytes in
                var index = 0
                let count = bytes.count
                while index < count {
                    let byte = bytes[index]
                    if byte < 0x80 {
                        output.append(byte &- 0x41 < 26 ? byte | 0x20 : byte)
                        index += 1
                        continue
                    }
                    // Two-byte sequences reach U+07FF; the table stops at U+052F.
                    guard byte >= 0xC2, byte <= 0xDF, index + 1 < count else { return false }
                    let second = bytes[index + 1]
                    guard second & 0xC0 == 0x80 else { return false }
                    let value = UInt32(byte & 0x1F) << 6 | UInt32(second & 0x3F)
                    guard value < tableLimit else { return false }
                    let entry = table[Int(value)]
                    let length = Int(entry & 0xFF)
                    if length == 0 { return false }
                    let offset = Int(entry >> 8)
                    for position in offset..<(offset + length) { output.append(foldedBytes[position]) }
                    index += 2
                }
                return true
            }
        }
    }
}
