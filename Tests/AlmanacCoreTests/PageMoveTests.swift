import Testing
@testable import AlmanacCore

/// Bytes moved page by page arrive as they were; the source's whole pages are gone from
/// it (they moved, they were not copied), its partial first and last pages are not.
@Suite struct PageMoveTests {
    @Test(arguments: [0, 8, 1000, 4095])
    func movedBytesArriveAndTheSourceGivesUpItsWholePages(offset: Int) throws {
        let page = Pages.size
        let count = 5 * page + 123
        let source = UnsafeMutableRawPointer.allocate(byteCount: 8 * page, alignment: page)
        let target = UnsafeMutableRawPointer.allocate(byteCount: 8 * page, alignment: page)
        defer { source.deallocate(); target.deallocate() }
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 * 7 + 1) }
        (source + offset).copyMemory(from: bytes, byteCount: count)
        let landing = target + 100 + Pages.gap(to: target + 100, from: source + offset)
        #expect((Int(bitPattern: landing) - Int(bitPattern: source + offset)) % page == 0)

        #expect(Pages.move(source + offset, count: count, to: landing))
        #expect(Array(UnsafeRawBufferPointer(start: landing, count: count)) == bytes)
        // The second page of the source is whole for every offset: it moved.
        #expect(Array(UnsafeRawBufferPointer(start: source + page, count: page)) == [UInt8](repeating: 0, count: page))
        // The first byte sits on a partial page unless the offset is 0: then it moved too.
        #expect(source.load(fromByteOffset: offset, as: UInt8.self) == (offset == 0 ? 0 : bytes[0]))
    }
}
