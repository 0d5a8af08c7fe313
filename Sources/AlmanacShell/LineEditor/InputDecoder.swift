#if canImport(Glibc)
import Glibc
#endif

/// Turns bytes from standard input into Unicode scalars, one key at a time.
struct InputDecoder {
    enum Fill { case bytes, endOfFile, failed }

    private var bytes: [UInt8] = []
    private var start = 0

    /// Reads what is there without blocking: Ctrl-C can discard the input poll() just reported
    /// (and put the terminal back in line mode), and a blocking read would then hang.
    mutating func fill(from descriptor: Int32) -> Fill {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        let failure = errno
        _ = fcntl(descriptor, F_SETFL, flags)
        errno = failure
        if count > 0 {
            if start > 0 { bytes.removeFirst(start); start = 0 }
            bytes.append(contentsOf: chunk[0..<count])
            return .bytes
        }
        if count < 0, errno == EINTR || errno == EAGAIN { return .bytes }
        return count == 0 ? .endOfFile : .failed
    }

    /// The next whole scalar, or nil when more bytes are needed. Invalid bytes become U+FFFD.
    mutating func next() -> Unicode.Scalar? {
        guard start < bytes.count else { return nil }
        let lead = bytes[start]
        let length: Int
        switch lead {
        case 0..<0x80: start += 1; return Unicode.Scalar(lead)
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: start += 1; return "\u{FFFD}"
        }
        guard bytes.count - start >= length else { return nil }
        var decoder = UTF8()
        var iterator = bytes[start..<(start + length)].makeIterator()
        if case let .scalarValue(scalar) = decoder.decode(&iterator) {
            start += length
            return scalar
        }
        start += 1
        return "\u{FFFD}"
    }
}
