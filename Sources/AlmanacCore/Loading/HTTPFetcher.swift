import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// Fetches JSON over http(s), following API pages (`next`) until there are none.
///
/// Bounded everywhere a server could make it hang or grow: an idle timeout and a whole-response
/// deadline per request (a server that trickles bytes is cut off), retries with backoff only for
/// connection errors and 5xx, at most `maximumPages` pages and `maximumBytes` bytes, at most 5
/// redirects and only to http(s), and a `next` that comes back to a visited page is an error.
public struct HTTPFetcher: Sendable {
    public var idleTimeout: TimeInterval = 15
    public var responseDeadline: TimeInterval = 60
    public var maximumTries = 3
    public var firstBackoff: TimeInterval = 0.25
    public var maximumPages = 10_000
    public var maximumBytes = 1 << 30
    public static let maximumRedirects = 5

    public init() {}

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
            let outcome = try perform(url, limit: remainingBytes, cancellation: cancellation)
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

    enum Outcome {
        case response(status: Int, data: Data)
        case transport(String)
        /// Not worth retrying: a refused redirect, a response over the limit.
        case refused(String)
    }

    private func perform(_ url: URL, limit: Int, cancellation: Cancellation) throws(LoadFailure) -> Outcome {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = idleTimeout
        configuration.timeoutIntervalForResource = responseDeadline
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        let collector = ResponseCollector(limit: limit)
        let session = URLSession(configuration: configuration, delegate: collector, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        var request = URLRequest(url: url)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let task = session.dataTask(with: request)
        task.resume()
        let deadline = Date().addingTimeInterval(responseDeadline + 1)
        while !collector.isFinished {
            if cancellation.isCancelled { task.cancel(); throw .cancelled }
            if Date() > deadline {
                task.cancel()
                return .transport("no complete response within \(Int(responseDeadline)) s (timed out)")
            }
            collector.waitBriefly()
        }
        return collector.outcome(for: url)
    }
}

/// Receives one response, enforcing the size limit and the redirect rules.
private final class ResponseCollector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private struct State {
        var status = 0
        var data = Data()
        var finished = false
        var error: String?
        var refusal: String?
        var redirects = 0
    }

    private let limit: Int
    private let state = Mutex(State())
    private let signal = DispatchSemaphore(value: 0)

    init(limit: Int) { self.limit = limit }

    var isFinished: Bool { state.withLock { $0.finished } }

    func waitBriefly() { _ = signal.wait(timeout: .now() + 0.05) }

    func outcome(for url: URL) -> HTTPFetcher.Outcome {
        state.withLock { state in
            if let refusal = state.refusal { return .refused(refusal) }
            if let error = state.error { return .transport(error) }
            return .response(status: state.status, data: state.data)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let expected = response.expectedContentLength
        let tooLarge = expected > Int64(limit)
        state.withLock {
            $0.status = status
            if tooLarge { $0.refusal = "the response is larger than the \(limit >> 20) MiB limit" }
        }
        completionHandler(tooLarge ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let exceeded = state.withLock { state -> Bool in
            state.data.append(data)
            if state.data.count > limit {
                state.refusal = "the response is larger than the \(limit >> 20) MiB limit"
                return true
            }
            return false
        }
        if exceeded { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        let target = request.url
        let scheme = target?.scheme?.lowercased() ?? ""
        let from = task.originalRequest?.url?.scheme?.lowercased() ?? ""
        let refusal: String? = state.withLock { state in
            state.redirects += 1
            if state.redirects > HTTPFetcher.maximumRedirects {
                return "more than \(HTTPFetcher.maximumRedirects) redirects"
            }
            if scheme != "http" && scheme != "https" {
                return "refused a redirect to a non-http(s) URL (\(Redaction.redacted(target?.absoluteString ?? "?")))"
            }
            if from == "https" && scheme == "http" {
                return "refused a redirect from https to plain http"
            }
            return nil
        }
        if let refusal {
            state.withLock { $0.refusal = refusal }
            completionHandler(nil)
            task.cancel()
        } else {
            completionHandler(request)
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        state.withLock { state in
            if let error, state.refusal == nil {
                state.error = Self.describe(error)
            }
            state.finished = true
        }
        signal.signal()
    }

    static func describe(_ error: any Error) -> String {
        let nsError = error as NSError
        switch nsError.code {
        case NSURLErrorTimedOut: return "the server did not answer in time (timed out)"
        case NSURLErrorCannotConnectToHost: return "could not connect to the server"
        case NSURLErrorCannotFindHost: return "unknown host"
        case NSURLErrorNetworkConnectionLost: return "the connection was lost"
        case NSURLErrorNotConnectedToInternet: return "no network connection"
        default: return Redaction.redacted(nsError.localizedDescription)
        }
    }
}
