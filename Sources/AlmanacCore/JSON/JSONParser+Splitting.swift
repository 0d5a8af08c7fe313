import CGlibc
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Taking over the part of a text another thread parsed (see `JSONSplit`).
extension JSONParser {
    /// At the element where the other thread's part starts: take its nodes when it parsed
    /// the rest of the text and fits here; otherwise go on alone.
    mutating func splice(into builder: inout JSONDocumentBuilder) throws(ParseFailure) {
        splitPosition = .max
        guard let split, let suffix = split.waitForSuffix(), suffix.levels.count == depth,
              depth + suffix.deepest <= limits.maximumDepth else { return }
        // Prefaulting for the merge would now only take the core the merge can use.
        split.abandon()
        let base = builder.appendDetached(suffix.builder, boundaries: suffix.boundaries, twoThreadsFrom: split.mergeOnTwoThreadsFrom,
                                          movePagesFrom: split.movePagesFrom)
        suffix.builder = JSONDocumentBuilder()
        split.markSpliced()
        unwinding = (suffix, base, 0, base)
        // The rest was parsed, and its pages given back, by the other thread: counting its
        // lines would read them all in again. An error past here counts from the bytes.
        lines.stopCounting(at: position)
        position = count
        throw .spliced
    }

    /// Closes a container the spliced part ends, with the members it added; passes the
    /// unwinding on to the enclosing container.
    mutating func closeSpliced(_ container: Int, _ kind: JSONDocument.Kind, counted: Int,
                                       into builder: inout JSONDocumentBuilder) throws(ParseFailure) {
        guard var unwinding, unwinding.next < unwinding.suffix.levels.count else { throw .splitMismatch }
        let level = unwinding.suffix.levels[unwinding.next]
        guard level.kind == kind else { throw .splitMismatch }
        // The element the split came in (the next one, at the innermost level) was not counted yet.
        let total = counted + (unwinding.next == 0 ? 0 : 1) + level.count
        builder.closeContainer(at: container, count: total, end: unwinding.base + level.end)
        // Where the element that held the split is, learnt here for free, saves a walk over
        // the elements before it to whoever splits work on this array again.
        if kind == .array { builder.elementMarks.append(JSONDocument.ElementMark(array: container, ordinal: counted, node: unwinding.inner)) }
        unwinding.inner = container
        // Nodes follow it already, so a repeated key cannot be dropped here: parse on one thread.
        if kind == .object, builder.repeatsAKey(object: container) { throw .splitMismatch }
        unwinding.next += 1
        self.unwinding = unwinding
        depth -= 1
        throw .spliced
    }

    /// The suffix parse proper (see `parseSuffix(_:from:…)`): the innermost level is an
    /// array whose next element starts here; each level's kind is learnt from its members
    /// (a string followed by ':' is a key) or its closing bracket.
    mutating func parseSuffix(into builder: inout JSONDocumentBuilder) throws(ParseFailure) -> [JSONSplit.Level] {
        var levels: [JSONSplit.Level] = []
        var kind: JSONDocument.Kind? = .array
        var items = 0
        var expectingItem = true
        while true {
            while true {
                if expectingItem {
                    skipWhitespace()
                    if kind == nil { kind = startsMember() ? .object : .array }
                    if kind == .object {
                        guard position < count, base[position] == UInt8(ascii: "\"") else {
                            throw .syntax(.expected("a key in quotes", found: describeHere()), offset: position)
                        }
                        try parseString(into: &builder, isKey: true)
                        try parseColon()
                    }
                    _ = try parseValue(into: &builder)
                    items += 1
                    if position >= nextProgress { try reportProgress(&builder) }
                }
                skipWhitespace()
                guard position < count else { throw .syntax(.unexpectedEnd(expected: "',' or a closing bracket"), offset: position) }
                let next = base[position]
                position += 1
                if next == UInt8(ascii: ",") {
                    expectingItem = true
                    continue
                }
                if next == UInt8(ascii: "]"), kind != .object { kind = .array; break }
                if next == UInt8(ascii: "}"), kind != .array { kind = .object; break }
                position -= 1
                throw .syntax(.expected("',' or a closing bracket", found: describeHere()), offset: position)
            }
            levels.append(JSONSplit.Level(kind: kind ?? .array, count: items, end: builder.nodeCount))
            skipWhitespace()
            if position >= count { return levels }
            // Back in the enclosing container, right after the member that held the one just closed.
            depth = -levels.count
            kind = nil
            items = 0
            expectingItem = false
        }
    }

    /// Whether the text here is a string followed by ':' (an object's key).
}
