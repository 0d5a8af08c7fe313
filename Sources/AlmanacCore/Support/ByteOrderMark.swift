/// The UTF-8 byte order mark some editors put before a text (`EF BB BF`): JSON, NDJSON, CSV
/// and scripts all read as if it were not there.
public enum ByteOrderMark {
    public static let utf8: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// How many bytes a mark takes at the start of `bytes`: 3, or 0 without one.
    @inlinable
    public static func length<Bytes: Collection>(atStartOf bytes: Bytes) -> Int where Bytes.Element == UInt8 {
        bytes.starts(with: utf8) ? utf8.count : 0
    }
}
