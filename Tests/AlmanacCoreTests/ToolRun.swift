import Foundation

/// Runs a tool (python3, jq) and returns what it printed, for expected values computed
/// independently of almanac.
func toolOutput(_ arguments: [String], input: String? = nil) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    let inputPipe = Pipe()
    process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
    try process.run()
    if let input {
        inputPipe.fileHandleForWriting.write(Data(input.utf8))
        try inputPipe.fileHandleForWriting.close()
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

/// Issue 28's file of GitHub-like issues (Tests/Fixtures/github_issues.py), written into `scratch`.
enum GitHubIssues {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/github_issues.py").path

    static func file(in scratch: Scratch, name: String = "issues.json", count: Int = 200, wrapped: Bool = false) throws -> String {
        let text = try toolOutput(["python3", script, String(count)] + (wrapped ? ["--wrapped"] : []))
        return scratch.file(name, text)
    }

    static func jq(_ program: String, _ path: String) throws -> String { try toolOutput(["jq", "-r", program, path]) }
}
