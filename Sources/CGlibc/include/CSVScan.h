#ifndef ALMANAC_CSV_SCAN_H
#define ALMANAC_CSV_SCAN_H
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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
        // Continuation bytes 80–BF are -128…-65 as signed bytes; leads C2–DF are -62…-33.
        unsigned continuation = (unsigned)_mm_movemask_epi8(_mm_cmplt_epi8(block, _mm_set1_epi8(-64)));
        unsigned lead = (unsigned)_mm_movemask_epi8(_mm_and_si128(_mm_cmpgt_epi8(block, _mm_set1_epi8(-63)),
                                                                   _mm_cmplt_epi8(block, _mm_set1_epi8(-32))));
        unsigned expected = ((lead << 1) | carry) & 0xFFFF;
        unsigned bad = special | (high & ~(lead | continuation)) | (continuation ^ expected);
        if (bad) {
            long at = index + __builtin_ctz(bad);
            // Never inside a pair: a bad byte after a lead sends the reader to the lead.
            int afterLead = at == index ? (int)carry : (int)((lead >> (__builtin_ctz(bad) - 1)) & 1);
            return afterLead ? at - 1 : at;
        }
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
