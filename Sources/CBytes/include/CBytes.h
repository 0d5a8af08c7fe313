#ifndef ALMANAC_CBYTES_H
#define ALMANAC_CBYTES_H
#include <stddef.h>

// glibc's memmem (a GNU extension Swift cannot see): the fastest substring search at hand.
const void *almanac_memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length);

#endif
