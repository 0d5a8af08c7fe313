#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// GETs through the `almanac-fetch` helper, which runs URLSession in its own process: the shell
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
        var output: [UInt8] = []
        let ceiling = limits.maximumBytes + 4096
        while true {
            if cancellation.isCancelled {
                child.kill()
                throw .cancelled
            }
            switch child.read(into: &output, waitingMilliseconds: 50) {
            case .more: if output.count > ceiling { child.kill(); return .refused("the response is larger than the \(limits.maximumBytes >> 20) MiB limit") }
            case .end: return FetchResponse.decode(output) ?? .transport("the fetch helper ended without an answer")
            case .failed: return .transport("the fetch helper could not be read")
            }
        }
    }

    /// The helper process and its two pipes.
    private struct Child {
        let pid: pid_t
        let input: Int32
        let output: Int32
        var reaped = false

        enum Read { case more, end, failed }

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
            defer { argv.forEach { free($0) } }
            let status = posix_spawn(&pid, path, &actions, nil, argv, environ)
            close(toChild[0])
            close(fromChild[1])
            guard status == 0 else {
                close(toChild[1])
                close(fromChild[0])
                throw .network(source: path, message: "cannot start the fetch helper: \(String(cString: strerror(status)))")
            }
            self.pid = pid
            input = toChild[1]
            output = fromChild[0]
            _ = fcntl(output, F_SETFL, fcntl(output, F_GETFL) | O_NONBLOCK)
        }

        func send(_ bytes: [UInt8]) {
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes { write(input, $0.baseAddress! + offset, bytes.count - offset) }
                if written < 0 { if errno == EINTR { continue }; break }
                offset += written
            }
            close(input)
        }

        func read(into buffer: inout [UInt8], waitingMilliseconds: Int32) -> Read {
            var ready = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, waitingMilliseconds) <= 0 { return .more }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = chunk.withUnsafeMutableBytes { Glibc.read(output, $0.baseAddress, $0.count) }
            if count > 0 { buffer.append(contentsOf: chunk[0..<count]); return .more }
            if count == 0 { return .end }
            return errno == EINTR || errno == EAGAIN ? .more : .failed
        }

        func kill() { Glibc.kill(pid, SIGKILL) }

        mutating func reap() {
            guard !reaped else { return }
            reaped = true
            close(output)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        }
    }
}

/// What `almanac` asks `almanac-fetch` for, as one JSON object on its standard input.
public struct FetchRequest: Codable, Sendable {
    public var url: String
    public var limits: HTTPLimits
    public init(url: String, limits: HTTPLimits) {
        self.url = url
        self.limits = limits
    }
}

/// How `almanac-fetch` answers on its standard output: one header line, then the body.
///   `response STATUS LENGTH` and LENGTH bytes; or `transport MESSAGE`; or `refused MESSAGE`.
public enum FetchResponse {
    public static func encode(_ outcome: HTTPOutcome) -> [UInt8] {
        switch outcome {
        case let .response(status, data): return Array("response \(status) \(data.count)\n".utf8) + Array(data)
        case let .transport(message): return Array("transport \(oneLine(message))\n".utf8)
        case let .refused(message): return Array("refused \(oneLine(message))\n".utf8)
        }
    }

    public static func decode(_ bytes: [UInt8]) -> HTTPOutcome? {
        guard let newline = bytes.firstIndex(of: 0x0A) else { return nil }
        let header = String(decoding: bytes[..<newline], as: UTF8.self)
        let parts = header.split(separator: " ", maxSplits: 1)
        guard let kind = parts.first else { return nil }
        let rest = parts.count > 1 ? String(parts[1]) : ""
        switch kind {
        case "response":
            let numbers = rest.split(separator: " ").compactMap { Int($0) }
            guard numbers.count == 2, bytes.count - newline - 1 == numbers[1] else { return nil }
            return .response(status: numbers[0], data: Data(bytes[(newline + 1)...]))
        case "transport": return .transport(rest)
        case "refused": return .refused(rest)
        default: return nil
        }
    }

    private static func oneLine(_ text: String) -> String {
        text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
    }
}
