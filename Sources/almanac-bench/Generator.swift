import AlmanacCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A scaled copy of the bundled stations file, ready to load: its folder (usable as
/// `almanac --data DIR`: the other bundled files are symlinked beside it) and what it holds.
struct ScaledFile: Codable {
    var scale: Int
    var directory: String
    var path: String
    var bytes: Int
    /// City entries under "citiesFrom" and "citiesTo" together.
    var cityEntries: Int
    /// Station entries in those cities (a station listed under both lists counts twice).
    var stationEntries: Int
    /// Distinct `stationId`s: what almanac calls the records of the dataset.
    var distinctStations: Int
    /// FNV-1a 64 of the file's bytes, to show the output is the same from run to run.
    var checksum: String
    var generatorVersion: Int
    var sourceBytes: Int
    var sourceChecksum: String
}

/// Makes `N×` copies of `Data/stations.json`, deterministically:
///
/// - Clone 0 is the source itself, byte for byte (the writer reproduces its layout exactly,
///   which `--generate` checks for 1×).
/// - Clone k (1 ≤ k < N) of every city entry, in both lists, follows all of clone k−1's:
///   `cityId + k·1,000,000`, and each of its stations `stationId + k·1,000,000`, so a station
///   listed under both "citiesFrom" and "citiesTo" stays one station in every clone.
/// - Coordinates (the city's and its stations') move by a tiny offset that depends on k only:
///   at most ±0.0005° (about 55 m).
/// - `cityTitle` and `stationTitle` get " " and a made-up word spelled from k's decimal digits,
///   one syllable a digit, in the title's script: Cyrillic titles get Cyrillic syllables
///   ("Вена" → "Вена ве ба" for k = 10), others Latin ones. The syllables contain no s/с and
///   no й/ё, so they create no new match for the benchmark's queries (`моск`, `bus`,
///   prefix `Моск`) and change nothing under diacritic folding. countryTitle, regionTitle
///   and districtTitle are kept: clones are more cities in the same places.
///
/// So N× holds exactly N × 3,120 city entries, N × 4,781 station entries and N × 4,037
/// distinct stations.
enum Generator {
    static let version = 2
    static let idStride = 1_000_000

    static let cyrillicSyllables = ["ба", "ве", "ги", "до", "жу", "за", "ил", "ку", "ле", "ми"].map { Array($0.utf8) }
    static let latinSyllables = ["ba", "ve", "gi", "do", "zu", "ka", "il", "ku", "le", "mi"].map { Array($0.utf8) }

    /// The folder for `scale` under `dataDirectory`, generating the file when it is missing or
    /// was made from another source or by another generator version.
    static func ensure(scale: Int, source: String, dataDirectory: String, log: (String) -> Void) throws -> ScaledFile {
        let directory = dataDirectory + "/x\(scale)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let sourceDirectory = (source as NSString).deletingLastPathComponent
        // The other datasets, so the folder works as `almanac --data DIR`.
        for name in DataSource.bundled.map(\.file) where name != "stations.json" {
            link(directory + "/" + name, to: sourceDirectory + "/" + name)
        }
        let path = directory + "/stations.json"
        let metaPath = path + ".meta.json"
        let sourceBytes = try Data(contentsOf: URL(fileURLWithPath: source))
        let sourceChecksum = hex(fnv1a(sourceBytes))
        if let data = FileManager.default.contents(atPath: metaPath),
           let meta = try? JSONDecoder().decode(ScaledFile.self, from: data),
           meta.generatorVersion == version, meta.scale == scale, meta.sourceChecksum == sourceChecksum,
           meta.path == path, fileSize(path) == meta.bytes {
            return meta
        }
        log("generating \(scale)× stations file in \(directory) …")
        let started = Clock.now()
        let dataset = try DatasetLoader().load(
            LoadRequest(name: "stations", source: .file(path: source), model: StationModel.self),
            progress: LoadProgress(), cancellation: .never)
        var meta: ScaledFile
        if scale == 1 {
            // 1× is the bundled file itself.
            link(path, to: source)
            let counts = try write(dataset.document, clones: 1, to: nil)
            meta = ScaledFile(scale: 1, directory: directory, path: path, bytes: sourceBytes.count,
                              cityEntries: counts.cities, stationEntries: counts.stations, distinctStations: counts.distinct,
                              checksum: sourceChecksum, generatorVersion: version, sourceBytes: sourceBytes.count,
                              sourceChecksum: sourceChecksum)
            if counts.checksum != fnv1a(sourceBytes) || counts.bytes != sourceBytes.count {
                log("warning: the writer does not reproduce the source byte for byte (\(counts.bytes) vs \(sourceBytes.count) bytes)")
            }
        } else {
            let temporary = path + ".partial"
            unlink(path)
            let counts = try write(dataset.document, clones: scale, to: temporary)
            guard rename(temporary, path) == 0 else { throw BenchError("cannot rename \(temporary): \(String(cString: strerror(errno)))") }
            meta = ScaledFile(scale: scale, directory: directory, path: path, bytes: counts.bytes,
                              cityEntries: counts.cities, stationEntries: counts.stations, distinctStations: counts.distinct,
                              checksum: hex(counts.checksum), generatorVersion: version, sourceBytes: sourceBytes.count,
                              sourceChecksum: sourceChecksum)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(meta).write(to: URL(fileURLWithPath: metaPath))
        log(String(format: "  %@ bytes in %.1f s", meta.bytes.grouped, Double(Clock.now() - started) / 1e9))
        return meta
    }

    struct Counts {
        var bytes = 0
        var checksum: UInt64 = 0xcbf2_9ce4_8422_2325
        var cities = 0
        var stations = 0
        var distinct = 0
    }

    /// Writes `clones` copies of every city into one file (or only counts, when `path` is nil).
    static func write(_ document: JSONDocument, clones: Int, to path: String?) throws -> Counts {
        var writer = try Writer(document: document, path: path)
        defer { writer.close() }
        let root = document.roots[0]
        var ids = Set<Int>()
        var counts = Counts()
        writer.out("{\n")
        var firstList = true
        for (keyIndex, list) in document.members(of: root) {
            if !firstList { writer.out(",\n") }
            firstList = false
            writer.indent(1)
            writer.string(keyIndex)
            writer.out(" : ")
            guard document.kind(at: list) == .array else {
                writer.value(list, indent: 1, clone: 0, role: .plain)
                continue
            }
            let cities = document.elements(of: list)
            if cities.isEmpty { writer.out("[\n\n") ; writer.indent(1); writer.out("]"); continue }
            writer.out("[\n")
            for clone in 0..<clones {
                for (offset, city) in cities.enumerated() {
                    if clone > 0 || offset > 0 { writer.out(",\n") }
                    writer.indent(2)
                    writer.value(city, indent: 2, clone: clone, role: .plain)
                    counts.cities += 1
                    guard let stations = document.member("stations", of: city) else { continue }
                    for station in document.elements(of: stations) {
                        counts.stations += 1
                        if let id = document.member("stationId", of: station), document.kind(at: id) == .number {
                            ids.insert(Int(document.number(at: id)) + clone * idStride)
                        }
                    }
                }
            }
            writer.out("\n")
            writer.indent(1)
            writer.out("]")
        }
        writer.out("\n}\n")
        try writer.flush()
        counts.bytes = writer.written
        counts.checksum = writer.checksum
        counts.distinct = ids.count
        return counts
    }

    enum Role { case plain, id, title, latitude, longitude }

    /// A pretty-printer in the source's own layout (two-space indents, `"key" : value`,
    /// `/` written as `\/`), with the clone's changes applied on the way.
    struct Writer {
        let document: JSONDocument
        let file: UnsafeMutablePointer<FILE>?
        var buffer: [UInt8] = []
        var written = 0
        var checksum: UInt64 = 0xcbf2_9ce4_8422_2325
        /// Role of each interned key node.
        var roles: [UInt64: Role] = [:]
        var failure: BenchError?

        init(document: JSONDocument, path: String?) throws {
            self.document = document
            if let path {
                guard let file = fopen(path, "w") else { throw BenchError("cannot write \(path): \(String(cString: strerror(errno)))") }
                self.file = file
            } else {
                file = nil
            }
            buffer.reserveCapacity(1 << 22)
            for (key, role) in [("cityId", Role.id), ("stationId", .id), ("cityTitle", .title), ("stationTitle", .title),
                                ("latitude", .latitude), ("longitude", .longitude)] {
                if let node = document.internedNode(for: key) { roles[node] = role }
            }
        }

        mutating func close() {
            if let file { fclose(file) }
        }

        mutating func flush() throws {
            if let failure { throw failure }
            guard !buffer.isEmpty else { return }
            checksum = fnv1a(buffer, seed: checksum)
            written += buffer.count
            if let file {
                let count = buffer.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
                guard count == buffer.count else { throw BenchError("write failed: \(String(cString: strerror(errno)))") }
            }
            buffer.removeAll(keepingCapacity: true)
        }

        mutating func out(_ text: StaticString) {
            buffer.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }

        mutating func indent(_ level: Int) {
            for _ in 0..<(2 * level) { buffer.append(0x20) }
        }

        mutating func value(_ node: Int, indent level: Int, clone: Int, role: Role) {
            switch document.kind(at: node) {
            case .null: out("null")
            case .true: out("true")
            case .false: out("false")
            case .number:
                switch role {
                case .id where clone > 0:
                    buffer.append(contentsOf: String(Int(document.number(at: node)) + clone * Generator.idStride).utf8)
                case .latitude where clone > 0:
                    buffer.append(contentsOf: String(document.number(at: node) + Generator.offset(clone, 37, 101)).utf8)
                case .longitude where clone > 0:
                    buffer.append(contentsOf: String(document.number(at: node) + Generator.offset(clone, 53, 103)).utf8)
                default:
                    raw(node)
                }
            case .string:
                if role == .title, clone > 0 {
                    string(node, suffix: Generator.suffix(clone, cyrillic: isCyrillic(node)))
                } else {
                    string(node)
                }
            case .array:
                let elements = document.elements(of: node)
                if elements.isEmpty { out("[\n\n"); indent(level); out("]"); return }
                out("[\n")
                for (offset, element) in elements.enumerated() {
                    if offset > 0 { out(",\n") }
                    indent(level + 1)
                    value(element, indent: level + 1, clone: clone, role: .plain)
                }
                out("\n")
                indent(level)
                out("]")
            case .object:
                let members = document.members(of: node)
                if members.isEmpty { out("{\n\n"); indent(level); out("}"); return }
                out("{\n")
                for (offset, member) in members.enumerated() {
                    if offset > 0 { out(",\n") }
                    indent(level + 1)
                    string(member.key)
                    out(" : ")
                    value(member.value, indent: level + 1, clone: clone, role: roles[document.node(member.key)] ?? .plain)
                }
                out("\n")
                indent(level)
                out("}")
            }
            if buffer.count >= 1 << 21 {
                do { try flush() } catch { failure = error as? BenchError ?? BenchError("\(error)") }
            }
        }

        mutating func raw(_ node: Int) {
            let range = document.textRange(at: node)
            document.arena.withUnsafeBufferPointer { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: $0[range])) }
        }

        func isCyrillic(_ node: Int) -> Bool {
            let range = document.textRange(at: node)
            return document.arena[range].contains { $0 == 0xD0 || $0 == 0xD1 || $0 == 0xD2 || $0 == 0xD3 }
        }

        mutating func string(_ node: Int, suffix: [UInt8] = []) {
            buffer.append(0x22)
            let range = document.textRange(at: node)
            for byte in document.arena[range] {
                switch byte {
                case 0x22: out("\\\"")
                case 0x5C: out("\\\\")
                case 0x2F: out("\\/")
                case 0x0A: out("\\n")
                case 0x0D: out("\\r")
                case 0x09: out("\\t")
                case 0x08: out("\\b")
                case 0x0C: out("\\f")
                case 0..<0x20: buffer.append(contentsOf: String(format: "\\u%04x", byte).utf8)
                default: buffer.append(byte)
                }
            }
            if !suffix.isEmpty {
                buffer.append(0x20)
                buffer.append(contentsOf: suffix)
            }
            buffer.append(0x22)
        }
    }

    /// A coordinate offset for clone k: a multiple of 0.00001° in −0.0005…+0.0005.
    static func offset(_ clone: Int, _ multiplier: Int, _ modulus: Int) -> Double {
        Double((clone * multiplier) % modulus - modulus / 2) * 1e-5
    }

    /// k's decimal digits as syllables separated by spaces ("ве ба" for 10).
    static func suffix(_ clone: Int, cyrillic: Bool) -> [UInt8] {
        let syllables = cyrillic ? cyrillicSyllables : latinSyllables
        var result: [UInt8] = []
        for (offset, digit) in String(clone).utf8.enumerated() {
            if offset > 0 { result.append(0x20) }
            result.append(contentsOf: syllables[Int(digit - 0x30)])
        }
        return result
    }

    private static func link(_ path: String, to target: String) {
        if let existing = try? FileManager.default.destinationOfSymbolicLink(atPath: path), existing == target { return }
        unlink(path)
        symlink(target, path)
    }

    private static func fileSize(_ path: String) -> Int? {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : nil
    }

    static func fnv1a<Bytes: Sequence>(_ bytes: Bytes, seed: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 where Bytes.Element == UInt8 {
        var hash = seed
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }

    static func hex(_ value: UInt64) -> String { String(value, radix: 16).leftPadded(to: 16, with: "0") }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = " ") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }

    func rightPadded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
