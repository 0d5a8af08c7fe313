#ifndef ALMANAC_CGLIBC_H
#define ALMANAC_CGLIBC_H
#include <stddef.h>
#include <sys/types.h>

// glibc's GNU extensions, which Swift cannot see without _GNU_SOURCE.

// memmem: the fastest substring search at hand.
const void *almanac_memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length);

// The calling thread's id, for per-thread priorities.
pid_t almanac_gettid(void);

#endif
