import Foundation
import Synchronization

/// A loaded dataset: its records, the document they live in, and what the load found.
///
/// Immutable: a reload builds a new `Dataset` off to the side and the catalog swaps it in whole,
/// so a query holding this one is never disturbed. Indexes are built lazily, once, by whoever
/// needs them first (or in the background after the load).
public final class Dataset: Sendable {
    public let name: String
    public let model: any RecordModel.Type
    public let document: JSONDocument
    /// Node index of each record's object, in source order.
    public let records: [Int]
    public let warnings: [LoadWarning]
    public let origin: LoadOrigin
    /// Model-specific data from the extraction (see `StationModel.Extras`).
    public let extras: ModelExtras
    /// The field that names a record, and the columns of a listing.
    public let layout: Layout

    let caches = Mutex(Caches())
    /// The other datasets of the catalog this one is in, for fields that link into them.
    /// In a struct, not as a bare function: a Mutex of a function type reabstracts it on every
    /// inout access, wrapping the stored closure in two more thunks each time it is read, so
    /// calls through it grew slower with every query (100,000 fuzz lines took ten minutes).
    let neighbours = Mutex<Neighbours?>(nil)

    struct Neighbours: Sendable {
        let find: @Sendable (String) -> Dataset?
        /// The links a path may cross from a dataset, by its name (the catalog's, declared ones too).
        var links: @Sendable (String) -> [LinkDefinition] = { _ in [] }
    }
    /// Tells this dataset from any other ever made (a reload is a new one).
    let serial = Dataset.serials.add(1, ordering: .relaxed).newValue
    private static let serials = Atomic<UInt64>(0)

    struct Caches {
        var shared: [String: OnceBox] = [:]
    }

    /// A value computed once. The first caller computes it; callers arriving meanwhile (a
    /// search typed while the index builds in the background) wait, and stop waiting on
    /// Ctrl-C. A computation that was cancelled leaves nothing behind, and the next caller
    /// starts again.
    final class OnceBox: @unchecked Sendable {
        // Guarded by `condition`.
        private let condition = NSCondition()
        private var value: (any Sendable)?
        private var computing = false

        var isReady: Bool {
            condition.lock()
            defer { condition.unlock() }
            return value != nil
        }

        func get<Value: Sendable>(cancellation: Cancellation, _ make: (Cancellation) -> Value?) throws(CancelledError) -> Value {
            condition.lock()
            while true {
                if let known = value as? Value { condition.unlock(); return known }
                if !computing { break }
                if cancellation.isCancelled { condition.unlock(); throw CancelledError() }
                _ = condition.wait(until: Date().addingTimeInterval(0.05))
            }
            computing = true
            condition.unlock()
            let made = make(cancellation)
            condition.lock()
            computing = false
            if let made { value = made }
            condition.broadcast()
            condition.unlock()
            guard let made else { throw CancelledError() }
            return made
        }
    }

    /// The storage of `records`, read without reference counting (see `JSONDocument.node`).
    nonisolated(unsafe) private let recordBase: UnsafePointer<Int>

    /// `layout` replaces the model's choice (rows fetched from a database table keep the
    /// table's name field, whatever one page of them holds).
    public init(name: String, model: any RecordModel.Type, document: JSONDocument, extraction: Extraction, origin: LoadOrigin,
                layout: Layout? = nil) {
        self.name = name
        self.model = model
        self.document = document
        self.records = extraction.records
        self.recordBase = extraction.records.withUnsafeBufferPointer { $0.baseAddress ?? UnsafePointer(bitPattern: 8)! }
        self.warnings = extraction.warnings
        self.extras = extraction.extras
        self.origin = origin
        self.layout = layout ?? model.layout(of: document, records: extraction.records)
    }

    public var count: Int { records.count }

    /// The record at `row` (0-based position in the dataset).
    public func record(_ row: Int) -> JSONValue { JSONValue(document: document, index: records[row]) }

    /// The record's name: its name field, or `#row` when it has none.
    public func name(of row: Int) -> String { names[row] }

