import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `load NAME from SOURCE` may add: `as FORMAT` (else the extension, else the content
/// says), `at PATH` (where in a JSON object the records are), `key FIELD` (what `show ID` finds).
public struct LoadOptions: Sendable, Equatable {
    public enum Format: String, Sendable, CaseIterable {
        case json, ndjson, csv, tsv

        /// By a file's extension: `.csv`, `.tsv`/`.tab`, `.ndjson`/`.jsonl` (and GeoJSON's text
        /// sequences, RFC 8142: `.geojsons`, `.geojsonl`, `.geojsonseq`), `.json`/`.geojson`.
        public static func byExtension(_ path: String) -> Format? {
            let lowered = path.lowercased()
            guard let dot = lowered.lastIndex(of: "."), !lowered[dot...].contains("/") else { return nil }
            switch lowered[lowered.index(after: dot)...] {
            case "csv": return .csv
            case "tsv", "tab": return .tsv
            case "ndjson", "jsonl", "geojsons", "geojsonl", "geojsonseq": return .ndjson
            case "json", "geojson": return .json
            default: return nil
            }
        }

        /// By an HTTP Content-Type (`text/csv; charset=utf-8`); nil for JSON and for one that
        /// names no format (`text/plain`, `application/octet-stream`): servers send NDJSON as
        /// `application/json` too, so the extension or the body decides.
        static func byContentType(_ type: String) -> Format? {
            let media = type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
            switch media {
            case "text/csv", "application/csv": return .csv
            case "text/tab-separated-values": return .tsv
            case "application/x-ndjson", "application/ndjson", "application/jsonl", "application/json-lines",
                 "application/geo+json-seq", "application/json-seq": return .ndjson
            default: return nil
            }
        }

        /// By the text's first bytes: JSON starts with `{` or `[` (after a byte order mark and
        /// blanks), a JSON text sequence (RFC 7464, GeoJSON's RFC 8142) with the record
        /// separator; anything else is read as CSV, its delimiter sniffed.
        static func byContent(_ bytes: UnsafeBufferPointer<UInt8>) -> Format {
            var index = ByteOrderMark.length(atStartOf: bytes)
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D { index += 1 }
            guard index < bytes.count else { return .json }
            if bytes[index] == JSONParser.recordSeparator { return .ndjson }
            return bytes[index] == UInt8(ascii: "{") || bytes[index] == UInt8(ascii: "[") ? .json : .csv
        }

        /// By the first bytes of a regular file; nil for a pipe, a device or a file of /proc
        /// (size 0: made as it is read), whose bytes are not read twice.
        static func byContent(ofFile path: String) -> Format? {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            var status = stat()
            guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 else { return nil }
            var head = [UInt8](repeating: 0, count: 4096)
            let read = head.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
            guard read > 0 else { return nil }
            return head.withUnsafeBufferPointer { byContent(UnsafeBufferPointer(rebasing: $0[0..<read])) }
        }

        public var isDelimited: Bool { self == .csv || self == .tsv }
    }

    public var format: Format?
    /// A dotted path to the array of records in a JSON object (`data.items`).
    public var recordsAt: String?
    /// The field whose values `show` finds records by.
    public var key: String?

    public init(format: Format? = nil, recordsAt: String? = nil, key: String? = nil) {
        self.format = format
        self.recordsAt = recordsAt
        self.key = key
    }
}
