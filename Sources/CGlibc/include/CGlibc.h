#ifndef ALMANAC_CGLIBC_H
#define ALMANAC_CGLIBC_H
#include <stddef.h>
#include <sys/types.h>

// glibc's GNU extensions, which Swift cannot see without _GNU_SOURCE.

// memmem: the fastest substring search at hand.
const void *almanac_memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length);

// The calling thread's id, for per-thread priorities.
pid_t almanac_gettid(void);

// malloc_trim: hands the allocator's free memory back to the system.
int almanac_malloc_trim(void);

// Mapped files that may shrink while they are read. Touching a mapped page past a file's new
// end raises SIGBUS; inside a guarded range the handler maps a page of zeros there instead
// (zeros are never valid JSON, so the parse fails) and records the hit, so the reader can
// read the file again instead of dying. Returns a guard number, or -1 when none is free.
int almanac_guard_mapping(const void *start, size_t length);
// Whether a SIGBUS hit the guarded range; the guard is kept.
int almanac_guard_was_hit(int guard);
// Ends the guard (before the range is unmapped).
void almanac_unguard_mapping(int guard);

#endif
