/// A question long work asks itself between steps: should I stop?
///
/// The shell answers it from Ctrl-C; tests answer it directly. Core code never looks at signals.
public struct Cancellation: Sendable {
    private let check: @Sendable () -> Bool

    public init(_ check: @escaping @Sendable () -> Bool) { self.check = check }

    public static let never = Cancellation { false }

    public var isCancelled: Bool { check() }

    /// Throws `CancelledError` when cancelled.
    public func checkpoint() throws(CancelledError) {
        if check() { throw CancelledError() }
    }
}

/// Work stopped because the user asked (Ctrl-C) or a newer request replaced it.
public struct CancelledError: Error, Equatable, CustomStringConvertible {
    public init() {}
    public var description: String { "cancelled" }
}
