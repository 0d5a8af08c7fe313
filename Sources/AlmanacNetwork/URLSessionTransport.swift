import AlmanacCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// One GET through URLSession, with the limits enforced while the response arrives: the size
/// limit as bytes come in (a declared length over it is refused before any body is read), at
/// most `maximumRedirects` redirects and only to http(s) (never from https down to http), an
/// idle timeout and a deadline for the whole response.
public struct URLSessionTransport: HTTPTransport {
    public init() {}

    /// The whole body, collected in memory (tests, and the shell without its helper).
    public func get(_ url: URL, limits: HTTPLimits, cancellation: Cancellation) throws(LoadFailure) -> HTTPOutcome {
        let body = Mutex(Data())
        let outcome = try stream(url, limits: limits, cancellation: cancellation, response: { _, declared in
            if let declared { body.withLock { $0.reserveCapacity(declared) } }
        }, body: { chunk in
            body.withLock { $0.append(chunk) }
        })
        guard case let .response(status, _) = outcome else { return outcome }
        return .response(status: status, data: body.withLock { $0 })
    }

    /// The body as it arrives: `response` gets the status and the declared length first, then
    /// `body` each piece (on URLSession's queue, one call at a time), never more than the limit
    /// in all. Returns `.response` with no data when the body is complete.
    public func stream(_ url: URL, limits: HTTPLimits, cancellation: Cancellation,
                       response: @escaping @Sendable (_ status: Int, _ declaredLength: Int?) -> Void,
                       body: @escaping @Sendable (Data) -> Void) throws(LoadFailure) -> HTTPOutcome {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = limits.idleTimeout
        configuration.timeoutIntervalForResource = limits.responseDeadline
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        let collector = ResponseCollector(limits: limits, response: response, body: body)
        let session = URLSession(configuration: configuration, delegate: collector, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        var request = URLRequest(url: url)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let task = session.dataTask(with: request)
        task.resume()
        let deadline = Date().addingTimeInterval(limits.responseDeadline + 1)
        while !collector.isFinished {
            if cancellation.isCancelled { task.cancel(); throw .cancelled }
            if Date() > deadline {
                task.cancel()
                return .transport("no complete response within \(Int(limits.responseDeadline)) s (timed out)")
            }
            collector.waitBriefly()
        }
        return collector.outcome()
    }
}

/// Receives one response, enforcing the size limit and the redirect rules, and hands its body
/// on as it comes.
private final class ResponseCollector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private struct State {
        var status = 0
        var received = 0
        var finished = false
        var error: String?
        var refusal: HTTPOutcome?
        var redirects = 0
    }

    private let limits: HTTPLimits
    private var limit: Int { limits.maximumBytes }
    private let state = Mutex(State())
    private let signal = DispatchSemaphore(value: 0)
    private let response: @Sendable (Int, Int?) -> Void
    private let body: @Sendable (Data) -> Void

    init(limits: HTTPLimits, response: @escaping @Sendable (Int, Int?) -> Void, body: @escaping @Sendable (Data) -> Void) {
        self.limits = limits
        self.response = response
        self.body = body
    }

    var isFinished: Bool { state.withLock { $0.finished } }

    func waitBriefly() { _ = signal.wait(timeout: .now() + 0.05) }

    func outcome() -> HTTPOutcome {
        state.withLock { state in
            if let refusal = state.refusal { return refusal }
            if let error = state.error { return .transport(error) }
            return .response(status: state.status, data: Data())
        }
    }

    /// Stops the transfer with `outcome`; whatever arrives after is dropped.
    private func refuse(_ outcome: HTTPOutcome, _ task: URLSessionTask) {
        state.withLock { state in
            if state.refusal == nil { state.refusal = outcome }
            state.finished = true
        }
        task.cancel()
        signal.signal()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let expected = response.expectedContentLength
        // A declared length over the limit is refused before a byte of the body is read.
        if expected > Int64(limit) {
            completionHandler(.cancel)
            refuse(.tooLarge(declared: Int(clamping: expected)), dataTask)
            return
        }
        state.withLock { $0.status = status }
        self.response(status, expected >= 0 ? Int(expected) : nil)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let accepted = state.withLock { state -> Bool in
            guard state.refusal == nil else { return false }
            state.received += data.count
            return state.received <= limit
        }
        guard accepted else {
            refuse(.tooLarge(declared: nil), dataTask)
            return
        }
        body(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        let refusal: String? = state.withLock { state in
            state.redirects += 1
            if state.redirects > limits.maximumRedirects {
                return "more than \(limits.maximumRedirects) redirects"
            }
            return RedirectRule.refusal(from: task.originalRequest?.url, to: request.url,
                                        location: response.value(forHTTPHeaderField: "Location"))
        }
        if let refusal {
            completionHandler(nil)
            refuse(.refused(refusal), task)
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
