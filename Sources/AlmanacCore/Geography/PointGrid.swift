#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The points of a dataset in cells of one degree by one degree, each cell's points side by
/// side: a radius query reads only the cells its circle touches, a box query those its box
/// does. Rows without usable coordinates are left out (and counted).
public struct PointGrid: Sendable {
    static let cellsAcross = 360
    static let cellsDown = 180

    /// Per cell (row-major from 90°S, 180°W): where its points start in the arrays below.
    private let cellStarts: [Int32]
    /// The points, cell by cell: dataset row, latitude, longitude.
    public let rows: [Int32]
    public let latitudes: [Double]
    public let longitudes: [Double]
    /// Rows without coordinates, and those with coordinates out of range or unreadable.
    public let withoutCoordinates: Int
    public let invalid: Int

    /// Indexes `points` (nil: the row has none; an invalid point counts as such).
    public init(points: [GeoPoint?]) {
        var counts = [Int32](repeating: 0, count: Self.cellsAcross * Self.cellsDown + 1)
        var cellOfRow = [Int32](repeating: -1, count: points.count)
        var without = 0
        var invalid = 0
        for (row, point) in points.enumerated() {
            guard let point else { without += 1; continue }
            guard point.isValid else { invalid += 1; continue }
            let cell = Self.cell(point.latitude, point.longitude)
            cellOfRow[row] = Int32(cell)
            counts[cell + 1] += 1
        }
        for index in 1..<counts.count { counts[index] += counts[index - 1] }
        var next = counts
        let total = Int(counts[counts.count - 1])
        var rows = [Int32](repeating: 0, count: total)
        var latitudes = [Double](repeating: 0, count: total)
        var longitudes = [Double](repeating: 0, count: total)
        for (row, cell) in cellOfRow.enumerated() where cell >= 0 {
            let slot = Int(next[Int(cell)])
            next[Int(cell)] += 1
            rows[slot] = Int32(row)
            latitudes[slot] = points[row]!.latitude
            longitudes[slot] = points[row]!.longitude
        }
        cellStarts = counts
        self.rows = rows
        self.latitudes = latitudes
        self.longitudes = longitudes
        withoutCoordinates = without + invalid
        self.invalid = invalid
    }

    /// The grid of a dataset's points (`GeoLocator`: lat/lon fields, a `latlng` pair, a GeoJSON
    /// point), built once per dataset.
    public static func of(_ dataset: Dataset, cancellation: Cancellation = .never) throws(CancelledError) -> PointGrid {
        try dataset.cached(CacheKey<PointGrid>("point-grid"), cancellation: cancellation) { cancellation in
            let locator = GeoLocator(dataset: dataset)
            var points = [GeoPoint?](repeating: nil, count: dataset.count)
            for row in 0..<dataset.count {
                if row & 0xFFFF == 0, cancellation.isCancelled { return nil }
                switch locator.locate(row: row) {
                case let .point(point): points[row] = point
                case .invalid: points[row] = GeoPoint(latitude: .nan, longitude: .nan)
                case .none, .shapes: break
                }
            }
            return PointGrid(points: points)
        }
    }

    /// How many points are indexed.
    public var count: Int { rows.count }

    @inline(__always)
    static func cell(_ latitude: Double, _ longitude: Double) -> Int {
        let y = min(cellsDown - 1, max(0, Int((latitude + 90).rounded(.down))))
        let x = min(cellsAcross - 1, max(0, Int((longitude + 180).rounded(.down))))
        return y * cellsAcross + x
    }

    /// The points within `kilometres` of `centre`: dataset row and distance, in no particular order.
    public func within(_ kilometres: Double, of centre: GeoPoint, cancellation: Cancellation = .never)
        throws(CancelledError) -> [(row: Int, kilometres: Double)] {
        guard kilometres >= 0, centre.isValid, count > 0 else { return [] }
        let limit = Haversine.halfChord(forKilometres: kilometres)
        // The band of latitudes the circle spans, and of longitudes at its widest.
        let degrees = kilometres / (Haversine.earthRadius * Haversine.radians)
        let south = centre.latitude - degrees
        let north = centre.latitude + degrees
        var columns: [Int] = []
        let widest = max(abs(south), abs(north))
        if south <= -90 || north >= 90 || widest >= 89.9 {
            columns = Array(0..<Self.cellsAcross)
        } else {
            let spread = degrees / cos(widest * Haversine.radians)
            if spread >= 180 {
                columns = Array(0..<Self.cellsAcross)
            } else {
                let west = Int((centre.longitude - spread + 180).rounded(.down))
                let east = Int((centre.longitude + spread + 180).rounded(.down))
                var seen = Set<Int>()
                for column in west...east {
                    let wrapped = ((column % Self.cellsAcross) + Self.cellsAcross) % Self.cellsAcross
                    if seen.insert(wrapped).inserted { columns.append(wrapped) }
                }
            }
        }
        let firstRow = max(0, Int((south + 90).rounded(.down)))
        let lastRow = min(Self.cellsDown - 1, Int((north + 90).rounded(.down)))
        var found: [(row: Int, kilometres: Double)] = []
        let radians = Haversine.radians
        let cosine = cos(centre.latitude * radians)
        try latitudes.withUnsafeBufferPointer { latitudes throws(CancelledError) in
            try longitudes.withUnsafeBufferPointer { longitudes throws(CancelledError) in
                guard firstRow <= lastRow else { return }
                for y in firstRow...lastRow {
                    try cancellation.checkpoint()
                    for x in columns {
                        let cell = y * Self.cellsAcross + x
                        let start = Int(cellStarts[cell])
                        let end = Int(cellStarts[cell + 1])
                        guard start < end else { continue }
                        for slot in start..<end {
                            let latitude = latitudes[slot]
                            let sinLat = sin((latitude - centre.latitude) * radians / 2)
                            let sinLon = sin((longitudes[slot] - centre.longitude) * radians / 2)
                            let a = sinLat * sinLat + cosine * cos(latitude * radians) * sinLon * sinLon
                            if a <= limit { found.append((Int(rows[slot]), Haversine.kilometres(fromHalfChord: a))) }
                        }
                    }
                }
            }
        }
        return found
    }

    /// The slots (positions in `rows`, `latitudes`, `longitudes`) of the points in the cells a
    /// box touches, cell range by cell range.
    public func slots(touching box: GeoBox, _ body: (Range<Int>) throws -> Void) rethrows {
        guard !box.isEmpty else { return }
        let firstRow = max(0, Int((box.south + 90).rounded(.down)))
        let lastRow = min(Self.cellsDown - 1, Int((box.north + 90).rounded(.down)))
        let firstColumn = max(0, Int((box.west + 180).rounded(.down)))
        let lastColumn = min(Self.cellsAcross - 1, Int((box.east + 180).rounded(.down)))
        guard firstRow <= lastRow, firstColumn <= lastColumn else { return }
        for y in firstRow...lastRow {
            // A row's cells are consecutive: one range per row of cells.
            let start = Int(cellStarts[y * Self.cellsAcross + firstColumn])
            let end = Int(cellStarts[y * Self.cellsAcross + lastColumn + 1])
            if start < end { try body(start..<end) }
        }
    }
}
