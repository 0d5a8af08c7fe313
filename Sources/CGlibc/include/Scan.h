#ifndef ALMANAC_SCAN_H
#define ALMANAC_SCAN_H
#include <stddef.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// The JSON parser's byte scans that run over most of a file: SSE2 sixteen bytes a step, byte
// by byte near the end of the input (never a read past `count`) and where SSE2 is missing.

/// The first index from `index` whose byte is not JSON whitespace (space, \n, \r, \t), or
/// `count`. A pretty-printed file's indentation (a newline then 2–12 spaces) is one step.
static inline long almanac_json_skip_whitespace(const unsigned char *bytes, long index, long count) {
#if defined(__SSE2__)
    while (index + 16 <= count) {
        __m128i block = _mm_loadu_si128((const __m128i *)(bytes + index));
        __m128i blank = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(block, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(block, _mm_set1_epi8('\n'))),
                                     _mm_or_si128(_mm_cmpeq_epi8(block, _mm_set1_epi8('\r')), _mm_cmpeq_epi8(block, _mm_set1_epi8('\t'))));
        unsigned other = ~(unsigned)_mm_movemask_epi8(blank) & 0xFFFF;
        if (other) return index + __builtin_ctz(other);
        index += 16;
    }
#endif
    while (index < count) {
        unsigned char byte = bytes[index];
        if (byte != ' ' && byte != '\n' && byte != '\r' && byte != '\t') break;
        index++;
    }
    return index;
}

/// Where a short plain string ends: the index of the first quote in the 16 bytes from
/// `index` when every byte before it is printable ASCII other than a backslash; -1 otherwise
/// (no quote there, an escape, a control character, a non-ASCII byte, or fewer than 16 bytes
/// left), and the caller checks the string in full. Most keys and many values are like this.
static inline long almanac_json_short_string_end(const unsigned char *bytes, long index, long count) {
#if defined(__SSE2__)
    if (index + 16 > count) return -1;
    __m128i block = _mm_loadu_si128((const __m128i *)(bytes + index));
    // Signed: bytes from 0x80 are negative, so one comparison finds controls and non-ASCII.
    __m128i stop = _mm_or_si128(_mm_cmplt_epi8(block, _mm_set1_epi8(0x20)), _mm_cmpeq_epi8(block, _mm_set1_epi8('\\')));
    unsigned quotes = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(block, _mm_set1_epi8('"')));
    unsigned stops = (unsigned)_mm_movemask_epi8(stop);
    // The first quote, when no stop comes before it.
    unsigned first = quotes & -quotes;
    if (first == 0 || (stops & (first - 1)) != 0) return -1;
    return index + __builtin_ctz(first);
#else
    (void)bytes; (void)index; (void)count;
    return -1;
#endif
}

/// How many '\n' bytes `bytes[from..<to]` holds.
long almanac_count_newlines(const unsigned char *bytes, long from, long to);

/// How many characters `bytes[from..<to]` holds: bytes that are not UTF-8 continuation bytes.
long almanac_count_characters(const unsigned char *bytes, long from, long to);

/// The index of the last '\n' in `bytes[from..<to]`, or -1.
long almanac_last_newline(const unsigned char *bytes, long from, long to);

#endif
