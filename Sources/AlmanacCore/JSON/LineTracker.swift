import CGlibc

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
    /// Sixteen bytes a step (`almanac_count_newlines`): this runs over every byte of a large file.
    public func advance(to end: Int, in bytes: UnsafeBufferPointer<UInt8>) {
        let end = min(end, limit)
        guard end > offset, let base = bytes.baseAddress else { return }
        let newlines = almanac_count_newlines(base, offset, end)
        // The column: characters (not UTF-8 continuation bytes) after the last line break.
        let lastNewline = newlines > 0 ? almanac_last_newline(base, offset, end) : -1
        let characters = almanac_count_characters(base, lastNewline >= 0 ? lastNewline + 1 : offset, end)
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
