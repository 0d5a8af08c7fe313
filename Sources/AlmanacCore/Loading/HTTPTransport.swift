import Foundation

/// Performs one GET. `HTTPFetcher` does the rest (retries, pages, loops).
public protocol HTTPTransport: Sendable {
    func get(_ url: URL, limits: HTTPLimits, cancellation: Cancellation) throws(LoadFailure) -> HTTPOutcome
}

/// The bounds a single response must respect.
public struct HTTPLimits: Sendable, Equatable, Codable {
    public var idleTimeout: TimeInterval
    public var responseDeadline: TimeInterval
    public var maximumBytes: Int
    public var maximumRedirects: Int

    public init(idleTimeout: TimeInterval, responseDeadline: TimeInterval, maximumBytes: Int, maximumRedirects: Int) {
        self.idleTimeout = idleTimeout
        self.responseDeadline = responseDeadline
        self.maximumBytes = maximumBytes
        self.maximumRedirects = maximumRedirects
    }
}

/// What came back from one GET.
public enum HTTPOutcome: Sendable, Equatable {
    case response(status: Int, data: Data)
    /// Connection errors and timeouts: worth another try.
    case transport(String)
    /// Not worth retrying: a refused redirect, a response over the limit.
    case refused(String)
}
