import CGlibc

/// Memory the program freed but the allocator keeps in its heaps (glibc returns the top of a
/// heap on its own, not the holes below it).
public enum FreedMemory {
    /// Gives it back to the system: after work that freed tens of megabytes, so that the
    /// resident size is what is really held.
    public static func giveBack() {
        _ = almanac_malloc_trim()
    }

    /// Keeps the buffers of one answer for the next, from the start of a process: a question
    /// on 400,000 records makes arrays of a few megabytes and frees them, which glibc by
    /// default maps and unmaps each time (its threshold only rises to the largest freed), so
    /// every answer faulted its pages in afresh: half of `describe cityTitle`'s CPU at 100×
    /// (33 -> 15 ms). Blocks of up to 16 MB now come from the heap, and up to 64 MB free at
    /// its top is kept; a load's peak and its trimmed size after (`giveBack`) are unchanged.
    public static func keepWorkingBuffers() {
        _ = almanac_keep_working_buffers(16 << 20, 64 << 20)
    }
}
