/// Where lines start, for error messages, when the beginning of the text is gone: the loader
/// frees the pages the parser has finished with, so before freeing a stretch it records the
/// line and column reached at its end here, and errors count on from there.
public final class LineTracker: @unchecked Sendable {
    /// The byte offset up to which lines were counted, and the line and column at it.
    public private(set) var offset = 0
    public private(set) var line = 1
    public private(set) var column = 1

    public init() {}

    /// Counts the lines of `bytes[offset..<end]` (which must still be readable) and moves on.
    public func advance(to end: Int, in bytes: UnsafeBufferPointer<UInt8>) {
        guard end > offset else { return }
        for index in offset..<end {
            let byte = bytes[index]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
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
