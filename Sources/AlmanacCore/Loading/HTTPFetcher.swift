import Foundation

/// Fetches JSON over http(s), following API pages (`next`) until there are none.
///
/// Bounded everywhere a server could make it hang or grow: an idle timeout and a whole-response
/// deadline per request (a server that trickles bytes is cut off), retries with backoff only for
/// connection errors and 5xx, at most `maximumPages` pages and `maximumBytes` bytes, at most 5
/// redirects and only to http(s), and a `next` that comes back to a visited page is an error.
///
/// The GET itself goes through a `HTTPTransport`: URLSession, in this process (tests,
/// `almanac-fetch`) or in the `almanac-fetch` helper process, which keeps libcurl and its
/// dozens of libraries out of the shell's start-up.
public struct HTTPFetcher: Sendable {
    public var idleTimeout: TimeInterval = 15
    public var responseDeadline: TimeInterval = 60
    public var maximumTries = 3
    public var firstBackoff: TimeInterval = 0.25
    public var maximumPages = 10_000
    public var maximumBytes = 1 << 30
    public static let maximumRedirects = 5
    public var transport: any HTTPTransport

    public init(transport: any HTTPTransport = FetchProcessTransport()) { self.transport = transport }

    func fetchPages(from start: URL, progress: LoadProgress, cancellation: Cancellation) throws(LoadFailure) -> (JSONDocument, Int) {
        var builder = JSONDocumentBuilder()
        var visited = Set<String>()
        var next: URL? = start
        var pages = 0
        var totalBytes = 0
        var records = 0
        while let url = next {
            let shown = Redaction.redacted(url.absoluteString)
            guard visited.insert(url.absoluteString).inserted else {
                throw .network(source: shown, message: "the 'next' link of page \(pages) leads back to a page already read (a loop)")
            }
            pages += 1
            guard pages <= maximumPages else {
                throw .network(source: shown, message: "more than \(maximumPages) pages (the limit)")
            }
            let data = try fetch(url, remainingBytes: maximumBytes - totalBytes, cancellation: cancellation)
            totalBytes += data.count
            progress.setBytes(done: totalBytes)
            let parsed: Result<Int, LoadFailure> = data.withUnsafeBytes { raw in
                Result { () throws(LoadFailure) in try JSONParser.parse(raw.bindMemory(to: UInt8.self), source: shown, into: &builder) }
            }
            let root = try parsed.get()
            let document = builder
            next = nil
            guard document.kind(at: root) == .object, let results = document.member("results", of: root),
                  document.kind(at: results) == .array else { break }
            records += document.count(at: results)
            let total = document.member("count", of: root).flatMap { document.kind(at: $0) == .number ? Int(exactly: document.number(at: $0)) : nil }
            progress.setRecords(done: records, total: total ?? records)
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
        return (builder.finish(), totalBytes)
    }

    /// One GET with retries for connection errors and 5xx.
    func fetch(_ url: URL, remainingBytes: Int, cancellation: Cancellation) throws(LoadFailure) -> Data {
        let shown = Redaction.redacted(url.absoluteString)
        var delay = firstBackoff
        for attempt in 1...maximumTries {
            let limits = HTTPLimits(idleTimeout: idleTimeout, responseDeadline: responseDeadline,
                                    maximumBytes: remainingBytes, maximumRedirects: Self.maximumRedirects)
            let outcome = try transport.get(url, limits: limits, cancellation: cancellation)
            let retryable: String
            switch outcome {
            case let .response(status, data) where (200..<300).contains(status):
                return data
            case let .response(status, _) where status >= 500:
                retryable = "HTTP \(status) for \(shown)"
            case let .response(status, _):
                throw .network(source: shown, message: "HTTP \(status) for \(shown)")
            case let .refused(message):
                throw .network(source: shown, message: message)
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
