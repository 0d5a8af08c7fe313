import Dispatch

/// Runs `body(0)`…`body(count - 1)` at once, each on its own thread (on this one alone when
/// `count` is 1), and returns when all are done. `body` must write only what its index owns:
/// it is not checked for sending, which lets it write through the caller's buffers.
func onThreads(_ count: Int, _ body: (Int) -> Void) {
    guard count > 1 else { return body(0) }
    withoutActuallyEscaping(body) { body in
        nonisolated(unsafe) let body = body
        DispatchQueue.concurrentPerform(iterations: count) { body($0) }
    }
}
