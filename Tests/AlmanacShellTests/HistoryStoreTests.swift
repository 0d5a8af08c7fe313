import Foundation
import Testing
@testable import AlmanacShell

@Suite struct HistoryStoreTests {
    let directory: String = {
        let path = NSTemporaryDirectory() + "almanac-history-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    @Test func keepsLinesButNotLeadingSpacesOrRepeats() throws {
        let path = directory + "/state/almanac/history"
        let store = HistoryStore(path: path)
        #expect(store.add("use countries"))
        #expect(!store.add("use countries"))
        #expect(!store.add(" secret"))
        #expect(store.add("search Москва"))
        #expect(store.add("use countries"))
        let reloaded = HistoryStore(path: path)
        #expect(reloaded.entries == ["use countries", "search Москва", "use countries"])
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func twoStoresAppendWithoutLosingLines() {
        let path = directory + "/shared"
        let first = HistoryStore(path: path)
        let second = HistoryStore(path: path)
        first.add("one")
        second.add("two")
        first.add("three")
        #expect(HistoryStore(path: path).entries == ["one", "two", "three"])
    }

    @Test func capsAtTheCapacity() throws {
        let path = directory + "/big"
        let lines = (0..<(HistoryStore.capacity + 2000)).map { "line \($0)" }.joined(separator: "\n") + "\n"
        try lines.write(toFile: path, atomically: true, encoding: .utf8)
        let store = HistoryStore(path: path)
        #expect(store.entries.count == HistoryStore.capacity)
        #expect(store.entries.last == "line \(HistoryStore.capacity + 1999)")
        let compacted = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(compacted.count == HistoryStore.capacity)
    }

    @Test func multiLineEntriesRoundTrip() {
        let path = directory + "/escapes"
        HistoryStore(path: path).add("a\\b\nc")
        #expect(HistoryStore(path: path).entries == ["a\\b\nc"])
    }

    @Test("a file of good text and one with damaged lines read the same lines, split at each newline byte")
    func goodAndDamagedFilesReadAlike() throws {
        let good = directory + "/good"
        let text = "use countries\r\nsearch Москва\n\nshow \"Côte d'Ivoire\"\n"
        try text.write(toFile: good, atomically: true, encoding: .utf8)
        let expected = ["use countries\r", "search Москва", "show \"Côte d'Ivoire\""]
        let store = HistoryStore(path: good)
        #expect(store.entries == expected)
        #expect(store.warnings.isEmpty)
        // The same file with a line of invalid UTF-8 and one with a NUL in the middle.
        let damaged = directory + "/damaged"
        var bytes = Array(text.utf8)
        bytes.insert(contentsOf: [0x62, 0xFF, 0x0A, 0x61, 0x00, 0x62, 0x0A], at: Array("use countries\r\n".utf8).count)
        FileManager.default.createFile(atPath: damaged, contents: Data(bytes))
        let read = HistoryStore(path: damaged)
        #expect(read.entries == expected)
        #expect(read.warnings.count == 1 && read.warnings[0].contains("2 damaged lines"), "\(read.warnings)")
    }

    @Test func aDirectoryInTheWayWarnsButWorks() throws {
        let path = directory + "/isdir"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let store = HistoryStore(path: path)
        #expect(store.warnings.count == 1)
        #expect(store.add("still works"))
        #expect(store.entries == ["still works"])
    }
}
