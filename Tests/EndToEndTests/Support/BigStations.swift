import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A large stations-shaped file made from the real one: every city of Data/stations.json cloned
/// again and again with new city and station ids and titles ending in the clone's number, all
/// under `citiesFrom`, until the file reaches the size asked for. Written compact, in chunks,
/// into a folder of its own that is removed when the test process exits.
struct BigStationsFile: Sendable {
    let path: String
    let bytes: Int
    let stations: Int
    let cities: Int
    /// How long making it took.
    let seconds: Double

    private static let made = Mutex<[Int: BigStationsFile]>([:])
    private static let folder: String = {
        let folder = NSTemporaryDirectory() + "almanac-big-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        atexit { BigStationsFile.removeFolder() }
        return folder
    }()

    private static func removeFolder() {
        try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "almanac-big-\(getpid())")
    }

    /// The file of about `megabytes` MB, made on first use (once per test process).
    static func shared(megabytes: Int) throws -> BigStationsFile {
        if let file = made.withLock({ $0[megabytes] }) { return file }
        let file = try make(megabytes: megabytes, at: folder + "/stations-\(megabytes)mb.json")
        made.withLock { $0[megabytes] = file }
        return file
    }

    /// A copy of `file` cut off at `fraction` of its bytes (malformed: the parser fails near the end).
    static func truncatedCopy(of file: BigStationsFile, fraction: Double) throws -> String {
        let path = folder + "/truncated-\(Int(fraction * 100))-\(file.bytes).json"
        if FileManager.default.fileExists(atPath: path) { return path }
        guard let source = FileHandle(forReadingAtPath: file.path) else { throw HarnessError("cannot read \(file.path)") }
        defer { try? source.close() }
        FileManager.default.createFile(atPath: path, contents: nil)
        guard let target = FileHandle(forWritingAtPath: path) else { throw HarnessError("cannot write \(path)") }
        defer { try? target.close() }
        var left = Int(Double(file.bytes) * fraction)
        while left > 0 {
            let chunk = source.readData(ofLength: min(left, 8 << 20))
            if chunk.isEmpty { break }
            target.write(chunk)
            left -= chunk.count
        }
        return path
    }

    private struct Template {
        /// `{"countryTitle":…,"point":{…},"districtTitle":…,"cityId":`
        var cityHead: [UInt8]
        /// `,"cityTitle":"TITLE` (the clone number and the rest follow)
        var cityTitle: [UInt8]
        /// `,"regionTitle":…,"stations":[`
        var cityTail: [UInt8]
        var stations: [(head: [UInt8], middle: [UInt8], title: [UInt8])]
    }

    private static func make(megabytes: Int, at path: String) throws -> BigStationsFile {
        let started = ContinuousClock.now
        let data = try Data(contentsOf: URL(fileURLWithPath: DataFolder.realFile("stations")))
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw HarnessError("stations.json is not an object")
        }
        func json(_ value: Any) throws -> [UInt8] {
            if let text = value as? String {
                // Through an array: JSONSerialization writes only collections at top level.
                let wrapped = try JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])
                return Array(wrapped.dropFirst().dropLast())
            }
            if JSONSerialization.isValidJSONObject(value) {
                return Array(try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes]))
            }
            return Array("\(value)".utf8)
        }
        /// A quoted string's bytes without the closing quote, so a suffix can follow.
        func open(_ text: String) throws -> [UInt8] { Array(try json(text).dropLast()) }

        var templates: [Template] = []
        for key in ["citiesFrom", "citiesTo"] {
            for case let city as [String: Any] in root[key] as? [Any] ?? [] {
                func common(_ object: [String: Any]) throws -> [UInt8] {
                    var bytes = Array(#"{"countryTitle":"#.utf8) + (try json(object["countryTitle"] ?? ""))
                    bytes += Array(#","point":"#.utf8) + (try json(object["point"] ?? [String: Any]()))
                    bytes += Array(#","districtTitle":"#.utf8) + (try json(object["districtTitle"] ?? ""))
                    bytes += Array(#","cityId":"#.utf8)
                    return bytes
                }
                var template = Template(
                    cityHead: try common(city),
                    cityTitle: Array(#","cityTitle":"#.utf8) + (try open(city["cityTitle"] as? String ?? "")),
                    cityTail: Array(#","regionTitle":"#.utf8) + (try json(city["regionTitle"] ?? "")) + Array(#","stations":["#.utf8),
                    stations: [])
                for case let station as [String: Any] in city["stations"] as? [Any] ?? [] {
                    let head = try common(station)
                    let middle = Array(#","cityTitle":"#.utf8) + (try json(station["cityTitle"] ?? "")) + Array(#","regionTitle":"#.utf8)
                        + (try json(station["regionTitle"] ?? "")) + Array(#","stationId":"#.utf8)
                    let title = Array(#","stationTitle":"#.utf8) + (try open(station["stationTitle"] as? String ?? ""))
                    template.stations.append((head, middle, title))
                }
                templates.append(template)
            }
        }
        guard !templates.isEmpty else { throw HarnessError("no cities in stations.json") }

        FileManager.default.createFile(atPath: path, contents: nil)
        guard let handle = FileHandle(forWritingAtPath: path) else { throw HarnessError("cannot write \(path)") }
        defer { try? handle.close() }
        let target = megabytes * 1_000_000
        var buffer: [UInt8] = []
        buffer.reserveCapacity(9 << 20)
        var written = 0
        var cityId = 1_000_000
        var stationId = 1_000_000
        var stations = 0
        var cities = 0
        buffer += Array(#"{"citiesFrom":["#.utf8)
        var clone = 0
        outer: while true {
            let suffix = Array(" \(clone)\"".utf8)
            for template in templates {
                if cities > 0 { buffer.append(UInt8(ascii: ",")) }
                cityId += 1
                cities += 1
                let cityDigits = Array(String(cityId).utf8)
                buffer += template.cityHead
                buffer += cityDigits
                buffer += template.cityTitle
                buffer += suffix
                buffer += template.cityTail
                for (index, station) in template.stations.enumerated() {
                    if index > 0 { buffer.append(UInt8(ascii: ",")) }
                    stationId += 1
                    stations += 1
                    buffer += station.head
                    buffer += cityDigits
                    buffer += station.middle
                    buffer += Array(String(stationId).utf8)
                    buffer += station.title
                    buffer += suffix
                    buffer.append(UInt8(ascii: "}"))
                }
                buffer += Array("]}".utf8)
                if buffer.count >= 8 << 20 {
                    handle.write(Data(buffer))
                    written += buffer.count
                    buffer.removeAll(keepingCapacity: true)
                }
                if written + buffer.count >= target { break outer }
            }
            clone += 1
        }
        buffer += Array(#"],"citiesTo":[]}"#.utf8)
        handle.write(Data(buffer))
        written += buffer.count
        let elapsed = ContinuousClock.now - started
        return BigStationsFile(path: path, bytes: written, stations: stations, cities: cities,
                               seconds: ReliabilityLog.milliseconds(elapsed) / 1000)
    }
}
