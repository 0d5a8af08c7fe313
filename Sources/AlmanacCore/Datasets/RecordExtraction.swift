/// The common way records are found in a source and checked, shared by every model that
/// holds a list of objects.
public enum RecordExtraction {
    /// Records of an array of objects, of API pages (`results`), or of NDJSON lines.
    /// `path`: where the records are in an object document (`data.items`), as `load … at` says;
    /// without it, an object's largest array of objects a few levels down (`RecordsLocation`).
    public static func records(of model: any RecordModel.Type, in document: JSONDocument, source: String, at path: String? = nil,
                               cancellation: Cancellation = .never) throws(LoadFailure) -> Extraction {
        var records: [Int]
        let location: String?
        if let path {
            (records, location) = (try RecordsLocation.records(at: path, in: document, source: source), path)
        } else {
            (records, location) = try candidateRecords(in: document, source: source, expecting: model.plural)
        }
        var warnings: [LoadWarning] = []
        let checker = RecordChecker(model.fieldSpecs, nameField: model.nameField, in: document)
        let scratch = checker.makeScratch()
        // The records kept are moved down over the candidates, in place: a second list was
        // 3.2 MB more at the peak of the 100x stations CSV's load.
        var kept = 0
        for offset in 0..<records.count {
            let index = records[offset]
            if offset & 0x3FFF == 0, cancellation.isCancelled { throw .cancelled }
            let number = offset + 1
            guard document.kind(at: index) == .object else {
                warnings.append(LoadWarning(record: number, line: document.lineOfRoot[index],
                                            message: "skipped: expected an object, found \(document.kind(at: index).typeDescription)"))
                continue
            }
            if checker.check(index, number: number, warnings: &warnings, scratch: scratch) {
                records[kept] = index
                kept += 1
            }
        }
        records.removeLast(records.count - kept)
        var extraction = Extraction(records: records, warnings: warnings)
        extraction.recordsAt = location
        return extraction
    }

    /// The values that should be records, before checking, and the path to them when they
    /// were found under a key of an object.
    static func candidateRecords(in document: JSONDocument, source: String, expecting plural: String) throws(LoadFailure) -> ([Int], String?) {
        // NDJSON: each line is a record, however many lines there are; nothing inside a
        // line is looked into (a one-line file is not an object holding its records).
        if document.isLines { return (document.roots, nil) }
        if document.roots.count > 1 { return (document.roots.flatMap { pageRecords(document, $0) ?? [$0] }, nil) }
        guard let root = document.roots.first else { return ([], nil) }
        switch document.kind(at: root) {
        case .array:
            return (document.elements(of: root), nil)
        case .object:
            if let records = pageRecords(document, root) { return (records, nil) }
            // A GeoJSON FeatureCollection: its features are the records (map draws their geometry).
            if let type = document.member("type", of: root), document.kind(at: type) == .string,
               document.string(at: type) == "FeatureCollection", let features = document.member("features", of: root),
               document.kind(at: features) == .array {
                return (document.elements(of: features), nil)
            }
            if let results = document.member("results", of: root) {
                throw .shape(source: source, message: "'results' should be a list of \(plural); found \(document.kind(at: results).typeDescription)")
            }
            if let found = RecordsLocation.largestArrayOfObjects(in: document, under: root) {
                return (document.elements(of: found.node), found.path)
            }
            let keys = document.members(of: root).prefix(6).map { document.string(at: $0.key) }
            throw .shape(source: source, message: "expected an array of \(plural), API pages with 'results', a GeoJSON FeatureCollection, or one object per line; "
                + "found an object with keys \(keys.joined(separator: ", "))")
        default:
            throw .shape(source: source, message: "expected an array of \(plural); found \(document.kind(at: root).typeDescription)")
        }
    }

    /// The `results` of an API page (`count`, `next`, `previous`, `results`), or nil.
    static func pageRecords(_ document: JSONDocument, _ root: Int) -> [Int]? {
        guard let results = document.member("results", of: root), document.kind(at: results) == .array else { return nil }
        return document.elements(of: results)
    }

    /// What is wrong with `value` for `spec`, or nil.
    static func problem(with value: Int, for spec: FieldSpec, in document: JSONDocument) -> String? {
        let kind = document.kind(at: value)
        if kind == .null { return spec.nullable || spec.optional ? nil : "\(spec.key) is null" }
        func mismatch(_ expected: String) -> String {
            let shown = kind == .string ? " (\"\(document.string(at: value).prefix(40))\")" : ""
            return "\(spec.key): expected \(expected), found \(kind.typeDescription)\(shown)"
        }
        switch spec.expected {
        case .string: return kind == .string ? nil : mismatch("a string")
        case .number: return kind == .number ? nil : mismatch("a number")
        case .bool: return kind == .true || kind == .false ? nil : mismatch("true or false")
        case .object: return kind == .object ? nil : mismatch("an object")
        case .numericText:
            guard kind == .string else { return kind == .number ? nil : mismatch("a number in a string") }
            let text = document.string(at: value)
            return NumericText.value(of: text) == nil ? "\(spec.key) \"\(text.prefix(40))\" is not a number" : nil
        case let .list(elementKind):
            guard kind == .array else { return mismatch("a list") }
            for element in document.elements(of: value) where document.kind(at: element) != elementKind {
                return "\(spec.key): expected a list of \(elementKind.typeDescription)s, found \(document.kind(at: element).typeDescription) in it"
            }
            return nil
        }
    }
}


import Foundation
