import AlmanacCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// One GET through URLSession, with the limits enforced while the response arrives: the size
/// limit as bytes come in, at most `maximumRedirects` redirects and only to http(s) (never from
/// https down to http), an idle timeout and a deadline for the whole response.
public struct URLSessionTransport: HTTPTransport {
    public init() {}

    public func get(_ url: URL, limits: HTTPLimits, cancellation: Cancellation) throws(LoadFailure) -> HTTPOutcome {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = limits.idleTimeout
        configuration.timeoutIntervalForResource = limits.responseDeadline
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        let collector = ResponseCollector(limits: limits)
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

    private let limits: HTTPLimits
    private var limit: Int { limits.maximumBytes }
    private let state = Mutex(State())
    private let signal = DispatchSemaphore(value: 0)

    init(limits: HTTPLimits) { self.limits = limits }

    var isFinished: Bool { state.withLock { $0.finished } }

    func waitBriefly() { _ = signal.wait(timeout: .now() + 0.05) }

    func outcome() -> HTTPOutcome {
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
            if state.redirects > limits.maximumRedirects {
                return "more than \(limits.maximumRedirects) redirects"
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
