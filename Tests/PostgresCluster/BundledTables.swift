import AlmanacCore
import AlmanacPostgres
import Foundation
import Synchronization

/// The bundled datasets, in memory and exported into the test cluster, for tests that compare
/// the two.
public enum BundledData {
    public static let folder = PackagePaths.root + "/Data"

    private static let loaded = Mutex<[String: Dataset]>([:])

    /// The bundled dataset `name` as almanac loads it (its own model), once per run.
    public static func load(_ name: String) throws -> Dataset {
        if let known = loaded.withLock({ $0[name] }) { return known }
        guard let entry = DefaultDatasets.all.first(where: { $0.name == name }) else { throw ClusterError("no bundled dataset \(name)") }
        let request = LoadRequest(name: name, source: .file(path: folder + "/" + entry.file), model: entry.model)
        let dataset = try DatasetLoader().load(request, progress: LoadProgress(), cancellation: .never)
        loaded.withLock { $0[name] = dataset }
        return dataset
    }

    /// The same records as a generic dataset: what a table of them is to almanac (no model's
    /// derived fields, other names or layout), so memory and database answer the same question.
    public static func generic(_ name: String) throws -> Dataset {
        let key = name + "#generic"
        if let known = loaded.withLock({ $0[key] }) { return known }
        let typed = try load(name)
        var builder = JSONDocumentBuilder()
        for row in 0..<typed.count {
            let text = Array(JSONWriter.string(typed.record(row)).utf8)
            try text.withUnsafeBufferPointer { _ = try JSONParser.parse($0, source: name, into: &builder) }
        }
        let document = builder.finish()
        let dataset = Dataset(name: name, model: GenericModel.self, document: document, extraction: Extraction(records: document.roots),
                              origin: LoadOrigin(source: name, bytes: 0, seconds: 0))
        loaded.withLock { $0[key] = dataset }
        return dataset
    }
}

extension TestCluster {
    /// The bundled dataset `name` exported into the table `name` (once per run, through
    /// almanac's own writer) and attached.
    public func bundledTable(_ name: String) throws -> PostgresTable {
        try once("bundled \(name)") {
            let dataset = try BundledData.load(name)
            let written = try TableWriter.write(.all([dataset]), to: PostgresURL(url(table: name)), replace: true)
            guard written == dataset.count else { throw ClusterError("wrote \(written) of \(dataset.count) \(name)") }
        }
        return try PostgresTable.attach(name: name, url: PostgresURL(url(table: name)))
    }
}
