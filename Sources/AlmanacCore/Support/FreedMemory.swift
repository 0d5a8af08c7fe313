import CGlibc

/// Memory the program freed but the allocator keeps in its heaps (glibc returns the top of a
/// heap on its own, not the holes below it).
public enum FreedMemory {
    /// Gives it back to the system: after work that freed tens of megabytes, so that the
    /// resident size is what is really held.
    public static func giveBack() {
        _ = almanac_malloc_trim()
    }
}
