/// A picture made of braille characters (U+2800–U+28FF): each character cell holds 2 × 4 dots,
/// so a terminal of 80 columns draws 160 dots across. Each cell also keeps the strongest
/// `Ink` drawn into it, which a colour terminal shows as its colour.
public struct BrailleCanvas: Sendable, Equatable {
    /// What a dot belongs to, weakest first: a cell shows the strongest ink it holds.
    public enum Ink: UInt8, Sendable, Comparable {
        case none = 0
        /// Country outlines around the results.
        case outline
        /// Shapes of the results (countries in the results, GeoJSON geometries).
        case shape
        /// A route between places.
        case route
        /// Records drawn as points.
        case point

        public static func < (lhs: Ink, rhs: Ink) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Size in character cells.
    public let columns: Int
    public let rows: Int
    /// Size in dots.
    public var width: Int { columns * 2 }
    public var height: Int { rows * 4 }

    private var dots: [UInt8]
    private var inks: [Ink]

    public init(columns: Int, rows: Int) {
        self.columns = max(1, columns)
        self.rows = max(1, rows)
        dots = [UInt8](repeating: 0, count: self.columns * self.rows)
        inks = [Ink](repeating: .none, count: self.columns * self.rows)
    }

    /// The canvas that holds `width` × `height` dots.
    public init(dotsWide width: Int, high height: Int) {
        self.init(columns: (width + 1) / 2, rows: (height + 3) / 4)
    }

    /// The bit of a dot in its cell's character: braille numbers its dots 1-2-3 down the left,
    /// 4-5-6 down the right, then 7 and 8 below them (bits 0x40 and 0x80).
    @inline(__always)
    static func bit(column: Int, row: Int) -> UInt8 {
        row < 3 ? UInt8(1) << UInt8(row + 3 * column) : UInt8(0x40) << UInt8(column)
    }

    /// Lights the dot at (`x`, `y`), counted from the top left; outside the canvas, nothing.
    @inline(__always)
    public mutating func set(x: Int, y: Int, ink: Ink) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let cell = (y >> 2) * columns + (x >> 1)
        dots[cell] |= Self.bit(column: x & 1, row: y & 3)
        if inks[cell] < ink { inks[cell] = ink }
    }

    public func isSet(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < width, y < height else { return false }
        return dots[(y >> 2) * columns + (x >> 1)] & Self.bit(column: x & 1, row: y & 3) != 0
    }

    /// The character of a cell: a space when no dot is lit, else U+2800 plus its dots' bits.
    public func character(column: Int, row: Int) -> Character {
        let bits = dots[row * columns + column]
        return bits == 0 ? " " : Character(Unicode.Scalar(0x2800 + UInt32(bits))!)
    }

    public func ink(column: Int, row: Int) -> Ink { inks[row * columns + column] }

    /// A straight line between two points in dot coordinates, clipped to the canvas first
    /// (Liang–Barsky), so an outline far outside a small frame costs nothing to skip. A `wide`
    /// line is two dots thick, so it stands out from outlines without colour.
    public mutating func line(from start: (x: Double, y: Double), to end: (x: Double, y: Double), ink: Ink, wide: Bool = false) {
        guard let (a, b) = clip(start, end) else { return }
        var x0 = Int(a.x.rounded(.down))
        var y0 = Int(a.y.rounded(.down))
        let x1 = Int(b.x.rounded(.down))
        let y1 = Int(b.y.rounded(.down))
        let dx = abs(x1 - x0)
        let dy = -abs(y1 - y0)
        let stepX = x0 < x1 ? 1 : -1
        let stepY = y0 < y1 ? 1 : -1
        var error = dx + dy
        while true {
            set(x: x0, y: y0, ink: ink)
            if wide {
                set(x: x0 + 1, y: y0, ink: ink)
                set(x: x0, y: y0 + 1, ink: ink)
                set(x: x0 + 1, y: y0 + 1, ink: ink)
            }
            if x0 == x1 && y0 == y1 { break }
            let doubled = 2 * error
            if doubled >= dy { error += dy; x0 += stepX }
            if doubled <= dx { error += dx; y0 += stepY }
        }
    }

