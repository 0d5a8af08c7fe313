import AlmanacCore

/// `map [world] [--size COLUMNSxROWS]` draws the current results in braille over the country
/// outlines; under `--format json` it prints them as a GeoJSON FeatureCollection instead.
public enum MapCommand: Command {
    static let world = Parameter.flag("world")
    static let size = Parameter("COLUMNSxROWS", .text(.nothing), .optional, after: "--size")

    public static let spec = CommandSpec(
        name: "map",
        summary: "Draw the results on a map of braille dots (GeoJSON under --format json)",
        parameters: [world, size],
        examples: ["map", "map world", "map --size 60x20", "filter region = Europe; map", "filter cityTitle ~ Москва; map"],
        discussion: """
        Stations and other records with coordinates are points; countries in the results are \
        their outlines, lightly filled (a country without an outline is the point of its latlng). \
        The map frames the results with a margin; 'map world' shows the whole world. Coordinates \
        come from fields named lat/latitude and lon/lng/longitude, a [lat, lon] list named \
        latlng, or a GeoJSON geometry. Outlines: Natural Earth 1:110m (world.geojson in the data \
        folder). The projection is equirectangular; colour marks points on a colour terminal. \
        Under --format json the results are one GeoJSON FeatureCollection ([longitude, latitude]; \
        properties are the records), as 'export FILE.geojson' writes.

          stations> map --size 64x16
                  ⢸ ⢀⡕ ⢪⠌⢇⣤⣤⢎⠁        ⠄⡄⢄   ⠆⠐ ⠂                         ⢀
              ⡞⣳  ⠈⢲⢽⣄⣀⠏⢠⣼⣗⣿⣷⠃⣣⣣⣶⣄⣀⣠⠃⣶⣷⢾⣿⣶⡤⠔     ⠐⣤⣄⣀⣳⡀                ⢀⠔⠁
            ⢠⠺⣿⡎⢢⡀⡠⡼⠿⠞⡕⢒⠾⢻⣿⠣⣻⣿⣿⣿⢿⣷⣿⣿⣿⡿⣹⢺⣿⣿⠛⠒⢻⠲⠴⢦⣤⣴⣽⡧⠻⣍          ⢀⡠⣀   ⠚⠧⢄⣦
            ⠈⠊⡽⢦⣼⡷⣿⣿⣛⢽⡿⢧⣎⣸⣯⣷⢿⡋⣻⣾⣧⢿⢙⣻⠟⠚⠺⠟⠽⠏   ⢀  ⠻⠟⢿⡃⡠⠬⣇⡰⠓⢆⠤⢄ ⣀⣄⣀⡜ ⠈⢇⡀   ⢸⡿
              ⠘⢭ ⠁⢠⣽⣵⢾⣋⡟⣟⠟⠓⢻⣞⣖⢐⣻⣿⣯⡛⢷⣠⣀           ⣠⠴⠉⢲      ⠈⠉ ⠘⣒⡆   ⠘⢒⡆⢠⠃⣯
            ⢀⢄⣀⣀⣇⢄⣁⡿⣭⠿⣻⣟⣏⣲⠴⣬⠋⠘⠞⠻⢟⣻⡒⢪⠰⣋⢰⠋⠳⡤⢄  ⣀⣀⣀⣾⠁  ⠈⠒⢤     ⢀⠖⠉     ⣰⣿⡷⠃⢀⢷
            ⢘⢷⠖⠄⢫⠛ ⢨⡇⠓⢞⣮⣿⢿⡶⡿⠦⠊⠉⠢⠤⢻⣿⢞⣦⢹⠟⠊⠙⡆⠈⢳⣾⡫⡤⠔⠋      ⠉⠉⠑⠊⠉⠁   ⡠⣄⣤⣚⠏⠈  ⡗⡍
            ⠘⣾⣄⣠⢏⣀⣀⢌⢥⠰⣾⠁⠘⣼⠆⢇⣀⡀⣀⣀⡠⡤⣏⠙⢧⣈⡗⠢⢄⠈⡵⠿⠴⣯⣦                ⠙⢟⡅⢺⡟⡄  ⡴⢳⠁
            ⢀⣠⠓⠱⡉  ⢸⢸⡀   ⠐⠛⠂⠁⠘⢻⢇⡰⠃⢸⡀    ⢸⠊⠁ ⣴⠣⡪⠛⡄               ⢫  ⠗⣣⣯⣯⠒⠚
          4,037 stations drawn, none without coordinates · latitude 36.72°N to 61.25°N · longitude 9.15°W to 136.62°E
          equirectangular projection (standard parallel 49°N), one column ≈ 2.5° of longitude
        """
    )

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        let parsed = try arguments.parse()
        let world = parsed.has(Self.world)
        let size = parsed[Self.size].first
        let results = try session.currentResults()
        let (outlines, outlineProblem) = outlines(in: session)
        let output = session.output
        let document = geoJSON(results, outlines: outlines, cancellation: session.cancellation)
        if session.settings.format.isMachineReadable { return CommandResult(try points(results, in: session)).with(document: document) }
        let (columns, rows) = try pointed(at: size.map { [$0.word] } ?? []) { try MapText.size(size?.text, terminal: output.terminal) }
        let picture = try MapPicture(results: results, outlines: outlines, world: world, columns: columns, rows: rows,
                                     cancellation: session.cancellation)
        guard picture.drawn > 0 || world else { throw noCoordinates(results) }
        let width = MapText.legendWidth(output.terminal)
        let lines = MapText.lines(picture.canvas, color: session.usesColor)
            + legend(picture, results: results, outlineProblem: outlineProblem, width: width)
        return CommandResult(try points(results, in: session), prose: .lines(lines)).with(document: document)
    }

    /// GeoJSON is a document of its own, not rows: one FeatureCollection, or one Feature a line.
    static func geoJSON(_ results: ResultSet, outlines: WorldOutlines?, cancellation: Cancellation) -> ResultDocument {
        ResultDocument(
            whole: { (try? GeoJSONWriter.featureCollection(results, outlines: outlines, cancellation: cancellation)) ?? "" },
            lines: {
                let locators = results.datasets.map { GeoLocator(dataset: $0, outlines: outlines) }
                return results.items.map { item in
                    var writer = JSONWriter()
                    GeoJSONWriter.feature(row: item.row, locator: locators[item.dataset], into: &writer,
                                          computed: GeoJSONWriter.computedMembers(results, item))
                    return String(decoding: writer.bytes, as: UTF8.self)
                }
            })
    }

    /// Runs `body`; its error points at `words` of the line.
    static func pointed<T>(at words: [Word], _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ShellError {
            throw error.pointing(at: words)
        }
    }

    /// The bundled outlines, or why there are none (the map is drawn without them).
    static func outlines(in session: Session) -> (WorldOutlines?, String?) {
        let path = session.environment.dataDirectory + "/world.geojson"
        do {
            return (try WorldOutlines.shared(path: path), nil)
        } catch {
            return (nil, "no country outlines: \(SafeText.escape(error.description))")
        }
    }

    /// `4,037 stations drawn, none without coordinates · latitude … · longitude …` and the
    /// projection, flowed within `width`.
    static func legend(_ picture: MapPicture, results: ResultSet, outlineProblem: String?, width: Int?) -> [String] {
        let noun = HistogramCommand.recordsNoun(results)
        var drawn = "\(picture.drawn.grouped) \(picture.drawn == 1 ? noun.singular : noun.plural) drawn, "
            + (picture.withoutCoordinates == 0 ? "none" : picture.withoutCoordinates.grouped) + " without coordinates"
        if picture.invalid > 0 { drawn += " (\(picture.invalid.grouped) out of range or unreadable)" }
        return MapText.flow([drawn] + picture.extentParts, separator: " · ", width: width)
            + MapText.flow(picture.projectionParts, separator: ", ", width: width)
            + (outlineProblem.map { [$0] } ?? [])
    }

    static func noCoordinates(_ results: ResultSet) -> ShellError {
        let noun = HistogramCommand.recordsNoun(results)
        return .invalid("none of these \(results.count.grouped) \(results.count == 1 ? noun.singular : noun.plural) has coordinates — "
            + "map reads fields named lat/latitude and lon/lng/longitude, a [lat, lon] list named latlng, or a GeoJSON geometry")
    }

    /// For programs other than GeoJSON's: each record's name and point (absent when it has none).
    static func points(_ results: ResultSet, in session: Session) throws -> ResultTable {
        let locators = results.datasets.map { GeoLocator(dataset: $0) }
        return ResultTable(columns: [ResultColumn("name"), ResultColumn("latitude", .decimal), ResultColumn("longitude", .decimal)],
                           count: results.count) { position in
            let item = results.items[position]
            guard case let .point(point) = locators[item.dataset].locate(row: item.row) else {
                return [.text(results.dataset(of: item).name(of: item.row)), .absent, .absent]
            }
            return [.text(results.dataset(of: item).name(of: item.row)), .decimal(point.latitude), .decimal(point.longitude)]
        }
    }
}
