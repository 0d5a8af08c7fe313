import Foundation
import Synchronization
import Testing
@testable import AlmanacCore
import CGlibc
#if canImport(Glibc)
import Glibc
#endif

/// Records the nice value of the thread that extracts its records: the load's thread.
enum NiceProbeModel: RecordModel {
    static let singular = "probe"
    static let plural = "probes"
    static let nameField = "name"
    static let listFields = ["name"]
    static let seen = Mutex<[String: Int32]>([:])

    static func extract(from document: JSONDocument, source: String, cancellation: Cancellation) throws(LoadFailure) -> Extraction {
        #if os(Linux)
        errno = 0
        let nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(almanac_gettid()))
        seen.withLock { $0[source] = nice }
        #endif
        return try RecordExtraction.records(of: Self.self, in: document, source: source, cancellation: cancellation)
    }
}

/// Loads yield to the person typing at a prompt (nice 5); a script's, which its next command
/// waits for with nobody typing, run at the process's own priority.
@Suite struct CatalogPriorityTests {
    let scratch = Scratch()

    func niceOfLoad(yielding: Bool, name: String) throws -> Int32? {
        let file = scratch.file(name, #"[{"name": "a"}]"#)
        let catalog = Catalog(preparesIndexes: false, loadsYieldToTyping: yielding)
        let load = catalog.load(LoadRequest(name: "probe", source: .file(path: file), model: NiceProbeModel.self))
        #expect(load.wait(seconds: 10))
        #expect(catalog.dataset("probe")?.count == 1)
        return NiceProbeModel.seen.withLock { $0[file] }
    }

    @Test func aPromptsLoadsRunAtNiceFiveAScriptsAtTheProcesssPriority() throws {
        #if os(Linux)
        let own = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        #expect(try niceOfLoad(yielding: true, name: "prompt.json") == max(own, 5))
        #expect(try niceOfLoad(yielding: false, name: "script.json") == own)
        #endif
    }
}
