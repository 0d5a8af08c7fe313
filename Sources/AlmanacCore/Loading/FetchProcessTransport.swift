#if canImport(Glibc)
import Glibc
#endif
import CGlibc
import Foundation

/// GETs through the `almanac-fetch` helper, which runs libcurl in its own process: the shell
/// itself then never loads libcurl and its dozens of libraries, which would cost its start-up
/// about ten milliseconds. Cancelling kills the helper at once.
public struct FetchProcessTransport: HTTPTransport {
    /// Where the helper may be, best first: `ALMANAC_FETCH`, else `almanac-fetch` next to the
    /// running executable (a build folder), then the install's `libexec/almanac/almanac-fetch`.
    public static func helperCandidates() -> [String] {
        if let path = ProcessInfo.processInfo.environment["ALMANAC_FETCH"], !path.isEmpty { return [path] }
        return [InstallLayout.executableFolder + "/almanac-fetch", InstallLayout.helper]
    }

    public init() {}

    public func get(_ url: URL, limits: HTTPLimits, cancellation: Cancellation) throws(LoadFailure) -> HTTPOutcome {
        let shown = Redaction.redacted(url.absoluteString)
        let candidates = Self.helperCandidates()
        guard let helper = candidates.first(where: { access($0, X_OK) == 0 }) else {
            throw .network(source: shown, message: """
                cannot fetch URLs: the helper is missing (\(candidates.joined(separator: " or "))); \
                build it: swift build --product almanac-fetch (make run and make install put it in place)
                """)
        }
        // The request goes through standard input, so the URL (and any credentials in it)
        // never shows in the process list.
        guard let request = try? JSONEncoder().encode(FetchRequest(url: url.absoluteString, limits: limits)) else {
            throw .network(source: shown, message: "cannot encode the request")
        }
        var child = try Child(helper)
        defer { child.reap() }
        child.send(Array(request))
        // The body streams in and is kept once, here: the helper holds a piece at a time.
        var stream = FetchStream(limit: limits.maximumBytes)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            if cancellation.isCancelled {
                child.kill()
                throw .cancelled
            }
            switch child.read(into: &chunk, waitingMilliseconds: 50) {
            case .waiting: continue
            case let .more(count):
                chunk.withUnsafeBytes { stream.consume(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
                if let outcome = stream.outcome {
                    if case .response = outcome {} else { child.kill() }
                    return outcome
                }
            case .end: return stream.outcome ?? .transport("the fetch helper ended without an answer")
            case .failed: return .transport("the fetch helper could not be read")
            }
        }
    }

    /// The helper process and its two pipes. It dies with the shell: it asks the kernel for
    /// that itself (PR_SET_PDEATHSIG, see almanac-fetch), and the shell kills every helper
    /// still running when it ends (`almanac_kill_children`, at exit and in the watchdog).
    private struct Child {
        let pid: pid_t
        let input: Int32
        let output: Int32
        var reaped = false

        enum Read { case waiting, more(Int), end, failed }

        init(_ path: String) throws(LoadFailure) {
            var toChild: [Int32] = [-1, -1]
            var fromChild: [Int32] = [-1, -1]
            guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else { throw .network(source: path, message: "cannot create pipes") }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
            posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            for descriptor in toChild + fromChild { posix_spawn_file_actions_addclose(&actions, descriptor) }
            var pid: pid_t = 0
            let argv: [UnsafeMutablePointer<CChar>?] = [strdup(path), nil]
            // The helper checks it is still this process's child once it has asked to die with it.
            var environment: [UnsafeMutablePointer<CChar>?] = [strdup("\(FetchRequest.parentVariable)=\(getpid())")]
            var entry = environ
            while let variable = entry.pointee {
                if !String(cString: variable).hasPrefix(FetchRequest.parentVariable + "=") { environment.append(strdup(variable)) }
                entry += 1
            }
            environment.append(nil)
            defer {
                argv.forEach { free($0) }
                environment.forEach { free($0) }
            }
            let status = posix_spawn(&pid, path, &actions, nil, argv, environment)
            close(toChild[0])
            close(fromChild[1])
            guard status == 0 else {
                close(toChild[1])
                close(fromChild[0])
                throw .network(source: path, message: "cannot start the fetch helper: \(String(cString: strerror(status)))")
            }
            almanac_child_started(pid)
            self.pid = pid
            input = toChild[1]
            output = fromChild[0]
            _ = fcntl(output, F_SETFL, fcntl(output, F_GETFL) | O_NONBLOCK)
        }

        func send(_ bytes: [UInt8]) {
            // A helper that failed to read its request ends with an error of its own.
            _ = SystemCalls.writeAll(input, bytes)
            close(input)
        }

        func read(into chunk: inout [UInt8], waitingMilliseconds: Int32) -> Read {
            var ready = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, waitingMilliseconds) <= 0 { return .waiting }
            let count = chunk.withUnsafeMutableBytes { Glibc.read(output, $0.baseAddress, $0.count) }
            if count > 0 { return .more(count) }
            if count == 0 { return .end }
            return errno == EINTR || errno == EAGAIN ? .waiting : .failed
        }

        func kill() { Glibc.kill(pid, SIGKILL) }

        mutating func reap() {
            guard !reaped else { return }
            reaped = true
            close(output)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            almanac_child_ended(pid)
        }
    }
}