    /// Every record's name, computed once.
    public var names: [String] {
        cached(.names) {
            let key = document.key(layout.nameField)
            return records.enumerated().map { row, node in
                if let value = document.member(key, of: node), document.kind(at: value) == .string {
                    return document.string(at: value)
                }
                return "#\(row + 1)"
            }
        }
    }

    /// The row `show` finds for an identity (`NOR`, `no`, `9362`), ignoring case.
    public func row(forIdentity identity: String) -> Int? {
        let index = cached(.identities) {
            var index: [String: Int] = [:]
            for row in 0..<count {
                for key in identities(of: row) where index[key] == nil { index[key] = row }
            }
            return index
        }
        return index[identity.uppercased()]
    }

    /// The top-level field that tells one record from another, when the dataset has one: its
    /// model's identity (a country's alpha3Code, a station's stationId), else the layout's key
    /// (a file's `id`, or `load … key FIELD`). An export declares it unique on the table it writes.
    public var keyField: String? { model.fieldSpecs.first(where: \.identity)?.key ?? layout.identityField }

    /// What `show` finds the record at `row` by, upper-cased: its model's identities (`NOR`,
    /// `NO`), and the value of the layout's key field (a file's `id`, or `load … key FIELD`).
    public func identities(of row: Int) -> [String] {
        var identities = model.identities(of: record(row))
        if let field = layout.identityField, let value = document.member(field, of: records[row]) {
            switch document.kind(at: value) {
            case .string, .number: identities.append(document.string(at: value).uppercased())
            default: break
            }
        }
        return identities
    }

    /// Anything computed once per dataset (indexes, lookups), by whoever needs it first.
    public func cached<Value: Sendable>(_ key: CacheKey<Value>, _ make: () -> Value) -> Value {
        // Never cancelled, so never fails.
        (try? box(key).get(cancellation: .never) { _ in make() })!
    }

    /// Like `cached`, for work a person waits for: Ctrl-C stops the wait, and stops the work
    /// when this caller is the one doing it (`make` returns nil when it was cancelled).
    public func cached<Value: Sendable>(_ key: CacheKey<Value>, cancellation: Cancellation,
                                        _ make: (Cancellation) -> Value?) throws(CancelledError) -> Value {
        try box(key).get(cancellation: cancellation, make)
    }

    /// Whether `cached(key)` has been computed.
    public func isCached<Value>(_ key: CacheKey<Value>) -> Bool { box(key).isReady }

    private func box<Value>(_ key: CacheKey<Value>) -> OnceBox {
        let name = key.name + linkState
        return caches.withLock { caches in
            if let box = caches.shared[name] { return box }
            let box = OnceBox()
            caches.shared[name] = box
            return box
        }
    }

    // MARK: - Links

    /// Reads links through `lookup` (the catalog's datasets by name). The catalog calls it.
    public func link(through lookup: @escaping @Sendable (String) -> Dataset?) { neighbours.withLock { $0 = Neighbours(find: lookup) } }

    /// Reads the datasets and the links of `catalog` (held weakly: a dataset never keeps its catalog alive).
    public func link(to catalog: Catalog) {
        neighbours.withLock {
            $0 = Neighbours(find: { [weak catalog] in catalog?.dataset($0) }, links: { [weak catalog] in catalog?.links(from: $0) ?? [] })
        }
    }

    /// The dataset `name` of this one's catalog, and the links a path may cross from `name`.
    func neighbour(_ name: String) -> Dataset? { neighbours.withLock { $0 }?.find(name) }
    func links(from name: String) -> [LinkDefinition] { neighbours.withLock { $0 }?.links(name) ?? [] }

    /// Links into the datasets beside this one (none when it is in no catalog).
    public var links: Links {
        let lookup = neighbours.withLock { $0 }
        return Links { lookup?.find($0) }
    }

    /// Which of the linked datasets are there now, and which contents (`#12#7--…`): what is
    /// computed through links is kept per state, so planets loaded (or reloaded) after people
    /// are read afresh, never through a stale answer.
    private var linkState: String {
        guard !model.linkedDatasets.isEmpty, let lookup = neighbours.withLock({ $0 }) else { return "" }
        return model.linkedDatasets.map { lookup.find($0).map { "#\($0.serial)" } ?? "-" }.joined()
    }

