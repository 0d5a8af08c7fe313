import Foundation
import Testing
@testable import AlmanacCore
#if canImport(Glibc)
import Glibc
#endif

/// The catalog never leaves a dataset empty because a load from elsewhere failed.
@Suite struct CatalogRecoveryTests {
    let scratch = Scratch()

    @Test func aFailedLoadThatReplacedTheOwnLoadStartsTheOwnLoadAgain() throws {
        // The dataset's own source is a FIFO nobody writes yet: its load waits.
        let own = scratch.directory + "/own.json"
        #expect(mkfifo(own, 0o600) == 0)
        let bad = scratch.file("bad.json", "[1,")
        let catalog = Catalog()
        let ownRequest = LoadRequest(name: "things", source: .file(path: own), model: GenericModel.self)
        let first = catalog.load(ownRequest)
        let failed = catalog.load(LoadRequest(name: "things", source: .file(path: bad), model: GenericModel.self))
        #expect(failed.wait(seconds: 10))
        #expect(first.isCancelled)
        if case .success = failed.result { Issue.record("the bad file loaded") }
        // The own source loads again, in place before anyone could see the dataset empty.
        let again = try #require(catalog.activeLoad("things"))
        #expect(again.request.source == ownRequest.source)
        #expect(catalog.request(for: "things")?.source == ownRequest.source)
        // Written once the cancelled first load has closed the FIFO: the new load is then its
        // only reader (data written while only the old one held it open would be lost).
        #expect(first.wait(seconds: 10))
        let writer = Thread {
            let handle = FileHandle(forWritingAtPath: own)!
            handle.write(Data(#"[{"name": "from its own source"}]"#.utf8))
            handle.closeFile()
        }
        writer.start()
        #expect(again.wait(seconds: 10))
        #expect(catalog.dataset("things")?.name(of: 0) == "from its own source")
    }

    @Test func aFailedLoadFromElsewhereAfterTheOwnLoadFinishedChangesNothing() throws {
        let own = scratch.file("own.json", #"[{"name": "kept"}]"#)
        let bad = scratch.file("bad.json", "[1,")
        let catalog = Catalog()
        let ownRequest = LoadRequest(name: "things", source: .file(path: own), model: GenericModel.self)
        #expect(throws: Never.self) { _ = try catalog.loadAndWait(ownRequest) }
        let failed = catalog.load(LoadRequest(name: "things", source: .file(path: bad), model: GenericModel.self))
        #expect(failed.wait(seconds: 10))
        #expect(catalog.activeLoad("things") == nil)
        #expect(catalog.dataset("things")?.name(of: 0) == "kept")
        #expect(catalog.request(for: "things")?.source == ownRequest.source)
    }
}
