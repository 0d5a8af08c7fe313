import Foundation

/// Performs one GET. `HTTPFetcher` does the rest (retries, pages, loops).
public protocol HTTPTransport: Sendable {
    func get(_ url: URL, limits: HTTPLimits, cancellation: Cancellation) throws(LoadFailure) -> HTTPOutcome
}

/// The bounds a single response must respect.
public struct HTTPLimits: Sendable, Equatable, Codable {
    public var idleTimeout: TimeInterval
    public var responseDeadline: TimeInterval
    /// What this response may hold: the load's bound less what earlier pages took.
    public var maximumBytes: Int
    public var maximumRedirects: Int
    /// Room reserved up front for a declared length: a server's promise is not memory to take.
    public static let reservedAtMost = 16 << 20

    public init(idleTimeout: TimeInterval, responseDeadline: TimeInterval, maximumBytes: Int, maximumRedirects: Int) {
        self.idleTimeout = idleTimeout
        self.responseDeadline = responseDeadline
        self.maximumBytes = maximumBytes
        self.maximumRedirects = maximumRedirects
    }
}

/// What came back from one GET.
public enum HTTPOutcome: Sendable, Equatable {
    /// `contentType`: the response's Content-Type header, as sent (`text/csv; charset=utf-8`).
    case response(status: Int, data: Data, contentType: String? = nil)
    /// Connection errors and timeouts: worth another try.
    case transport(String)
    /// Not worth retrying: a refused redirect.
    case refused(String)
    /// The body would pass `HTTPLimits.maximumBytes` (as declared, when the server said how
    /// long it is: then none of it was read). `HTTPFetcher` words the message with the bound.
    case tooLarge(declared: Int?)
}

/// Where a redirect may lead: http(s) only, never from https down to http. The `Location`
/// header is judged as written, before anything resolves it: `file:///etc/passwd`, `ftp:///`
/// and `FILE:/` have a scheme of their own even with an empty host (resolving them against the
/// page's URL turned them into a GET on the same server).
public enum RedirectRule {
    /// Why the redirect from `from` to `to` (`location`: the header as sent) is refused, or nil.
    public static func refusal(from: URL?, to: URL?, location: String?) -> String? {
        let target = to?.scheme?.lowercased() ?? ""
        if let location, let written = scheme(of: location), written != "http" && written != "https" {
            return "refused a redirect to a non-http(s) URL (\(Redaction.redacted(location)))"
        }
        if target != "http" && target != "https" {
            return "refused a redirect to a non-http(s) URL (\(Redaction.redacted(to?.absoluteString ?? location ?? "?")))"
        }
        if from?.scheme?.lowercased() == "https" && target == "http" {
            return "refused a redirect from https to plain http"
        }
        return nil
    }

    /// The scheme a URL reference names (RFC 3986: a letter, then letters, digits, `+-.`,
    /// then `:`), lowercased; nil for a relative reference. Read the way browsers read it:
    /// leading and trailing spaces and control characters dropped, tabs and line breaks inside
    /// ignored.
    public static func scheme(of reference: String) -> String? {
        var scalars = reference.unicodeScalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }[...]
        while let first = scalars.first, first.value <= 0x20 { scalars = scalars.dropFirst() }
        guard let first = scalars.first, first.isASCIILetter else { return nil }
        var scheme = ""
        for scalar in scalars {
            if scalar == ":" { return scheme.lowercased() }
            guard scalar.isASCIILetter || ("0"..."9").contains(scalar) || scalar == "+" || scalar == "-" || scalar == "." else { return nil }
            scheme.unicodeScalars.append(scalar)
        }
        return nil
    }
}

private extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
