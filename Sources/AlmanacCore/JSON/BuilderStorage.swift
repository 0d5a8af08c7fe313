/// A growing run of elements that the builder writes through a pointer: appends skip the
/// uniqueness and capacity checks (and the generic copy) that Array pays on each call, yet
/// the finished Array is the very buffer written, trimmed, not a copy of it.
///
/// The buffer is an Array whose count is its whole capacity (elements past `count` are not
/// written yet). A copy of the storage shares the buffer: copies are for reading only.
struct BuilderStorage<Element: BitwiseCopyable> {
    private var array: [Element]
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private(set) var capacity: Int
    /// Elements of room before `base`, never counted: a detached builder's nodes move down
    /// into it when merged (see `JSONDocumentBuilder.appendDetached`).
    let front: Int

    init(capacity: Int, front: Int = 0) {
        self.capacity = max(1, capacity)
        self.front = front
        (array, base) = Self.allocate(self.capacity, front: front)
    }

    private static func allocate(_ capacity: Int, front: Int) -> ([Element], UnsafeMutablePointer<Element>) {
        // Uninitialized: reserved pages stay untouched until written, as with reserveCapacity.
        var array = [Element](unsafeUninitializedCapacity: front + capacity) { _, initialized in initialized = front + capacity }
        let base = array.withUnsafeMutableBufferPointer { $0.baseAddress! + front }
        return (array, base)
    }

    var buffer: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

    /// A copy of the elements written.
    var elements: [Element] { Array(buffer) }

    /// Where the storage is, for `JSONSplit`'s prefaulting (the address as an integer).
    var extent: (address: Int, count: Int, capacity: Int) { (Int(bitPattern: base), count, capacity) }

    subscript(index: Int) -> Element {
        @inline(__always) get { base[index] }
        @inline(__always) set { base[index] = newValue }
    }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow(minimum: count + 1) }
        base[count] = element
        count += 1
    }

    @inline(__always)
    mutating func append(_ first: Element, _ second: Element) {
        if capacity - count < 2 { grow(minimum: count + 2) }
        base[count] = first
        base[count + 1] = second
        count += 2
    }

    mutating func removeLast(_ k: Int) {
        precondition(k >= 0 && k <= count, "removing more elements than written")
        count -= k
    }

    /// Room for `total` elements, allocated exactly (as Array's reserveCapacity).
    mutating func reserve(_ total: Int) {
        if total > capacity { reallocate(total) }
    }

    /// Counts `added` more elements and returns where they go (room allocated exactly, as
    /// Array's reserveCapacity): the caller writes them all before anything reads them.
    mutating func claim(_ added: Int) -> UnsafeMutablePointer<Element> {
        reserve(count + added)
        count += added
        return base + (count - added)
    }

    /// Elements from `count` whose pages are populated already (see `populate(ahead:)`).
    private(set) var populatedEnd = 0

    /// Faults in, with one call, the pages of the next `ahead` elements not populated yet:
    /// cheaper than a page fault for each as the appends reach them.
    mutating func populate(ahead: Int) {
        let end = min(capacity, count + ahead)
        let from = max(populatedEnd, count)
        guard end - from >= Pages.size / MemoryLayout<Element>.stride else { return }
        populatedEnd = end
        Pages.populate(base + from, bytes: (end - from) * MemoryLayout<Element>.stride)
    }

    @inline(never)
    mutating func grow(minimum: Int) {
        reallocate(max(minimum, capacity * 2))
    }

    private mutating func reallocate(_ newCapacity: Int) {
        let (newArray, newBase) = Self.allocate(newCapacity, front: front)
        newBase.update(from: base, count: count)
        array = newArray
        base = newBase
        capacity = newCapacity
        populatedEnd = 0
    }

    /// The Array of the elements written, in the buffer they were written to. The next
    /// append goes to a new buffer, leaving the returned Array as it is.
    mutating func finished() -> [Element] {
        precondition(front == 0, "storage with room in front is merged, not finished")
        if array.count != count { array.removeLast(array.count - count) }
        // Trimming copied the buffer if it was shared (a copy of the builder still alive).
        if let trimmed = array.withUnsafeBufferPointer({ $0.baseAddress }) { base = UnsafeMutablePointer(mutating: trimmed) }
        capacity = count
        return array
    }
}

extension BuilderStorage where Element == UInt8 {
    /// Appends `bytes`: short ones (most strings and number literals) copied inline in a few
    /// overlapping word loads and stores, longer ones by memcpy.
    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        let length = bytes.count
        guard let source = bytes.baseAddress, length > 0 else { return }
        if capacity - count < length { grow(minimum: count + length) }
        ShortBytes.copy(source, to: base + count, count: length)
        count += length
    }
}
