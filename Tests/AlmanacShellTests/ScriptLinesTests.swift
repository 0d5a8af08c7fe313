import Foundation
import Testing
@testable import AlmanacShell

/// A script's bytes as the lines `DescriptorLines` hands over.
@Suite struct ScriptLinesTests {
    func lines(_ bytes: [UInt8]) -> [ScriptLine] {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        #expect(bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } == bytes.count)
        close(ends[1])
        defer { close(ends[0]) }
        return Array(DescriptorLines(descriptor: ends[0]))
    }

    static let mark: [UInt8] = [0xEF, 0xBB, 0xBF]

    @Test func aByteOrderMarkBeforeTheFirstLineIsNoPartOfIt() {
        #expect(lines(Self.mark + Array("use countries\ncount\n".utf8)) == [.text("use countries"), .text("count")])
        #expect(lines(Self.mark + Array("count".utf8)) == [.text("count")])
        #expect(lines(Self.mark + Array("use countries\r\n".utf8)) == [.text("use countries")])
        #expect(lines(Self.mark) == [.text("")])
    }

    /// Only the start of the text may hold one: elsewhere the character is the line's.
    @Test func aByteOrderMarkLaterIsKept() {
        #expect(lines(Array("count\n".utf8) + Self.mark + Array("count\n".utf8)) == [.text("count"), .text("\u{FEFF}count")])
        #expect(lines(Self.mark + Self.mark + Array("count\n".utf8)) == [.text("\u{FEFF}count")])
    }
}
