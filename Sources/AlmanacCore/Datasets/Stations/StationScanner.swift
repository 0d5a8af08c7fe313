/// One of the lists of cities, `citiesFrom` or `citiesTo`.
struct CityList: Sendable {
    var node: Int
    /// `.from` for `citiesFrom`, `.to` for `citiesTo`.
    var direction: Directions

    var name: String { direction == .from ? "citiesFrom" : "citiesTo" }
}

/// Where a walk over the city lists stands: a city entry's node, the index of its list, and
/// its position in that list (from 0). Past the end when `list` is the number of lists.
struct CityPosition: Sendable {
    var list: Int
    var node: Int
    var offset: Int

    /// The first city entry of `lists`.
    static func start(of lists: [CityList]) -> CityPosition {
        CityPosition(list: 0, node: lists.first.map { $0.node + 2 } ?? 0, offset: 0)
    }
}

/// Reads the station entries of a run of cities and checks their fields, without deciding
/// which become records (that needs every earlier entry: see `StationModel.extract`), so that
/// runs can be scanned on different threads.
struct StationScanner: @unchecked Sendable {
    // @unchecked: the document is immutable; the compiled keys are plain values.
    let document: JSONDocument
    let checker: RecordChecker
    let stationsKey: JSONDocument.Key
    let stationIdKey: JSONDocument.Key
    let cityIdKey: JSONDocument.Key
    /// The spec of `stationId`, whose value the check finds anyway.
    let stationIdSpec: Int?

    init(document: JSONDocument, specs: [FieldSpec], nameField: String) {
        self.document = document
        checker = RecordChecker(specs, nameField: nameField, in: document)
        stationsKey = document.key("stations")
        stationIdKey = document.key("stationId")
        cityIdKey = document.key("cityId")
        stationIdSpec = checker.specIndex("stationId")
    }

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

    /// Scans the city entries from `start` up to the first whose node is `stop` or later into
    /// `scan` (made with room for them by the caller). The walk from city to city goes with
    /// the scan, whose reads of a city bring the next one's node into the cache.
    func scan(_ lists: [CityList], from start: CityPosition, before stop: Int, into scan: inout Scan, cancellation: Cancellation) {
        let scratch = checker.makeScratch()
        var position = start
        var scanned = 0
        while position.list < lists.count {
            let list = lists[position.list]
            let count = document.count(at: list.node)
            while position.offset < count {
                if position.node >= stop { return }
                if scanned & 0xFFF == 0, cancellation.isCancelled {
                    scan.cancelled = true
                    return
                }
                scanned += 1
                scanCity(position.node, of: list, offset: position.offset, into: &scan, scratch: scratch)
                position.node = document.end(of: position.node)
                position.offset += 1
            }
            position = CityPosition(list: position.list + 1, node: position.list + 1 < lists.count ? lists[position.list + 1].node + 2 : 0, offset: 0)
        }
    }

    /// The first city entry whose node is `node` or later (past the end if none is): a walk
    /// from the latest city before it whose place the parse marked, or from the start.
    func position(of node: Int, in lists: [CityList]) -> CityPosition {
        var position = CityPosition.start(of: lists)
        for mark in document.elementMarks where mark.node <= node && mark.node > position.node {
            if let list = lists.firstIndex(where: { $0.node == mark.array }), list >= position.list {
                position = CityPosition(list: list, node: mark.node, offset: mark.ordinal)
            }
        }
        while position.list < lists.count {
            let count = document.count(at: lists[position.list].node)
            while position.offset < count {
                if position.node >= node { return position }
                position.node = document.end(of: position.node)
                position.offset += 1
            }
            position = CityPosition(list: position.list + 1, node: position.list + 1 < lists.count ? lists[position.list + 1].node + 2 : 0, offset: 0)
        }
        return position
    }

    private func scanCity(_ city: Int, of list: CityList, offset: Int, into scan: inout Scan, scratch: RecordChecker.Scratch) {
        guard document.kind(at: city) == .object else {
            scan.warnings.append(LoadWarning(record: offset + 1, message: "\(list.name) entry skipped: expected a city object, found \(document.kind(at: city).typeDescription)"))
            scan.entries.append(Entry(station: -1, warningEnd: scan.warnings.count))
            return
        }
        scan.cities.append((city, list.direction))
        let (cityIdNode, stationsNode) = members(cityIdKey, stationsKey, of: city)
        let cityId = cityIdNode.flatMap {
            document.kind(at: $0) == .number ? Int(exactly: document.number(at: $0)) : nil
        } ?? Int.min
        guard let stations = stationsNode, document.kind(at: stations) == .array else { return }
        var child = stations + 2
        for _ in 0..<document.count(at: stations) {
            let station = child
            child = document.end(of: child)
            scan.stationEntries += 1
            var entry = Entry(station: station, cityId: cityId, direction: list.direction)
            if document.kind(at: station) != .object {
                scan.warnings.append(LoadWarning(record: scan.stationEntries, message: "skipped: expected a station object, found \(document.kind(at: station).typeDescription)"))
            } else {
                entry.passed = checker.check(station, number: scan.stationEntries, warnings: &scan.warnings, scratch: scratch)
                let idNode = stationIdSpec.map { scratch.found[$0] } ?? document.member(stationIdKey, of: station) ?? -1
                if idNode >= 0, document.kind(at: idNode) == .number, let id = Int(exactly: document.number(at: idNode)) {
                    entry.id = id
                    entry.hasIdentity = true
                }
            }
            entry.warningEnd = scan.warnings.count
            scan.entries.append(entry)
        }
    }

    /// The values of two keys of one object, in one walk over its members.
    private func members(_ first: JSONDocument.Key, _ second: JSONDocument.Key, of object: Int) -> (Int?, Int?) {
        guard case let .interned(firstWord) = first, case let .interned(secondWord) = second else {
            return (document.member(first, of: object), document.member(second, of: object))
        }
        var values: (Int?, Int?) = (nil, nil)
        var child = object + 2
        for _ in 0..<document.count(at: object) {
            let word = document.node(child)
            if word == firstWord, values.0 == nil { values.0 = child + 1 } else if word == secondWord, values.1 == nil { values.1 = child + 1 }
            child = document.end(of: child + 1)
        }
        return values
    }
}
