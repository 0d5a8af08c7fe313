import Foundation

/// How much one load from http(s) may read: pages and bytes. Far above what real APIs need
/// (SWAPI's largest list is 9 pages), low enough that an endless `next` chain or body ends.
public struct FetchBounds: Sendable, Equatable {
    public static let defaultPages = 1_000
    public static let defaultBytes = 1 << 30

    public var maximumPages: Int
    public var maximumBytes: Int

    public init(maximumPages: Int = defaultPages, maximumBytes: Int = defaultBytes) {
        self.maximumPages = maximumPages
        self.maximumBytes = maximumBytes
    }
}

/// Fetches JSON over http(s), following API pages (`next`) until there are none; or one
/// CSV, TSV or NDJSON body (`fetchSource`).
///
/// Bounded everywhere a server could make it hang or grow: an idle timeout and a whole-response
/// deadline per request (a server that trickles bytes is cut off), retries with backoff only for
/// connection errors and 5xx, at most `FetchBounds` pages (the load keeps what they held, with a
/// warning) and bytes in all, at most 5 redirects and only to http(s), and a `next` that comes
/// back to a visited page is an error.
///
/// The GET itself goes through a `HTTPTransport`: libcurl, in this process (tests,
/// `almanac-fetch`) or in the `almanac-fetch` helper process, which keeps libcurl and its
/// dozens of libraries out of the shell's start-up.
public struct HTTPFetcher: Sendable {
    public var idleTimeout: TimeInterval = 15
    public var responseDeadline: TimeInterval = 60
    public var maximumTries = 3
    public var firstBackoff: TimeInterval = 0.25
    public static let maximumRedirects = 5
    public var transport: any HTTPTransport

    public init(transport: any HTTPTransport = FetchProcessTransport()) { self.transport = transport }

    /// What one load from a URL read: JSON pages in one document (with the bytes read and
    /// warnings), or a whole body in another format (CSV, TSV, NDJSON), for the loader to parse.
    enum Fetched {
        case pages(JSONDocument, Int, [LoadWarning])
        case body(Data, LoadOptions.Format)
    }

    /// The first page decides the format: `as FORMAT`, else a Content-Type that names one,
    /// else the URL's extension, else the body's first bytes (as a file's are read). Only
    /// JSON has pages.
    func fetchSource(from start: URL, format asked: LoadOptions.Format? = nil, bounds: FetchBounds = FetchBounds(),
                     progress: LoadProgress, cancellation: Cancellation) throws(LoadFailure) -> Fetched {
        let (data, contentType) = try fetchWithType(start, bounds: bounds, cancellation: cancellation)
        let format = asked ?? contentType.flatMap(LoadOptions.Format.byContentType) ?? LoadOptions.Format.byExtension(start.path)
            ?? data.withUnsafeBytes { LoadOptions.Format.byContent($0.bindMemory(to: UInt8.self)) }
        guard format == .json else {
            progress.setBytes(done: data.count)
            return .body(data, format)
        }
        let (document, bytes, warnings) = try fetchPages(from: start, firstPage: data, bounds: bounds, progress: progress,
                                                         cancellation: cancellation)
        return .pages(document, bytes, warnings)
    }

