import Foundation
import Synchronization
import Testing
@testable import AlmanacCore

/// After a load the catalog builds the name index and the fields on the loading thread, then
/// says so: the prompt colours the field names in a half-typed line again then.
@Suite struct CatalogPreparationTests {
    let scratch = Scratch()

    @Test func thePreparationObserverHearsOfADatasetOnceItsFieldsAreBuilt() throws {
        let file = scratch.file("things.json", #"[{"name": "a", "size": 1}, {"name": "b", "size": 2}]"#)
        let catalog = Catalog()
        let heard = Mutex<[String]>([])
        catalog.observePreparation { [weak catalog] name in
            let ready = catalog?.dataset(name)?.isCached(.fields) == true
            heard.withLock { $0.append(ready ? name : "\(name) (fields not built)") }
        }
        _ = try catalog.loadAndWait(LoadRequest(name: "Things", source: .file(path: file), model: GenericModel.self))
        // The observer runs after the load has finished, on the loading thread.
        let deadline = Date().addingTimeInterval(10)
        while heard.withLock({ $0.isEmpty }), Date() < deadline { usleep(1000) }
        #expect(heard.withLock { $0 } == ["things"])
    }
}
