#define _GNU_SOURCE
#include "CGlibc.h"
#include <string.h>
#include <unistd.h>

const void *almanac_memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length) {
    return memmem(haystack, haystack_length, needle, needle_length);
}

pid_t almanac_gettid(void) { return gettid(); }