    /// The pages' records in one document, the bytes read, and what the pages said that the
    /// person should know (the page bound reached, a `count` the pages contradict).
    /// `firstPage`: the body of `start`, when it was read already.
    func fetchPages(from start: URL, firstPage: Data? = nil, bounds: FetchBounds = FetchBounds(), progress: LoadProgress,
                    cancellation: Cancellation) throws(LoadFailure) -> (JSONDocument, Int, [LoadWarning]) {
        var builder = JSONDocumentBuilder()
        var visited = Set<String>()
        var next: URL? = start
        var pages = 0
        var totalBytes = 0
        var records = 0
        var declared: Int?
        var warnings: [LoadWarning] = []
        while let url = next {
            let shown = Redaction.redacted(url.absoluteString)
            guard visited.insert(url.absoluteString).inserted else {
                throw .network(source: shown, message: "the 'next' link of page \(pages) leads back to a page already read (a loop)")
            }
            guard pages < bounds.maximumPages else {
                warnings.append(LoadWarning(message: "stopped after \(pages.grouped) pages, the limit for one load "
                    + "('set maxpages' raises it): the source has more, \(shown) was not read"))
                declared = nil
                break
            }
            pages += 1
            let data: Data
            if pages == 1, let firstPage {
                data = firstPage
            } else {
                data = try fetch(url, page: pages, readBefore: totalBytes, bounds: bounds, cancellation: cancellation)
            }
            totalBytes += data.count
            progress.setBytes(done: totalBytes)
            let parsed: Result<Int, LoadFailure> = data.withUnsafeBytes { raw in
                Result { () throws(LoadFailure) in try JSONParser.parse(raw.bindMemory(to: UInt8.self), source: shown, into: &builder) }
            }
            let root = try parsed.get()
            let document = builder
            next = nil
            guard document.kind(at: root) == .object, let results = document.member("results", of: root) else { break }
            guard document.kind(at: results) == .array else {
                // A page of an API like SWAPI whose list is not a list: say so, not what the
                // page looked like as a whole.
                throw .shape(source: shown, message: "page \(pages): 'results' should be a list of records; found \(document.kind(at: results).typeDescription)")
            }
            records += document.count(at: results)
            let total = document.member("count", of: root).flatMap { document.kind(at: $0) == .number ? Int(exactly: document.number(at: $0)) : nil }
            declared = total ?? declared
            progress.setRecords(done: records, total: max(total ?? records, records))
            if let link = document.member("next", of: root), document.kind(at: link) == .string {
                let text = document.string(at: link)
                guard let target = URL(string: text, relativeTo: url)?.absoluteURL,
                      ["http", "https"].contains(target.scheme?.lowercased() ?? "") else {
                    throw .network(source: shown, message: "the 'next' link '\(Redaction.redacted(text))' is not an http(s) URL")
                }
                next = target
            }
            if cancellation.isCancelled { throw .cancelled }
        }
        if let declared, declared != records, pages > 1 || declared > records {
            warnings.append(LoadWarning(message: "the source declares \(declared.grouped) records ('count'), "
                + "but its \(pages.grouped) page\(pages == 1 ? "" : "s") held \(records.grouped)"))
        }
        return (builder.finish(), totalBytes, warnings)
    }

    /// One GET with retries for connection errors and 5xx. `readBefore`: bytes the earlier
    /// pages took, which this one may not take again.
    func fetch(_ url: URL, page: Int = 1, readBefore: Int = 0, bounds: FetchBounds = FetchBounds(),
               cancellation: Cancellation) throws(LoadFailure) -> Data {
        try fetchWithType(url, page: page, readBefore: readBefore, bounds: bounds, cancellation: cancellation).data
    }

    /// `fetch`, with the response's Content-Type.
    func fetchWithType(_ url: URL, page: Int = 1, readBefore: Int = 0, bounds: FetchBounds = FetchBounds(),
                       cancellation: Cancellation) throws(LoadFailure) -> (data: Data, contentType: String?) {
        let shown = Redaction.redacted(url.absoluteString)
        var delay = firstBackoff
        for attempt in 1...maximumTries {
            // Never more than the machine can hold, whatever `set maxbytes` allows (up to 1024G).
            let allowed = min(max(0, bounds.maximumBytes - readBefore), FileContents.maximumBytes)
            let limits = HTTPLimits(idleTimeout: idleTimeout, responseDeadline: responseDeadline,
                                    maximumBytes: allowed, maximumRedirects: Self.maximumRedirects)
            let outcome = try transport.get(url, limits: limits, cancellation: cancellation)
            let retryable: String
            switch outcome {
            case let .response(status, data, contentType) where (200..<300).contains(status):
                return (data, contentType)
            case let .response(status, _, _) where status >= 500:
                retryable = "HTTP \(status) for \(shown)"
            case let .response(status, _, _):
                throw .network(source: shown, message: "HTTP \(status) for \(shown)")
            case let .refused(message):
                throw .network(source: shown, message: message)
            case let .tooLarge(declared) where bounds.maximumBytes - readBefore > FileContents.maximumBytes:
                let said = declared.map { "it declares \($0.grouped) bytes, " } ?? ""
                throw .network(source: shown, message: "the response is larger than this machine can hold (\(said)over "
                    + "\(FileContents.limitText), half its memory; set maxbytes allows \(ByteSize.text(bounds.maximumBytes)))")
            case let .tooLarge(declared):
                let limit = ByteSize.text(bounds.maximumBytes)
                let said = declared.map { " (it declares \($0.grouped) bytes)" } ?? ""
                throw .network(source: shown, message: page == 1 && readBefore == 0
                    ? "the response is larger than the \(limit) limit\(said)"
                    : "the pages add up to more than the \(limit) limit for one load: page \(page) went past it")
            case let .transport(message):
                retryable = message
            }
            guard attempt < maximumTries else {
                throw .network(source: shown, message: "\(retryable) (gave up after \(maximumTries) tries)")
            }
            let wakeUp = Date().addingTimeInterval(delay)
            while Date() < wakeUp {
                if cancellation.isCancelled { throw .cancelled }
                Thread.sleep(forTimeInterval: 0.02)
            }
            delay *= 2
        }
        throw .network(source: shown, message: "no response")
    }
}
