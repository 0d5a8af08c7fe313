/// Where lines start, for error messages, when the beginning of the text is gone: the loader
/// frees the pages the parser has finished with, so before freeing a stretch it records the
/// line and column reached at its end here, and errors count on from there.
public final class LineTracker: @unchecked Sendable {
    /// The byte offset up to which lines were counted, and the line and column at it.
    public private(set) var offset = 0
    public private(set) var line = 1
    public private(set) var column = 1

    /// `advance` counts no further than this (see `stopCounting`).
    private var limit = Int.max

    public init() {}

    /// Lines past `offset` will not be counted ahead of time: `advance` stops there, and
    /// `position(of:)` counts on from it through the bytes themselves.
    public func stopCounting(at offset: Int) { limit = max(self.offset, offset) }

    /// Counts the lines of `bytes[offset..<end]` (which must still be readable) and moves on.
    /// Eight bytes at a time: this runs over every byte of a large file.
    public func advance(to end: Int, in bytes: UnsafeBufferPointer<UInt8>) {
        let end = min(end, limit)
        guard end > offset, let base = bytes.baseAddress else { return }
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let high: UInt64 = 0x8080_8080_8080_8080
        var newlines = 0
        var lastNewline = -1
        var index = offset
        while index + 8 <= end {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            // One high bit per byte equal to '\n' (exact, no borrows).
            let x = word ^ 0x0A0A_0A0A_0A0A_0A0A
            let zeros = ~(((x & low) &+ low) | x | low)
            if zeros != 0 {
                newlines += zeros.nonzeroBitCount
                lastNewline = index + (63 - zeros.leadingZeroBitCount) / 8
            }
            index += 8
        }
        while index < end {
            if base[index] == 0x0A {
                newlines += 1
                lastNewline = index
            }
            index += 1
        }
        // The column: characters (not UTF-8 continuation bytes) after the last line break.
        let from = lastNewline >= 0 ? lastNewline + 1 : offset
        var characters = 0
        index = from
        while index + 8 <= end {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            characters += 8 - (word & (~word << 1) & high).nonzeroBitCount
            index += 8
        }
        while index < end {
            if base[index] & 0xC0 != 0x80 { characters += 1 }
            index += 1
        }
        line += newlines
        column = (lastNewline >= 0 ? 1 : column) + characters
        offset = end
    }

    /// 1-based line, and column in characters (UTF-8 continuation bytes do not count), of
    /// `target`, which must be at or after `offset`.
    public func position(of target: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        var line = self.line
        var column = self.column
        for index in min(offset, target)..<target {
            let byte = bytes[index]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }
}
