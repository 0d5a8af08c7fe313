import AlmanacCore
import CFetch
import Foundation

/// One GET through libcurl, with the limits enforced while the response arrives: the size limit
/// as bytes come in (a declared length over it is refused before any body is read), at most
/// `maximumRedirects` redirects and only where `RedirectRule` allows, an idle timeout and a
/// deadline for the whole response.
///
/// libcurl rather than URLSession: on Linux URLSession queues every piece of a body for its
/// delegate however slowly the delegate takes them (a 256 MiB bound cost the helper 688 MB on
/// a local endless body), while libcurl reads nothing more until the body callback returns.
public struct CurlTransport: HTTPTransport {
    public init() {}

    /// The whole body, collected in memory (tests, and loads in this process).
    public func get(_ url: URL, limits: HTTPLimits, cancellation: Cancellation) throws(LoadFailure) -> HTTPOutcome {
        var body = Data()
        let outcome = try stream(url, limits: limits, cancellation: cancellation, response: { _, declared, _ in
            if let declared, declared <= limits.maximumBytes { body.reserveCapacity(min(declared, HTTPLimits.reservedAtMost)) }
        }, body: { piece in
            body.append(contentsOf: piece)
        })
        guard case let .response(status, _, contentType) = outcome else { return outcome }
        return .response(status: status, data: body, contentType: contentType)
    }

    /// The body as it arrives, on this thread: `response` gets the final status, the
    /// declared length and the Content-Type first, then `body` each piece, never more than the limit in all.
    /// Returns `.response` with no data when the body is complete.
    public func stream(_ url: URL, limits: HTTPLimits, cancellation: Cancellation,
                       response: @escaping (_ status: Int, _ declaredLength: Int?, _ contentType: String?) -> Void,
                       body: @escaping (UnsafeRawBufferPointer) -> Void) throws(LoadFailure) -> HTTPOutcome {
        let handlers = Handlers(response: response, body: body, cancellation: cancellation)
        let context = Unmanaged.passRetained(handlers)
        defer { context.release() }
        var callbacks = almanac_fetch_callbacks(
            context: context.toOpaque(),
            head: { context, status, declared, type in
                let handlers = Unmanaged<Handlers>.fromOpaque(context!).takeUnretainedValue()
                handlers.status = Int(status)
                handlers.contentType = type.map { String(cString: $0) }
                handlers.response(Int(status), declared >= 0 ? Int(declared) : nil, handlers.contentType)
            },
            body: { context, bytes, count in
                Unmanaged<Handlers>.fromOpaque(context!).takeUnretainedValue().body(UnsafeRawBufferPointer(start: bytes, count: count))
            },
            cancelled: { context in
                Unmanaged<Handlers>.fromOpaque(context!).takeUnretainedValue().cancellation.isCancelled ? 1 : 0
            })
        var current = url
        var redirects = 0
        let deadline = Date().addingTimeInterval(limits.responseDeadline)
        while true {
            let remaining = max(1, Int(deadline.timeIntervalSinceNow * 1000))
            var outcome = almanac_fetch_outcome()
            let result = almanac_fetch(current.absoluteString, max(1, Int(limits.idleTimeout.rounded(.up))), remaining,
                                       Int64(limits.maximumBytes), &callbacks, &outcome)
            defer { almanac_fetch_outcome_free(&outcome) }
            switch result {
            case ALMANAC_FETCH_DONE:
                return .response(status: handlers.status, data: Data(), contentType: handlers.contentType)
            case ALMANAC_FETCH_REDIRECT:
                redirects += 1
                let location = outcome.location.map { String(cString: $0) }
                let target = outcome.resolved.flatMap { URL(string: String(cString: $0)) }
                if redirects > limits.maximumRedirects { return .refused("more than \(limits.maximumRedirects) redirects") }
                if let refusal = RedirectRule.refusal(from: current, to: target, location: location) { return .refused(refusal) }
                guard let target else { return .refused("a redirect without a usable Location") }
                current = target
            case ALMANAC_FETCH_TOO_LARGE:
                let declared = Int(outcome.declared_length)
                return .tooLarge(declared: declared > limits.maximumBytes ? declared : nil)
            case ALMANAC_FETCH_TIMED_OUT:
                return .transport(Date() >= deadline ? "no complete response within \(Int(limits.responseDeadline)) s (timed out)"
                                                     : "the server did not answer in time (timed out)")
            case ALMANAC_FETCH_CANCELLED:
                throw .cancelled
            default:
                let message = withUnsafeBytes(of: outcome.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                return .transport(Self.describe(code: outcome.code, message: message))
            }
        }
    }

    /// libcurl's failures in the shell's words.
    static func describe(code: Int32, message: String) -> String {
        switch code {
        case 6: "unknown host"
        case 7: "could not connect to the server"
        case 18, 52, 55, 56: "the connection was lost"
        default: Redaction.redacted(message.prefix(1).lowercased() + message.dropFirst())
        }
    }

    /// What the C callbacks reach, and the status they saw.
    private final class Handlers {
        let response: (Int, Int?, String?) -> Void
        let body: (UnsafeRawBufferPointer) -> Void
        let cancellation: Cancellation
        var status = 0
        var contentType: String?

        init(response: @escaping (Int, Int?, String?) -> Void, body: @escaping (UnsafeRawBufferPointer) -> Void, cancellation: Cancellation) {
            self.response = response
            self.body = body
            self.cancellation = cancellation
        }
    }
}
