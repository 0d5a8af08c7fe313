#define _GNU_SOURCE
#include "Scan.h"
#include <string.h>

// The sum of a byte accumulator's lanes (psadbw).
#if defined(__SSE2__)
static inline long lane_sum(__m128i lanes) {
    __m128i sums = _mm_sad_epu8(lanes, _mm_setzero_si128());
    return (long)_mm_cvtsi128_si32(sums) + (long)_mm_cvtsi128_si32(_mm_unpackhi_epi64(sums, sums));
}
#endif

// Bytes of bytes[*index..<to] for which `match` sets its lane, sixteen a step: each
// matching byte subtracts -1 from its lane of a byte accumulator, summed every 255 steps.
#if defined(__SSE2__)
static inline long count_matching(const unsigned char *bytes, long *index, long to, __m128i (*match)(__m128i)) {
    long total = 0;
    while (*index + 16 <= to) {
        __m128i lanes = _mm_setzero_si128();
        long steps = (to - *index) / 16;
        if (steps > 255) steps = 255;
        for (long step = 0; step < steps; step++, *index += 16) {
            lanes = _mm_sub_epi8(lanes, match(_mm_loadu_si128((const __m128i *)(bytes + *index))));
        }
        total += lane_sum(lanes);
    }
    return total;
}

static inline __m128i is_newline(__m128i block) { return _mm_cmpeq_epi8(block, _mm_set1_epi8('\n')); }

// Continuation bytes 80–BF are -128…-65 as signed bytes: a character starts above -65.
static inline __m128i starts_character(__m128i block) { return _mm_cmpgt_epi8(block, _mm_set1_epi8(-65)); }
#endif

long almanac_count_newlines(const unsigned char *bytes, long from, long to) {
    long total = 0;
    long index = from;
#if defined(__SSE2__)
    total = count_matching(bytes, &index, to, is_newline);
#endif
    for (; index < to; index++) total += bytes[index] == '\n';
    return total;
}

long almanac_count_characters(const unsigned char *bytes, long from, long to) {
    long total = 0;
    long index = from;
#if defined(__SSE2__)
    total = count_matching(bytes, &index, to, starts_character);
#endif
    for (; index < to; index++) total += (bytes[index] & 0xC0) != 0x80;
    return total;
}

long almanac_last_newline(const unsigned char *bytes, long from, long to) {
    if (to <= from) return -1;
    const unsigned char *found = memrchr(bytes + from, '\n', (size_t)(to - from));
    return found ? (long)(found - bytes) : -1;
}
