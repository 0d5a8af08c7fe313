/// Checks records against a model's field specs, compiled once for one document.
///
/// Most of a load's records pass every check, so the passing path is made cheap: the specs are
/// plain values (no strings to retain per record), and each record's members are walked once,
/// with each member position remembering the key it held last time and the spec that key
/// matched (objects of one kind name their keys in the same order), so a member usually costs
/// one comparison. Warnings, their words and their order are those of checking each spec in turn.
struct RecordChecker: @unchecked Sendable {
    // @unchecked: the document is immutable; the rest are plain values.
    let document: JSONDocument
    let fieldSpecs: [FieldSpec]
    let specs: [CompiledSpec]
    let nameKey: JSONDocument.Key
    /// Keys longer than the intern limit, by spec (rare): compared as text.
    private let longKeys: [String?]
    /// Whether any object repeated a key (most documents: none, and no lookup per record).
    private let hasRepeatedKeys: Bool

    /// A spec reduced to what the passing path reads: trivially copyable.
    struct CompiledSpec {
        /// The key's interned node word; 0 (never a string's word) when long or absent.
        var keyWord: UInt64
        var isLong: Bool
        /// One bit per node tag (`Kind` raw value) that passes without a look at the value:
        /// null, numeric text and lists go the long way.
        var accepted: UInt16
    }

    init(_ fieldSpecs: [FieldSpec], nameField: String, in document: JSONDocument) {
        self.document = document
        self.fieldSpecs = fieldSpecs
        nameKey = document.key(nameField)
        hasRepeatedKeys = !document.repeatedKeys.isEmpty
        var longKeys: [String?] = []
        specs = fieldSpecs.map { spec in
            var word: UInt64 = 0
            switch document.key(spec.key) {
            case let .interned(node): word = node; longKeys.append(nil)
            case .long: longKeys.append(spec.key)
            case .absent: longKeys.append(nil)
            }
            return CompiledSpec(keyWord: word, isLong: longKeys.last! != nil, accepted: Self.accepted(spec.expected))
        }
        self.longKeys = longKeys
    }

    /// The index of the spec for `key`, if there is one.
    func specIndex(_ key: String) -> Int? { fieldSpecs.firstIndex { $0.key == key } }

    /// Per-thread memory of a run of checks: where each spec was found in the last record, and
    /// what each member position held before.
    final class Scratch {
        /// Per spec: the node of its value in the record just checked, or -1.
        let found: UnsafeMutableBufferPointer<Int>
        /// Per member position: the key word it held last, and the first spec with that key (-1: none).
        let slotWord: UnsafeMutableBufferPointer<UInt64>
        let slotSpec: UnsafeMutableBufferPointer<Int>

        init(specs: Int, slots: Int = 64) {
            found = .allocate(capacity: specs)
            found.initialize(repeating: -1)
            slotWord = .allocate(capacity: slots)
            slotWord.initialize(repeating: 0)
            slotSpec = .allocate(capacity: slots)
            slotSpec.initialize(repeating: -1)
        }

        deinit {
            found.deallocate()
            slotWord.deallocate()
            slotSpec.deallocate()
        }
    }

    func makeScratch() -> Scratch { Scratch(specs: specs.count) }

    /// Checks the object at `record` against the specs, appending its warnings. Returns false
    /// when it must be skipped. `scratch.found` then holds where each spec's value is.
    func check(_ record: Int, number: Int, warnings: inout [LoadWarning], scratch: Scratch) -> Bool {
        specs.withUnsafeBufferPointer { specs in
            find(specs, in: record, scratch: scratch)
            return judge(specs, record: record, number: number, found: scratch.found, warnings: &warnings)
        }
    }

    /// Fills `scratch.found` in one walk over the record's members.
    @inline(__always)
    private func find(_ specs: UnsafeBufferPointer<CompiledSpec>, in record: Int, scratch: Scratch) {
        let found = scratch.found
        for index in found.indices { found[index] = -1 }
        let slotWord = scratch.slotWord
        let slotSpec = scratch.slotSpec
        var child = record + 2
        for slot in 0..<document.count(at: record) {
            let word = document.node(child)
            if slot < slotWord.count, slotWord[slot] == word {
                let spec = slotSpec[slot]
                if spec < 0 || found[spec] < 0 {
                    if spec >= 0 { found[spec] = child + 1 }
                    child = document.end(of: child + 1)
                    continue
                }
            }
            // The first unfound spec with this key takes the value; the first spec with it is remembered.
            var first = -1
            for index in specs.indices where matches(specs[index], index, key: child, word: word) {
                if first < 0 { first = index }
                if found[index] < 0 {
                    found[index] = child + 1
                    break
                }
            }
            if slot < slotWord.count {
                slotWord[slot] = word
                slotSpec[slot] = first
            }
            child = document.end(of: child + 1)
        }
    }

    @inline(__always)
    private func matches(_ spec: CompiledSpec, _ index: Int, key: Int, word: UInt64) -> Bool {
        if spec.keyWord != 0 { return spec.keyWord == word }
        guard spec.isLong, let text = longKeys[index] else { return false }
        return document.string(at: key) == text
    }

    /// The warnings of the found values, in spec order.
    @inline(__always)
    private func judge(_ specs: UnsafeBufferPointer<CompiledSpec>, record: Int, number: Int,
                       found: UnsafeMutableBufferPointer<Int>, warnings: inout [LoadWarning]) -> Bool {
        // Once per record, whatever it repeated (the parser kept each key's last value).
        if hasRepeatedKeys, let repeated = document.repeatedKey(within: record) {
            warnings.append(LoadWarning(record: number, name: recordName(record), message: repeated.message))
        }
        for index in specs.indices {
            let value = found[index]
            if value >= 0, specs[index].accepted >> (document.node(value) >> JSONDocument.tagShift) & 1 != 0 { continue }
            if warn(index, value: value, record: record, number: number, warnings: &warnings) { return false }
        }
        return true
    }

    /// The kinds that need no further look, as bits by `Kind` raw value.
    private static func accepted(_ expected: FieldSpec.Expected) -> UInt16 {
        let kinds: [JSONDocument.Kind] = switch expected {
        case .string: [.string]
        case .number, .numericText: [.number]
        case .bool: [.true, .false]
        case .object: [.object]
        case .list: []
        }
        return kinds.reduce(0) { $0 | 1 << UInt16($1.rawValue) }
    }

    /// The slow path of one spec: its warning, if any; true when the record must be skipped.
    private func warn(_ index: Int, value: Int, record: Int, number: Int, warnings: inout [LoadWarning]) -> Bool {
        let spec = fieldSpecs[index]
        guard value >= 0 else {
            if spec.identity {
                warnings.append(LoadWarning(record: number, name: recordName(record), message: "skipped: it has no '\(spec.key)'"))
                return true
            }
            if !spec.optional {
                warnings.append(LoadWarning(record: number, name: recordName(record), message: "\(spec.key) is missing"))
            }
            return false
        }
        guard let problem = RecordExtraction.problem(with: value, for: spec, in: document) else { return false }
        if spec.identity {
            warnings.append(LoadWarning(record: number, name: recordName(record), message: "skipped: \(problem)"))
            return true
        }
        warnings.append(LoadWarning(record: number, name: recordName(record), message: problem))
        return false
    }

    /// The record's name for its warnings.
    private func recordName(_ record: Int) -> String? {
        guard let value = document.member(nameKey, of: record), document.kind(at: value) == .string else { return nil }
        return document.string(at: value)
    }
}
