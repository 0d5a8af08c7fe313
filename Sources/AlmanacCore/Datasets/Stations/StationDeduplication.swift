/// Turns the station entries of the scans, in file order, into records: one per `stationId`,
/// the first entry that passed its checks; later entries with that id add their direction.
///
/// Finding an entry's first occurrence probes a table larger than the caches, a miss per
/// entry. With many entries that is done on two threads, each owning the ids of one half of
/// the hash space (so each id's entries are still met in order), and only the cheap pass that
/// numbers rows and gathers warnings stays in order on one thread.
struct StationDeduplication {
    var records: [Int] = []
    var directions: [Directions] = []
    var cityOfRow: [Int] = []
    var warnings: [LoadWarning] = []

    /// From this many entries the first occurrences are found on two threads.
    static let twoThreadsFrom = 1 << 16

    /// How many entries ahead a probe's slot is asked for: enough probes under way to hide
    /// the memory's latency.
    static let prefetchDistance = 40

    /// What the probe found for an entry: its id's first passing entry (an index over all
    /// scans), or one of these.
    private static let isFirst = -1
    private static let noRow = -2

    init(_ scans: [StationScanner.Scan], twoThreadsFrom: Int = Self.twoThreadsFrom) {
        let total = scans.reduce(0) { $0 + $1.entries.count }
        // Where each scan's entries start in the numbering over all of them.
        let starts = scans.indices.map { index in scans[..<index].reduce(0) { $0 + $1.entries.count } }
        let parts = total >= twoThreadsFrom ? 2 : 1
        // Written for each entry with an id, by the thread that owns it; read for those only.
        var firstEntry = [Int](unsafeUninitializedCapacity: total) { _, count in count = total }
        // Each part's table is sized for its share of the ids (it grows if the share is
        // larger: counting them first would be another pass over every entry). Allocated
        // here, not by the threads (memory a worker thread allocates stays with it after it
        // is freed), and emptied by them, each its own, at once.
        var tables = (0..<parts).map { _ in RowByIdTable(capacity: total / parts + total / 64, emptied: false) }
        firstEntry.withUnsafeMutableBufferPointer { firstEntry in
            tables.withUnsafeMutableBufferPointer { tables in
                onThreads(parts) { part in
                    tables[part].empty()
                    Self.findFirstEntries(scans, starts: starts, part: part, of: parts, using: &tables[part], into: firstEntry)
                }
            }
        }
        tables = []
        records.reserveCapacity(total)
        directions.reserveCapacity(total)
        cityOfRow.reserveCapacity(total)
        var rowOfEntry = [Int](repeating: 0, count: total)
        var entriesBefore = 0
        for (number, scan) in scans.enumerated() {
            var warningStart = 0
            for index in scan.entries.indices {
                let entry = scan.entries[index]
                let warningRange = warningStart..<entry.warningEnd
                warningStart = entry.warningEnd
                let first = entry.station >= 0 && entry.hasIdentity ? firstEntry[starts[number] + index] : Self.noRow
                // A later entry of a station that has a row; a skipped entry takes none (a
                // later valid one with its id may).
                if first >= 0 {
                    directions[rowOfEntry[first]].insert(entry.direction)
                    continue
                }
                for var warning in scan.warnings[warningRange] {
                    // Station warnings number entries from the start of the file; city ones count in their list.
                    if entry.station >= 0, let record = warning.record { warning.record = record + entriesBefore }
                    warnings.append(warning)
                }
                guard first == Self.isFirst else { continue }
                rowOfEntry[starts[number] + index] = records.count
                cityOfRow.append(entry.cityId)
                records.append(entry.station)
                directions.append(entry.direction)
            }
            entriesBefore += scan.stationEntries
        }
    }

    /// Which half of the ids `id` belongs to (bits the table's own hash does not use first).
    @inline(__always)
    private static func part(of id: Int, _ parts: Int) -> Int {
        parts == 1 ? 0 : Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(id)) &* 0xC2B2_AE3D_27D4_EB4F) >> 63)
    }

    /// For each entry with an id of `part`, in order: `isFirst` when it passed and its id has
    /// no passing entry before it, else that entry; `noRow` when it failed and has none.
    private static func findFirstEntries(_ scans: [StationScanner.Scan], starts: [Int], part: Int, of parts: Int,
                                         using firstById: inout RowByIdTable, into firstEntry: UnsafeMutableBufferPointer<Int>) {
        for (number, scan) in scans.enumerated() {
            scan.entries.withUnsafeBufferPointer { entries in
                for index in entries.indices {
                    if index + prefetchDistance < entries.count {
                        let ahead = entries[index + prefetchDistance]
                        if Self.part(of: ahead.id, parts) == part { firstById.prefetch(ahead.id) }
                    }
                    let entry = entries[index]
                    guard entry.station >= 0, entry.hasIdentity, Self.part(of: entry.id, parts) == part else { continue }
                    let global = starts[number] + index
                    if entry.passed {
                        firstEntry[global] = firstById.rowOrInsert(entry.id, row: global) ?? isFirst
                    } else {
                        firstEntry[global] = firstById.row(of: entry.id) ?? noRow
                    }
                }
            }
        }
    }
}
