import CGlibc
#if canImport(Glibc)
import Glibc
#endif

/// Puts bytes at another address by moving the pages that hold them (page tables change
/// hands) instead of copying them: nothing is copied, and the kernel clears no fresh pages
/// at the target. Only whole pages move; the bytes on the first and last, partial, pages
/// are copied. The source's and the target's offsets within a page must agree (see `gap`).
enum PageMove {
    static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// The bytes to skip from `target` so that it has `source`'s offset within a page.
    static func gap(to target: UnsafeRawPointer, from source: UnsafeRawPointer) -> Int {
        (Int(bitPattern: source) - Int(bitPattern: target)) & (pageSize - 1)
    }

    /// Moves `count` bytes from `source` to `target`, ranges apart, with the same offset in
    /// a page. The source's moved pages then read as zeros. False when the system cannot
    /// move pages (before Linux 5.7): nothing has changed then.
    static func move(_ source: UnsafeMutableRawPointer, count: Int, to target: UnsafeMutableRawPointer) -> Bool {
        let mask = pageSize - 1
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