/// What `almanac` asks `almanac-fetch` for, as one JSON object on its standard input.
public struct FetchRequest: Codable, Sendable {
    public var url: String
    public var limits: HTTPLimits
    /// The environment variable that tells the helper its parent's pid.
    public static let parentVariable = "ALMANAC_FETCH_PARENT"
    public init(url: String, limits: HTTPLimits) {
        self.url = url
        self.limits = limits
    }
}

/// How `almanac-fetch` answers on its standard output, as the response arrives: a head line,
/// the body in pieces, then how it ended.
///
///     status STATUS DECLARED-LENGTH (-1: not declared) [CONTENT-TYPE, to the line's end]
///     data N            followed by N bytes of the body; as many as there are pieces
///     end               the body is complete
///
/// or at any point one of `transport MESSAGE`, `refused MESSAGE`, `toolarge DECLARED-LENGTH`.
public enum FetchResponse {
    public static func head(status: Int, declaredLength: Int?, contentType: String? = nil) -> [UInt8] {
        let type = contentType.map { " " + oneLine($0) } ?? ""
        return Array("status \(status) \(declaredLength ?? -1)\(type)\n".utf8)
    }

    public static func piece(_ bytes: UnsafeRawBufferPointer) -> [UInt8] { Array("data \(bytes.count)\n".utf8) + Array(bytes) }

    /// The last line: how the response ended.
    public static func ending(_ outcome: HTTPOutcome) -> [UInt8] {
        switch outcome {
        case .response: Array("end\n".utf8)
        case let .transport(message): Array("transport \(oneLine(message))\n".utf8)
        case let .refused(message): Array("refused \(oneLine(message))\n".utf8)
        case let .tooLarge(declared): Array("toolarge \(declared ?? -1)\n".utf8)
        }
    }

    private static func oneLine(_ text: String) -> String {
        text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
    }
}

/// The shell's side of `FetchResponse`: reads the helper's output as it comes, keeping the body
/// once (room reserved for a small declared length) and never more than the limit.
struct FetchStream {
    let limit: Int
    private(set) var outcome: HTTPOutcome?
    private var status = 0
    private var contentType: String?
    private var body = Data()
    /// A line not yet complete.
    private var line: [UInt8] = []
    /// Bytes of the current piece still to come.
    private var remaining = 0

    init(limit: Int) { self.limit = limit }

    mutating func consume(_ bytes: UnsafeRawBufferPointer) {
        var index = 0
        while index < bytes.count, outcome == nil {
            if remaining > 0 {
                let taken = min(remaining, bytes.count - index)
                body.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<(index + taken)]))
                remaining -= taken
                index += taken
                if body.count > limit { outcome = .tooLarge(declared: nil) }
                continue
            }
            guard let newline = bytes[index...].firstIndex(of: 0x0A) else {
                line.append(contentsOf: bytes[index...])
                if line.count > 4096 { outcome = .transport("the fetch helper's answer is not readable") }
                return
            }
            line.append(contentsOf: bytes[index..<newline])
            index = newline + 1
            take(String(decoding: line, as: UTF8.self))
            line.removeAll(keepingCapacity: true)
        }
    }

    private mutating func take(_ text: String) {
        let parts = text.split(separator: " ", maxSplits: 1)
        let rest = parts.count > 1 ? String(parts[1]) : ""
        let numbers = rest.split(separator: " ").compactMap { Int($0) }
        switch parts.first.map(String.init) ?? "" {
        case "status":
            // Two numbers, then the Content-Type (which may hold spaces) to the line's end.
            let words = rest.split(separator: " ", maxSplits: 2)
            guard words.count >= 2, let code = Int(words[0]), let declared = Int(words[1]) else {
                outcome = .transport("the fetch helper's answer is not readable")
                return
            }
            status = code
            contentType = words.count > 2 ? String(words[2]) : nil
            // A declared length is a promise, not bytes: room for a few megabytes of it at
            // most; the rest grows as bytes arrive.
            if declared > 0, declared <= limit { body.reserveCapacity(min(declared, HTTPLimits.reservedAtMost)) }
        case "data" where numbers.count == 1 && numbers[0] >= 0:
            remaining = numbers[0]
        case "end": outcome = .response(status: status, data: body, contentType: contentType)
        case "transport": outcome = .transport(rest)
        case "refused": outcome = .refused(rest)
        case "toolarge": outcome = .tooLarge(declared: numbers.first.flatMap { $0 >= 0 ? $0 : nil })
        default: outcome = .transport("the fetch helper's answer is not readable")
        }
    }
}