    /// The part of a segment inside the canvas, or nil.
    func clip(_ start: (x: Double, y: Double), _ end: (x: Double, y: Double)) -> ((x: Double, y: Double), (x: Double, y: Double))? {
        guard start.x.isFinite, start.y.isFinite, end.x.isFinite, end.y.isFinite else { return nil }
        let maxX = Double(width) - 1e-9
        let maxY = Double(height) - 1e-9
        let dx = end.x - start.x
        let dy = end.y - start.y
        var low = 0.0
        var high = 1.0
        for (p, q) in [(-dx, start.x), (dx, maxX - start.x), (-dy, start.y), (dy, maxY - start.y)] {
            if p == 0 {
                if q < 0 { return nil }
            } else {
                let t = q / p
                if p < 0 { low = max(low, t) } else { high = min(high, t) }
                if low > high { return nil }
            }
        }
        return ((start.x + low * dx, start.y + low * dy), (start.x + high * dx, start.y + high * dy))
    }

    /// A square of `size` × `size` dots centred on (`x`, `y`): a marker that reads without colour.
    public mutating func mark(x: Int, y: Int, size: Int, ink: Ink) {
        let low = -(size - 1) / 2
        for dy in low..<(low + size) {
            for dx in low..<(low + size) { set(x: x + dx, y: y + dy, ink: ink) }
        }
    }

    /// Lights every dot whose centre lies inside the polygon (rings in dot coordinates, holes
    /// by the even–odd rule) and on the lattice of `every` dots across and down.
    public mutating func fill(_ rings: [[(x: Double, y: Double)]], every spacing: Int, ink: Ink) {
        var top = Double.infinity
        var bottom = -Double.infinity
        for ring in rings {
            for point in ring {
                top = min(top, point.y)
                bottom = max(bottom, point.y)
            }
        }
        guard top.isFinite, bottom.isFinite else { return }
        let firstRow = max(0, Int(top.rounded(.down)))
        let lastRow = min(height - 1, Int(bottom.rounded(.up)))
        guard firstRow <= lastRow else { return }
        var crossings: [Double] = []
        for y in firstRow...lastRow where y % spacing == 0 {
            let centre = Double(y) + 0.5
            crossings.removeAll(keepingCapacity: true)
            for ring in rings where ring.count > 1 {
                var previous = ring[ring.count - 1]
                for point in ring {
                    if (point.y <= centre) != (previous.y <= centre) {
                        crossings.append(previous.x + (centre - previous.y) / (point.y - previous.y) * (point.x - previous.x))
                    }
                    previous = point
                }
            }
            crossings.sort()
            var index = 0
            while index + 1 < crossings.count {
                let from = max(0, Int((crossings[index] - 0.5).rounded(.up)))
                let to = min(width - 1, Int((crossings[index + 1] - 0.5).rounded(.down)))
                if from <= to {
                    for x in from...to where x % spacing == 0 { set(x: x, y: y, ink: ink) }
                }
                index += 2
            }
        }
    }

    /// The picture as lines of text, trailing spaces removed.
    public var lines: [String] {
        (0..<rows).map { row in
            var line = String((0..<columns).map { character(column: $0, row: row) })
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// One row as runs of cells of the same ink, for colouring (empty cells carry `.none`).
    public func runs(row: Int) -> [(text: String, ink: Ink)] {
        var runs: [(text: String, ink: Ink)] = []
        for column in 0..<columns {
            let character = character(column: column, row: row)
            let ink = character == " " ? .none : ink(column: column, row: row)
            if let last = runs.last, last.ink == ink {
                runs[runs.count - 1].text.append(character)
            } else {
                runs.append((String(character), ink))
            }
        }
        if let last = runs.last, last.ink == .none {
            runs[runs.count - 1].text = String(last.text.reversed().drop(while: { $0 == " " }).reversed())
            if runs[runs.count - 1].text.isEmpty { runs.removeLast() }
        }
        return runs
    }
}
