import CGlibc
#if canImport(Glibc)
import Glibc
#endif

/// Pages of memory of our own, asked of the kernel in one call each rather than a fault at
/// a time: populated before they are written, or moved to another address.
enum Pages {
    static let size = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Faults in the pages holding `bytes` from `start` (MADV_POPULATE_WRITE, Linux 5.14),
    /// cheaper than a fault per page as they are written. Populating never changes what a
    /// page holds. False when the system would not (the pages then fault as usual).
    @discardableResult
    static func populate(_ start: UnsafeRawPointer, bytes: Int) -> Bool {
        #if os(Linux)
        let from = Int(bitPattern: start) & ~(size - 1)
        let to = (Int(bitPattern: start) + bytes + size - 1) & ~(size - 1)
        guard to > from else { return true }
        return madvise(UnsafeMutableRawPointer(bitPattern: from), to - from, 23 /* MADV_POPULATE_WRITE */) == 0
        #else
        return false
        #endif
    }

    /// The bytes to skip from `target` so that it has `source`'s offset within a page.
    static func gap(to target: UnsafeRawPointer, from source: UnsafeRawPointer) -> Int {
        (Int(bitPattern: source) - Int(bitPattern: target)) & (size - 1)
    }

    /// Puts bytes at another address by moving the pages that hold them (page tables change
    /// hands) instead of copying them: nothing is copied, and the kernel clears no fresh pages
    /// at the target. Only whole pages move; the bytes on the first and last, partial, pages
    /// are copied. `count` bytes from `source` to `target`, ranges apart, with the same offset
    /// in a page (see `gap`). The source's moved pages then read as zeros. False when the system cannot
    /// move pages (before Linux 5.7): nothing has changed then.
    static func move(_ source: UnsafeMutableRawPointer, count: Int, to target: UnsafeMutableRawPointer) -> Bool {
        let mask = size - 1
        let from = Int(bitPattern: source)
        precondition((from - Int(bitPattern: target)) & mask == 0, "page offsets differ")
        let firstPage = (from + mask) & ~mask
        let endPage = (from + count) & ~mask
        if endPage > firstPage {
            #if os(Linux)
            guard almanac_move_pages(UnsafeMutableRawPointer(bitPattern: firstPage), endPage - firstPage, target + (firstPage - from)) == 0 else { return false }
            #else
            return false
            #endif
            target.copyMemory(from: source, byteCount: firstPage - from)
            (target + (endPage - from)).copyMemory(from: source + (endPage - from), byteCount: from + count - endPage)
        } else {
            target.copyMemory(from: source, byteCount: count)
        }
        return true
    }
}
