import AlmanacCore
import AlmanacNetwork
import CGlibc
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

// almanac-fetch: one GET through libcurl for the almanac shell, which starts it for every
// http(s) page so that its own start-up stays free of libcurl. Reads a `FetchRequest` as JSON
// on standard input; writes a `FetchResponse` on standard output as the body arrives, so that
// neither process holds more than the shell's one copy of it.

// The helper never outlives the shell: the kernel kills it when its parent ends.
let parent = ProcessInfo.processInfo.environment[FetchRequest.parentVariable].flatMap { pid_t($0) } ?? 0
if almanac_die_with_parent(parent) != 0 { exit(1) }

/// Standard output: the head, the body's pieces, then the end; nothing after the end.
final class Answer: Sendable {
    private let closed = Mutex(false)

    func write(_ bytes: [UInt8]) {
        closed.withLock { closed in
            guard !closed else { return }
            Self.writeAll(bytes)
        }
    }

    func end(_ outcome: HTTPOutcome) {
        closed.withLock { closed in
            guard !closed else { return }
            Self.writeAll(FetchResponse.ending(outcome))
            closed = true
        }
    }

    private static func writeAll(_ bytes: [UInt8]) {
        // The shell stopped reading: it no longer wants the answer.
        if SystemCalls.writeAll(1, bytes) != .written { _exit(1) }
    }
}

let answer = Answer()
let input = FileHandle.standardInput.readDataToEndOfFile()
if let request = try? JSONDecoder().decode(FetchRequest.self, from: input), let url = URL(string: request.url) {
    do {
        let outcome = try CurlTransport().stream(url, limits: request.limits, cancellation: .never, response: { status, declared, contentType in
            answer.write(FetchResponse.head(status: status, declaredLength: declared, contentType: contentType))
        }, body: { piece in
            // The write blocks while the shell is busy, and libcurl reads nothing meanwhile.
            answer.write(FetchResponse.piece(piece))
        })
        answer.end(outcome)
    } catch {
        answer.end(.transport("\(error)"))
    }
} else {
    answer.end(.refused("almanac-fetch: the request on standard input is not valid"))
}
exit(0)
