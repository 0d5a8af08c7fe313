/// One city entry of `citiesFrom` or `citiesTo`.
struct CityEntry: Sendable {
    var node: Int
    /// `.from` for an entry of `citiesFrom`, `.to` for one of `citiesTo`.
    var direction: Directions
    /// Its position in its list, from 0.
    var offset: Int

    var list: String { direction == .from ? "citiesFrom" : "citiesTo" }
}

/// Reads the station entries of a run of cities and checks their fields, without deciding
/// which become records (that needs every earlier entry: see `StationModel.extract`), so that
/// runs can be scanned on different threads.
struct StationScanner: @unchecked Sendable {
    // @unchecked: the document is immutable; the compiled keys are plain values.
    let document: JSONDocument
    let specs: [RecordExtraction.CompiledSpec]
    let nameKey: JSONDocument.Key
    let stationsKey: JSONDocument.Key
    let stationIdKey: JSONDocument.Key
    let cityIdKey: JSONDocument.Key

    /// A station entry, or (`station` −1) a city entry that only brings a warning.
    struct Entry {
        var station: Int
        var id = 0
        var cityId = Int.min
        var direction: Directions = []
        /// It has a numeric `stationId`.
        var hasIdentity = false
        /// Its fields passed the checks (it may become a record).
        var passed = false
        /// Its warnings end here in `Scan.warnings` (they start where the previous entry's end).
        var warningEnd = 0
    }

    struct Scan {
        var entries: [Entry] = []
        /// Station warnings are numbered from the first entry of this scan, from 1.
        var warnings: [LoadWarning] = []
        var cities: [(node: Int, direction: Directions)] = []
        var stationEntries = 0
        var cancelled = false

        /// Room for the entries of `cities` city entries, allocated by the thread that makes
        /// it: memory a worker thread allocates stays in its malloc arena after it is freed.
        init(reservingFor cities: Int = 0) {
            entries.reserveCapacity(cities * 2)
            self.cities.reserveCapacity(cities)
        }
    }

    /// Scans `cities` into `scan` (made with room for them by the caller).
    func scan(_ cities: ArraySlice<CityEntry>, into scan: inout Scan, cancellation: Cancellation) {
        for (index, city) in cities.enumerated() {
            if index & 0xFFF == 0, cancellation.isCancelled {
                scan.cancelled = true
                return
            }
            guard document.kind(at: city.node) == .object else {
                scan.warnings.append(LoadWarning(record: city.offset + 1, message: "\(city.list) entry skipped: expected a city object, found \(document.kind(at: city.node).typeDescription)"))
                scan.entries.append(Entry(station: -1, warningEnd: scan.warnings.count))
                continue
            }
            scan.cities.append((city.node, city.direction))
            let cityId = document.member(cityIdKey, of: city.node).flatMap {
                document.kind(at: $0) == .number ? Int(exactly: document.number(at: $0)) : nil
            } ?? Int.min
            guard let stations = document.member(stationsKey, of: city.node), document.kind(at: stations) == .array else { continue }
            var child = stations + 2
            for _ in 0..<document.count(at: stations) {
                let station = child
                child = document.end(of: child)
                scan.stationEntries += 1
                var entry = Entry(station: station, cityId: cityId, direction: city.direction)
                if document.kind(at: station) != .object {
                    scan.warnings.append(LoadWarning(record: scan.stationEntries, message: "skipped: expected a station object, found \(document.kind(at: station).typeDescription)"))
                } else {
                    if let idNode = document.member(stationIdKey, of: station), document.kind(at: idNode) == .number,
                       let id = Int(exactly: document.number(at: idNode)) {
                        entry.id = id
                        entry.hasIdentity = true
                    }
                    entry.passed = RecordExtraction.check(station, number: scan.stationEntries, specs: specs, nameKey: nameKey,
                                                          in: document, warnings: &scan.warnings)
                }
                entry.warningEnd = scan.warnings.count
                scan.entries.append(entry)
            }
        }
    }
}