    // MARK: - Fields

    /// A path resolved against this dataset once, for use on many records.
    public struct CompiledPath: Sendable {
        public let path: FieldPath
        let keys: [JSONDocument.Key]
        let derived: DerivedField?
        /// Per component, every spelling of its key the document has, when some component has
        /// a twin that differs only by `_`/`-` (`iso639_1`, `iso639-1`): those are one field.
        let spellings: [[JSONDocument.Key]]?
        /// Per component, the keys a record is walked by (`spellings`, else `keys` one each):
        /// made once here, not per record.
        let lookups: [[JSONDocument.Key]]

        /// Whether the path reads keys spelt more than one way (then no column stands for it).
        public var hasTwinSpellings: Bool { spellings != nil }
    }

    /// What a path reaches in one record, found without walking lists.
    public enum ScalarLookup {
        case missing
        case node(Int)
        /// A list, an object, or a derived field: walk with `forEachValue`.
        case several
    }

    /// `derived`: whether a field the model computes replaces the source's of the same name
    /// (a link reads the source's urls, not the names they read as).
    public func compile(_ path: FieldPath, derived readsDerived: Bool = true) -> CompiledPath {
        let derived = readsDerived && path.components.count == 1 ? model.derivedFields.first { $0.name == path.components[0] } : nil
        var spellings: [[JSONDocument.Key]] = []
        var twins = false
        for component in path.components {
            var keys = [document.key(component)]
            if component.contains("_") || component.contains("-") {
                for twin in [component.replacingOccurrences(of: "-", with: "_"), component.replacingOccurrences(of: "_", with: "-")]
                where twin != component {
                    let key = document.key(twin)
                    if case .interned = key, !keys.contains(key) { keys.append(key); twins = true }
                }
            }
            spellings.append(keys)
        }
        return CompiledPath(path: path, keys: spellings.map { $0[0] }, derived: derived, spellings: twins ? spellings : nil,
                            lookups: spellings)
    }

    /// The single value `path` reaches in the record at `row`, when it reaches a single one.
    @inline(__always)
    public func scalar(of path: CompiledPath, row: Int) -> ScalarLookup {
        if path.derived != nil || path.spellings != nil { return .several }
        var node = recordBase[row]
        for key in path.keys {
            switch document.kind(at: node) {
            case .object:
                guard let value = document.member(key, of: node) else { return .missing }
                node = value
            case .array: return .several
            default: return .missing
            }
        }
        switch document.kind(at: node) {
        case .array, .object: return .several
        default: return .node(node)
        }
    }

    /// Calls `body` with each value `path` reaches in the record at `row`. Arrays on the way and
    /// at the end are looked through (a path matches when any element does); an object at the
    /// end gives its members' values.
    @inline(__always)
    public func forEachValue(of path: CompiledPath, row: Int, _ body: (FieldValue) -> Void) {
        if let derived = path.derived {
            for value in derived.values(self, row) { body(value) }
            return
        }
        visit(records[row], depth: 0, keys: path.lookups, objects: .members, body)
    }

    /// Calls `body` with each whole value `path` reaches in the record at `row`: as
    /// `forEachValue`, but an object at the end is one value (its node), not its members'
    /// values, and a list of objects gives each object. What `group`, `describe` and
    /// listings read, so a record with an object counts once (see `ObjectIdentity`).
    public func forEachWholeValue(of path: CompiledPath, row: Int, _ body: (FieldValue) -> Void) {
        if path.derived != nil { return forEachValue(of: path, row: row, body) }
        visit(records[row], depth: 0, keys: path.lookups, objects: .whole, body)
    }

    public func wholeValues(of path: CompiledPath, row: Int) -> [FieldValue] {
        var result: [FieldValue] = []
        forEachWholeValue(of: path, row: row) { result.append($0) }
        return result
    }

