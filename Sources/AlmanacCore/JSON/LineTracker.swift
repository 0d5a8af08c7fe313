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
        guard end > offset else { return }
        (line, column) = position(of: end, in: bytes)
        offset = end
    }

    /// 1-based line, and column in characters (UTF-8 continuation bytes do not count), of
    /// `target`, which must be at or after `offset`. Counted on from `offset` sixteen bytes a
    /// step: when a mapped file's lines were not counted ahead, that is from the start.
    public func position(of target: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        guard target > offset, let base = bytes.baseAddress else { return (line, column) }
        let newlines = almanac_count_newlines(base, offset, target)
        // The column: characters (not UTF-8 continuation bytes) after the last line break.
        let lastNewline = newlines > 0 ? almanac_last_newline(base, offset, target) : -1
        let characters = almanac_count_characters(base, lastNewline >= 0 ? lastNewline + 1 : offset, target)
        return (line + newlines, (lastNewline >= 0 ? 1 : column) + characters)
    }
}
