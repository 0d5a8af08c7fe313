import Foundation

/// What to load: a dataset name, where from, and which model reads it.
public struct LoadRequest: Sendable {
    public var name: String
    public var source: LoadSource
    public var model: any RecordModel.Type
    /// How much a load from http(s) may read.
    public var bounds: FetchBounds
    /// Whether a dataset of this name holds records now: a source with none in it does not
    /// replace them, whatever the model (a new generic dataset may be empty).
    public var replacesRecords = false
    /// `as FORMAT`, `at PATH`, `key FIELD`.
    public var options: LoadOptions

    public init(name: String, source: LoadSource, model: any RecordModel.Type, bounds: FetchBounds = FetchBounds(),
                options: LoadOptions = LoadOptions()) {
        self.name = name
        self.source = source
        self.model = model
        self.bounds = bounds
        self.options = options
    }
}

/// Turns a source into a `Dataset`: reads the bytes, parses them, lets the model find its records.
/// Runs on a background thread; reports progress and stops when cancelled.
public struct DatasetLoader: Sendable {
    public var http: HTTPFetcher

    public init(http: HTTPFetcher = HTTPFetcher()) { self.http = http }

    /// Loads of this many bytes or more return freed memory to the system when they end.
    static let trimAfter = 16 << 20

    public func load(_ request: LoadRequest, progress: LoadProgress, cancellation: Cancellation) throws(LoadFailure) -> Dataset {
        let start = Date()
        let parsed = try parseSource(request.source, options: request.options, bounds: request.bounds, progress: progress, cancellation: cancellation)
        var (document, bytes, sourceWarnings) = (parsed.document, parsed.bytes, parsed.warnings)
        if cancellation.isCancelled { throw .cancelled }
        let model = Self.model(for: request.model, shape: document)
        // A FeatureCollection's records are its Features' properties (`at features`: the Features).
        if model == GenericModel.self, request.options.recordsAt == nil,
           let records = try FeatureRecords.records(of: document, source: request.source.displayName, cancellation: cancellation) {
            document = records
        }
        var extraction: Extraction
        if let path = request.options.recordsAt {
            guard model != StationModel.self else {
                throw .shape(source: request.source.displayName, message: "'at \(path)' is for files of records; the stations file is read as it is")
            }
            extraction = try RecordExtraction.records(of: model, in: document, source: request.source.displayName, at: path, cancellation: cancellation)
        } else {
            extraction = try model.extract(from: document, source: request.source.displayName, cancellation: cancellation)
        }
        if let note = Self.emptyNote(parsed) { sourceWarnings.append(note) }
        extraction.warnings.insert(contentsOf: sourceWarnings, at: 0)
        // Models that find records their own way did not say which records repeated a key.
        if !document.repeatedKeys.isEmpty, !extraction.warnings.contains(where: { $0.message.hasSuffix(RepeatedKey.ending) }) {
            extraction.warnings.append(RepeatedKey.sourceWarning(document.repeatedKeys))
        }
        // Countries, species, stations… — or any records that are there now: a source with none
        // of them in it is not a new version of the dataset, whatever it holds.
        if model != GenericModel.self || request.replacesRecords, extraction.records.isEmpty {
            let why = extraction.warnings.first { $0.record != nil }.map { "every record was skipped (\($0))" } ?? "the list is empty"
            throw .shape(source: request.source.displayName, message: "no \(model.plural) in it: \(why)")
        }
        // A large load leaves tens of MB of freed temporaries (the parse's second half, the
        // extraction's scans) inside malloc's heaps.
        if bytes >= Self.trimAfter { FreedMemory.giveBack() }
        var origin = LoadOrigin(source: request.source.description, bytes: bytes, seconds: Date().timeIntervalSince(start))
        origin.recordsAt = extraction.recordsAt
        origin.format = parsed.csv.map { "\($0.dialect), \($0.columns.count) column\($0.columns.count == 1 ? "" : "s")" }
        origin.columns = parsed.csv?.columns ?? []
        let layout = try RecordKey.layout(of: model, document: document, records: extraction.records, key: request.options.key,
                                          columns: origin.columns, source: request.source.displayName)
        return Dataset(name: request.name, model: model, document: document, extraction: extraction, origin: origin, layout: layout)
    }

    /// An empty CSV or NDJSON text loads as no records, with this said: `the text is empty: no header, no rows`.
    static func emptyNote(_ parsed: ParsedSource) -> LoadWarning? {
        if let csv = parsed.csv, csv.columns.isEmpty { return LoadWarning(message: "the text is empty: no header, no rows") }
        guard parsed.document.isLines, parsed.document.roots.isEmpty else { return nil }
        return LoadWarning(message: "the text is empty: no lines, no records")
    }

    /// A new name means the generic model, unless the source is unmistakably a stations object,
    /// which only the stations model can read (an NDJSON line is a record, never that object).
    static func model(for requested: any RecordModel.Type, shape document: JSONDocument) -> any RecordModel.Type {
        guard requested == GenericModel.self, !document.isLines, document.roots.count == 1, let root = document.roots.first,
              document.kind(at: root) == .object,
              document.member("citiesFrom", of: root) != nil || document.member("citiesTo", of: root) != nil else { return requested }
        return StationModel.self
    }

