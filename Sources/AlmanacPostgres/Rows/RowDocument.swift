import AlmanacCore
import Foundation

/// Rows fetched from a table (each a `row_to_json` object) as a small in-memory `Dataset`, so
/// `show`, detail views and every output format work on them unchanged. JSON and jsonb
/// columns arrive as nested values, arrays as lists, and almanac's own parser reads them.
enum RowDocument {
    static func dataset(_ result: PostgresResult, column: Int = 0, name: String, layout: Layout, source: String,
                        started: Date = Date(), extras: ModelExtras = ModelExtras()) throws -> Dataset {
        var bytes = 0
        for row in 0..<result.rowCount { bytes += result.withBytes(row, column) { $0.count } }
        var builder = JSONDocumentBuilder(expectedBytes: bytes)
        for row in 0..<result.rowCount {
            try result.withBytes(row, column) { text throws in
                do {
                    _ = try JSONParser.parse(text, source: "\(source), row \(row + 1)", into: &builder)
                } catch {
                    throw PostgresError.invalid("\(name): a row the server sent is not JSON: \(error)")
                }
            }
        }
        let document = builder.finish()
        return Dataset(name: name, model: GenericModel.self, document: document, extraction: Extraction(records: document.roots, extras: extras),
                       origin: LoadOrigin(source: source, bytes: bytes, seconds: Date().timeIntervalSince(started)), layout: layout)
    }

    static func empty(name: String, layout: Layout, source: String) -> Dataset {
        var builder = JSONDocumentBuilder()
        let document = builder.finish()
        return Dataset(name: name, model: GenericModel.self, document: document, extraction: Extraction(records: []),
                       origin: LoadOrigin(source: source, bytes: 0, seconds: 0), layout: layout)
    }
}
