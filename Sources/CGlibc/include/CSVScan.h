#ifndef ALMANAC_CSV_SCAN_H
#define ALMANAC_CSV_SCAN_H
#include "CGlibc.h"

/// The first position from `index` in a CSV or TSV text that the reader must look at one byte
/// at a time: one of the four `stop` bytes (a delimiter, a line break, a quote, a backslash),
/// a byte of a three- or four-byte UTF-8 sequence, a malformed two-byte one, or the last 15
/// bytes of the input. Everything before it is plain ASCII or well-formed two-byte UTF-8
/// (Cyrillic, accented Latin), and it is always where a character starts. Sixteen bytes a
/// step (SSE2), as `almanac_json_string_run`.
static inline long almanac_csv_run(const unsigned char *bytes, long index, long count, unsigned char stop1,
                                   unsigned char stop2, unsigned char stop3, unsigned char stop4) {
#if defined(__SSE2__)
    const __m128i s1 = _mm_set1_epi8((char)stop1);
    const __m128i s2 = _mm_set1_epi8((char)stop2);
    const __m128i s3 = _mm_set1_epi8((char)stop3);
    const __m128i s4 = _mm_set1_epi8((char)stop4);
    unsigned carry = 0; // whether the byte before `index` is a lead byte C2–DF
    while (index + 16 <= count) {
        __m128i block = _mm_loadu_si128((const __m128i *)(bytes + index));
        unsigned high = (unsigned)_mm_movemask_epi8(block);
        unsigned special = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(block, s1), _mm_cmpeq_epi8(block, s2)),
                                                                    _mm_or_si128(_mm_cmpeq_epi8(block, s3), _mm_cmpeq_epi8(block, s4))));
        if (!(special | high) && !carry) { index += 16; continue; }
        unsigned lead;
        unsigned bad = special | almanac_utf8_pair_faults(block, carry, &lead);
        if (bad) return almanac_utf8_stop(index, bad, lead, carry);
        carry = lead >> 15;
        index += 16;
    }
    return carry ? index - 1 : index;
#else
    (void)bytes; (void)count; (void)stop1; (void)stop2; (void)stop3; (void)stop4;
    return index;
#endif
}

#endif
