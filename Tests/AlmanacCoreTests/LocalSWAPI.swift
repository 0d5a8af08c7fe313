import Foundation

/// The test SWAPI server (Tests/Fixtures/swapi_server.py), started on a free port.
final class LocalSWAPI: @unchecked Sendable {
    let process = Process()
    let lifeline = Pipe()
    let port: Int

    static let shared = try! LocalSWAPI()

    init() throws {
        let root = RealData.directory.replacingOccurrences(of: "/Data", with: "")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", root + "/Tests/Fixtures/swapi_server.py", RealData.directory + "/species.json"]
        let pipe = Pipe()
        process.standardOutput = pipe
        // The server exits when this pipe closes, that is when the test process ends.
        process.standardInput = lifeline
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        self.port = port
    }

    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    deinit { process.terminate() }
}