    /// The parsed document, how many bytes it took, and warnings about the source as a whole.
    func parse(_ source: LoadSource, bounds: FetchBounds = FetchBounds(), progress: LoadProgress,
               cancellation: Cancellation) throws(LoadFailure) -> (JSONDocument, Int, [LoadWarning]) {
        let parsed = try parseSource(source, options: LoadOptions(), bounds: bounds, progress: progress, cancellation: cancellation)
        return (parsed.document, parsed.bytes, parsed.warnings)
    }

    /// A source parsed: its document, its size, warnings about it as a whole, and what a CSV
    /// or TSV parse found (its dialect, its columns).
    struct ParsedSource {
        var document: JSONDocument
        var bytes: Int
        var warnings: [LoadWarning] = []
        var csv: CSVParser.Summary?
    }

    func parseSource(_ source: LoadSource, options: LoadOptions, bounds: FetchBounds, progress: LoadProgress,
                     cancellation: Cancellation) throws(LoadFailure) -> ParsedSource {
        switch source {
        case let .file(path):
            let before = FileStamp(path: path)
            let format = options.format ?? LoadOptions.Format.byExtension(path) ?? LoadOptions.Format.byContent(ofFile: path)
            do throws(LoadFailure) {
                return try readFile(at: path, source: source, format: format, progress: progress, cancellation: cancellation, firstAttempt: true)
            } catch .cancelled {
                throw .cancelled
            } catch .retry {
                // The file changed while it was parsed, or the two halves did not fit together:
                // read it again, whole, and parse it on one thread before believing the error.
                do throws(LoadFailure) {
                    return try readFile(at: path, source: source, format: format, progress: progress, cancellation: cancellation, firstAttempt: false)
                } catch {
                    throw Self.changedWhileLoading(error, path: path, name: source.displayName, before: before)
                }
            }
        case let .url(url):
            switch try http.fetchSource(from: url, format: options.format, bounds: bounds, progress: progress, cancellation: cancellation) {
            case let .pages(document, bytes, warnings):
                return ParsedSource(document: document, bytes: bytes, warnings: warnings)
            case let .body(data, format):
                return try Self.parseBody(data, format: format, name: source.displayName, progress: progress, cancellation: cancellation)
            }
        }
    }

    /// A body read whole over http(s), in a format other than JSON's pages: the text is parsed
    /// as a file's would be (the document keeps copies of what it needs, not the body).
    static func parseBody(_ data: Data, format: LoadOptions.Format, name: String, progress: LoadProgress,
                          cancellation: Cancellation) throws(LoadFailure) -> ParsedSource {
        let parsed: Result<ParsedSource, LoadFailure> = data.withUnsafeBytes { raw in
            Result { () throws(LoadFailure) in
                let bytes = raw.bindMemory(to: UInt8.self)
                if format.isDelimited {
                    return try parseDelimited(bytes, name: name, tsv: format == .tsv, progress: progress, cancellation: cancellation,
                                              access: FileContents.Access(release: { _ in }, complete: { true }))
                }
                var builder = JSONDocumentBuilder(expectedBytes: bytes.count)
                try parseFile(bytes, name: name, path: "", into: &builder, progress: { _ throws(CancelledError) in try cancellation.checkpoint() },
                              asLines: format == .ndjson)
                return ParsedSource(document: builder.finish(), bytes: bytes.count)
            }
        }
        return try parsed.get()
    }

    /// A file in `format` (nil: a pipe or a device, read as JSON unless `as` says otherwise:
    /// its bytes are checked as they come, so /dev/zero stops at once).
    func readFile(at path: String, source: LoadSource, format: LoadOptions.Format?, progress: LoadProgress, cancellation: Cancellation,
                  firstAttempt: Bool) throws(LoadFailure) -> ParsedSource {
        let format = format ?? .json
        guard format.isDelimited else {
            let (document, bytes) = try parseFile(at: path, source: source, progress: progress, cancellation: cancellation,
                                                  firstAttempt: firstAttempt, lines: format == .ndjson)
            return ParsedSource(document: document, bytes: bytes)
        }
        return try FileContents.withBytes(of: path, name: source.displayName, progress: progress, cancellation: cancellation,
                                          lines: LineTracker(), mapped: firstAttempt, streamCheck: .none) { bytes, access throws(LoadFailure) in
            do throws(LoadFailure) {
                return try Self.parseDelimited(bytes, name: source.displayName, tsv: format == .tsv, progress: progress,
                                               cancellation: cancellation, access: access)
            } catch {
                if error != .cancelled, firstAttempt, !access.complete() { throw .retry }
                throw error
            }
        }
    }