    public func values(of path: CompiledPath, row: Int) -> [FieldValue] {
        var result: [FieldValue] = []
        forEachValue(of: path, row: row) { result.append($0) }
        return result
    }

    /// `keys`: per component, the spellings to look for (usually one). `objects`: how an
    /// object where the path ends is read (its members' values, itself, or its name).
    func visit(_ node: Int, depth: Int, keys: [[JSONDocument.Key]], objects: ObjectReading, _ body: (FieldValue) -> Void) {
        switch document.kind(at: node) {
        case .object:
            if depth < keys.count {
                for key in keys[depth] {
                    if let value = document.member(key, of: node) { visit(value, depth: depth + 1, keys: keys, objects: objects, body) }
                }
                return
            }
            switch objects {
            case .whole:
                return body(.node(node))
            case let .named(naming) where !naming.isEmpty:
                if let name = ObjectIdentity.member(of: node, in: document, keys: naming) { return body(.node(name)) }
            default:
                break
            }
            // Inside an object read by its members, nested objects are read by theirs too.
            var child = node + 2
            for _ in 0..<document.count(at: node) {
                visit(child + 1, depth: depth, keys: keys, objects: .members, body)
                child = document.end(of: child + 1)
            }
        case .array:
            var child = node + 2
            for _ in 0..<document.count(at: node) {
                visit(child, depth: depth, keys: keys, objects: objects, body)
                child = document.end(of: child)
            }
        default:
            if depth == keys.count { body(.node(node)) }
        }
    }

    /// The text of a value, as a person would read it.
    public func text(of value: FieldValue) -> String {
        switch value {
        case let .node(index):
            switch document.kind(at: index) {
            case .string, .number: return document.string(at: index)
            case .true: return "true"
            case .false: return "false"
            case .null: return "null"
            case .array, .object: return JSONWriter.string(document.value(at: index))
            }
        case let .text(text): return text
        case let .number(number): return NumberFormat.plain(number)
        }
    }

    /// The number a value holds, if it is one (numbers, and text that reads as a number).
    public func number(of value: FieldValue) -> Double? {
        switch value {
        case let .node(index):
            switch document.kind(at: index) {
            case .number: return document.number(at: index)
            default: return nil
            }
        case .text: return nil
        case let .number(number): return number
        }
    }

    /// The fields records have, with types, counts and examples (computed once).
    public var fields: FieldCatalog { (try? fields(cancellation: .never))! }

    /// Datasets up to this many records index in a few milliseconds: TAB may wait for that.
    public static let smallEnoughToWaitFor = 20_000

    /// The fields if they are inferred, or cheap to infer now (completion never waits long).
    public var fieldsIfReady: FieldCatalog? { isCached(.fields) || count <= Self.smallEnoughToWaitFor ? fields : nil }

    /// The fields, waiting (interruptibly) for them to be inferred.
    public func fields(cancellation: Cancellation) throws(CancelledError) -> FieldCatalog {
        try cached(.fields, cancellation: cancellation) { FieldCatalog(inferringFrom: self, cancellation: $0) }
    }
}

/// Where a dataset came from and what loading it cost.
public struct LoadOrigin: Sendable, Equatable {
    /// A path or URL, with any credentials removed.
    public var source: String
    public var bytes: Int
    public var seconds: Double
    /// Where in an object document the records were (`data.items`).
    public var recordsAt: String?
    /// A delimited text's dialect and columns (`CSV (;), 7 columns`); nil for JSON.
    public var format: String?
    /// A delimited text's columns as its header names them: fields even when no row fills one
    /// (a header alone is a dataset of no records with these fields).
    public var columns: [String] = []

    public init(source: String, bytes: Int, seconds: Double) {
        self.source = source
        self.bytes = bytes
        self.seconds = seconds
    }
}

/// A dotted path to a field: `region`, `currencies.code`, `point.latitude`.
public struct FieldPath: Hashable, Sendable, CustomStringConvertible {
    public let components: [String]

    public init(_ dotted: String) { components = dotted.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }
    public init(components: [String]) { self.components = components }

    public var description: String { components.joined(separator: ".") }
}
