/// Up to eight ASCII digits read from one 8-byte load (SWAR): how many leading bytes are
/// digits, and their value. Everything comes from the one word, so a byte is never read twice
/// here (the parser's rule for mapped files that may change under it), and all arithmetic
/// wraps: any word, even one that changed between two loads, gives a count in 0…8.
enum EightDigits {
    static let powersOfTen: [UInt64] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000]

    /// The first byte of `pointer` in the low byte (the first digit is the most significant).
    @inline(__always)
    static func load(_ pointer: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(pointer).loadUnaligned(as: UInt64.self))
    }

    /// How many bytes from the lowest are '0'…'9'. A byte below '0' borrows and one above '9'
    /// carries into the bytes above it only, so the lowest flagged byte is the first non-digit.
    @inline(__always)
    static func leadingDigitCount(_ word: UInt64) -> Int {
        let nonDigits = ((word &+ 0x4646_4646_4646_4646) | (word &- 0x3030_3030_3030_3030)) & 0x8080_8080_8080_8080
        return nonDigits.trailingZeroBitCount >> 3
    }

    /// The first `run` digits' values moved to the top bytes, zeros (leading zero digits) below.
    @inline(__always)
    static func aligned(_ word: UInt64, run: Int) -> UInt64 {
        (word &- 0x3030_3030_3030_3030) << UInt64(64 - 8 * run)
    }

    /// The number the eight digit values of `aligned` spell: pairs, then fours, then all eight.
    @inline(__always)
    static func value(_ aligned: UInt64) -> UInt64 {
        let pairs = aligned &* 10 &+ (aligned >> 8)
        let mask: UInt64 = 0x0000_00FF_0000_00FF
        let fours = (pairs & mask) &* (100 &+ (1_000_000 << 32))
        let fours2 = ((pairs >> 16) & mask) &* (1 &+ (10_000 << 32))
        return (fours &+ fours2) >> 32
    }

    /// Of the digits in `aligned`, those from the first non-zero one on (0 when all are zero).
    @inline(__always)
    static func significantCount(_ aligned: UInt64) -> Int {
        8 - (aligned.trailingZeroBitCount >> 3)
    }
}