    /// CSV or TSV: the dialect sniffed from the first 64 KiB, then one pass.
    static func parseDelimited(_ bytes: UnsafeBufferPointer<UInt8>, name: String, tsv: Bool, progress: LoadProgress, cancellation: Cancellation,
                               access: FileContents.Access) throws(LoadFailure) -> ParsedSource {
        let (document, summary) = try DelimitedText.document(of: bytes, source: name, tsv: tsv, progress: { consumed throws(CancelledError) in
            access.release(consumed)
            try cancellation.checkpoint()
        }, parsed: { progress.setBytes(done: $0) }, releasePart: access.releaseRange, pagesComeBack: access.pagesComeBack)
        progress.setBytes(done: bytes.count)
        return ParsedSource(document: document, bytes: bytes.count, csv: summary)
    }

    /// An error about a file that another program changed while it loaded says so: "the text
    /// is empty" at 1:1 of a file that had 22 MB when the load began misled.
    static func changedWhileLoading(_ failure: LoadFailure, path: String, name: String, before: FileStamp?) -> LoadFailure {
        guard failure != .cancelled, let before, let after = FileStamp(path: path), after != before else { return failure }
        if after.size == 0 {
            return .unreadable(path: name, reason: "was emptied while it loaded (it had \(before.size.grouped) bytes)")
        }
        var now = failure.description
        if now.hasPrefix(name + ":") { now = String(now.dropFirst(name.count + 1)) }
        let how = after.size == before.size ? "written over in place" : "\(before.size.grouped) bytes, now \(after.size.grouped)"
        return .unreadable(path: name, reason: "changed while it loaded (\(how)); as it is now, at \(now.drop { $0 == " " })")
    }

    /// `firstAttempt`: the file is mapped, and a large one parsed on two cores (with `split`,
    /// or a split of its own); otherwise it is read whole and parsed on one.
    /// `lines`: NDJSON whatever the extension says (`as ndjson`).
    func parseFile(at path: String, source: LoadSource, progress: LoadProgress, cancellation: Cancellation,
                   firstAttempt: Bool, split: JSONSplit? = nil, lines isLines: Bool = false) throws(LoadFailure) -> (JSONDocument, Int) {
        let lines = LineTracker()
        let split = firstAttempt && !isLines && !Self.isLines(path) ? split ?? JSONSplit() : nil
        let secondHalf: FileContents.SecondHalfWork? = split.map { split in
            { bytes, middle, release, shouldStop in
                split.parseRest(of: bytes, from: middle, source: source.displayName, release: release, shouldStop: shouldStop)
            }
        }
        return try FileContents.withBytes(of: path, name: source.displayName, progress: progress, cancellation: cancellation,
                                          lines: lines, mapped: firstAttempt, secondHalf: secondHalf) { bytes, access throws(LoadFailure) in
            var builder = JSONDocumentBuilder(expectedBytes: bytes.count)
            let report: JSONParser.Progress = { consumed throws(CancelledError) in
                progress.setBytes(done: consumed + (split?.bytesParsed ?? 0))
                access.release(consumed)
                try cancellation.checkpoint()
            }
            do throws(LoadFailure) {
                try Self.parseFile(bytes, name: source.displayName, path: path, into: &builder, progress: report, lines: lines, split: split,
                                   asLines: isLines)
            } catch {
                if error != .cancelled, firstAttempt, !access.complete() { throw .retry }
                throw error
            }
            progress.setBytes(done: bytes.count)
            return (builder.finish(), bytes.count)
        }
    }

    /// A file holds one JSON value, or one value per line (NDJSON: by extension, or when a
    /// second value follows the first on a new line).
    static func parseFile(
        _ bytes: UnsafeBufferPointer<UInt8>, name: String, path: String, into builder: inout JSONDocumentBuilder,
        progress: @escaping JSONParser.Progress, lines: LineTracker = LineTracker(), split: JSONSplit? = nil, asLines: Bool = false
    ) throws(LoadFailure) {
        if asLines || isLines(path) {
            _ = try JSONParser.parseLines(bytes, source: name, into: &builder, progress: progress, lines: lines)
            return
        }
        do throws(LoadFailure) {
            _ = try JSONParser.parse(bytes, source: name, into: &builder, progress: progress, lines: lines, split: split)
        } catch let failure {
            // A second value on a line of its own: NDJSON after all, when the bytes the first
            // pass gave back can be read again: a mapped file's come back from the file;
            // memory of our own had its lines counted first (and a large text read that way
            // is read as one value only).
            guard case let .json(error) = failure, case .trailingContent = error.reason, lines.offset == 0,
                  Self.startsNewLineValue(bytes, at: error.offset) else { throw failure }
            builder = JSONDocumentBuilder(expectedBytes: bytes.count)
            _ = try JSONParser.parseLines(bytes, source: name, into: &builder, progress: progress, lines: lines)
        }
    }

    /// NDJSON by its extension.
    static func isLines(_ path: String) -> Bool { LoadOptions.Format.byExtension(path) == .ndjson }

    /// Whether the text at `offset` begins an object on a line of its own (so the file is NDJSON).
    private static func startsNewLineValue(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "{") else { return false }
        var index = offset - 1
        while index >= 0, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0D { index -= 1 }
        return index >= 0 && bytes[index] == 0x0A
    }
}
