#ifndef ALMANAC_CGLIBC_H
#define ALMANAC_CGLIBC_H
#include <stddef.h>
#include <sys/types.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// glibc's GNU extensions, which Swift cannot see without _GNU_SOURCE.

// memmem: the fastest substring search at hand.
const void *almanac_memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length);

/// Asks the CPU to start loading the cache line at `address` (a hint, never a fault): search
/// checks candidate rows scattered over megabytes, and each would otherwise wait on memory.
static inline void almanac_prefetch(const void *address) { __builtin_prefetch(address, 0, 1); }

/// Where `needle` (m >= 1 bytes) first occurs in `haystack` (n bytes), or -1: sixteen positions
/// at a time, the needle's first and last bytes compared at once (SSE2) and only the positions
/// where both match checked in full. For the short rows search checks (names of tens of
/// bytes), where memmem's set-up per call costs more than the search.
static inline long almanac_find_short(const unsigned char *haystack, long n, const unsigned char *needle, long m) {
    long i = 0;
    if (m < 1 || n < m) return -1;
#if defined(__SSE2__)
    const __m128i first = _mm_set1_epi8((char)needle[0]);
    const __m128i last = _mm_set1_epi8((char)needle[m - 1]);
    for (; i + m - 1 + 16 <= n; i += 16) {
        __m128i heads = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(haystack + i)), first);
        __m128i tails = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(haystack + i + m - 1)), last);
        unsigned both = (unsigned)_mm_movemask_epi8(_mm_and_si128(heads, tails));
        while (both) {
            long at = i + __builtin_ctz(both);
            long k = 1;
            while (k < m - 1 && haystack[at + k] == needle[k]) k++;
            if (k >= m - 1) return at;
            both &= both - 1;
        }
    }
#endif
    for (; i + m <= n; i++) {
        if (haystack[i] != needle[0] || haystack[i + m - 1] != needle[m - 1]) continue;
        long k = 1;
        while (k < m - 1 && haystack[i + k] == needle[k]) k++;
        if (k >= m - 1) return i;
    }
    return -1;
}

#if defined(__SSE2__)
/// The bytes of a 16-byte block that are neither plain ASCII nor part of a well-formed
/// two-byte UTF-8 sequence, given whether the byte before the block is a lead byte C2–DF
/// (`carry`); `*lead` gets the block's lead bytes. For the scans of JSON strings and CSV fields.
static inline unsigned almanac_utf8_pair_faults(__m128i block, unsigned carry, unsigned *lead) {
    unsigned high = (unsigned)_mm_movemask_epi8(block);
    // Continuation bytes 80–BF are -128…-65 as signed bytes; leads C2–DF are -62…-33.
    unsigned continuation = (unsigned)_mm_movemask_epi8(_mm_cmplt_epi8(block, _mm_set1_epi8(-64)));
    *lead = (unsigned)_mm_movemask_epi8(_mm_and_si128(_mm_cmpgt_epi8(block, _mm_set1_epi8(-63)),
                                                       _mm_cmplt_epi8(block, _mm_set1_epi8(-32))));
    unsigned expected = ((*lead << 1) | carry) & 0xFFFF;
    return (high & ~(*lead | continuation)) | (continuation ^ expected);
}

/// Where a scan stops for the first `bad` byte of the block at `index`: never inside a pair
/// (a bad byte after a lead sends the reader to the lead).
static inline long almanac_utf8_stop(long index, unsigned bad, unsigned lead, unsigned carry) {
    long at = index + __builtin_ctz(bad);
    int afterLead = at == index ? (int)carry : (int)((lead >> (__builtin_ctz(bad) - 1)) & 1);
    return afterLead ? at - 1 : at;
}
#endif

/// The first position from `index` in a JSON string's bytes that the parser must look at one
/// byte at a time: a quote, a backslash, a control character, a byte of a three- or four-byte
/// UTF-8 sequence, a malformed two-byte one, or the last 15 bytes of the input. Everything
/// before it is plain ASCII or well-formed two-byte UTF-8 (Cyrillic, accented Latin), and it
/// is always where a character starts. Sixteen bytes a step (SSE2); the parser's own loop
/// does the rest, so its errors and their positions are those of one byte at a time.
static inline long almanac_json_string_run(const unsigned char *bytes, long index, long count) {
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i space = _mm_set1_epi8(0x20);
    const __m128i flip = _mm_set1_epi8((char)0x80);
    unsigned carry = 0; // whether the byte before `index` is a lead byte C2–DF
    while (index + 16 <= count) {
        __m128i block = _mm_loadu_si128((const __m128i *)(bytes + index));
        // Unsigned comparisons through signed ones on bytes with the high bit flipped.
        __m128i flipped = _mm_xor_si128(block, flip);
        unsigned high = (unsigned)_mm_movemask_epi8(block);
        unsigned control = (unsigned)_mm_movemask_epi8(_mm_cmplt_epi8(flipped, _mm_xor_si128(space, flip)));
        unsigned special = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(block, quote), _mm_cmpeq_epi8(block, backslash)));
        unsigned lead;
        unsigned bad = special | (control & ~high) | almanac_utf8_pair_faults(block, carry, &lead);
        if (bad) return almanac_utf8_stop(index, bad, lead, carry);
        carry = lead >> 15;
        index += 16;
    }
    return carry ? index - 1 : index;
#else
    (void)bytes; (void)count;
    return index;
#endif
}

// The calling thread's id, for per-thread priorities.
pid_t almanac_gettid(void);

// malloc_trim: hands the allocator's free memory back to the system.
int almanac_malloc_trim(void);

// mallopt: blocks up to mmap_threshold come from the heap, and up to trim_threshold of free
// memory at its top is kept; 0 when the environment sets either itself.
int almanac_keep_working_buffers(size_t mmap_threshold, size_t trim_threshold);

// Moves the pages [from, from + length) to `to` (both page-aligned): mremap with
// MREMAP_FIXED | MREMAP_DONTUNMAP, so whatever was at `to` is replaced and `from` stays
// mapped, empty (it reads as zeros). 0, or the errno (EINVAL before Linux 5.7).
int almanac_move_pages(void *from, size_t length, void *to);

// Mapped files that may shrink while they are read. Touching a mapped page past a file's new
// end raises SIGBUS; inside a guarded range the handler maps a page of zeros there instead
// (zeros are never valid JSON, so the parse fails) and records the hit, so the reader can
// read the file again instead of dying. Returns a guard number, or -1 when none is free.
int almanac_guard_mapping(const void *start, size_t length);
// Whether a SIGBUS hit the guarded range; the guard is kept.
int almanac_guard_was_hit(int guard);
// Ends the guard (before the range is unmapped).
void almanac_unguard_mapping(int guard);

// How the process ends (Ending.c). Helper processes and the temporary file being written
// must not outlive the shell: they are recorded, killed (at exit too) and removed.
void almanac_child_started(pid_t pid);
void almanac_child_ended(pid_t pid);
void almanac_kill_children(void);
// The temporary file being written (NULL: none any more).
void almanac_set_temporary_file(const char *path);
// The last resort after a termination signal (SIGTERM, SIGHUP, and SIGINT when
// `almanac_watchdog_interrupt_ends(1)`, in scripts): when the process still runs `grace_ms`
// after it, SIGALRM from a timer kills the helpers, removes the temporary file, restores the
// terminal and ends the process with 128 + the signal. The main thread normally ends it first.
void almanac_watchdog_start(int grace_ms);
void almanac_watchdog_interrupt_ends(int on);
// For a helper process: the kernel kills it when its parent ends (PR_SET_PDEATHSIG). Returns
// -1 when that cannot be arranged or `parent` (0: unknown) is no longer its parent.
int almanac_die_with_parent(pid_t parent);
// Called by the signal handler (async-signal-safe: an atomic and timer_settime).
void almanac_watchdog_notify(int signo);

// Starts `body(context)` on a new, detached thread named `name` (15 bytes kept) with
// `stack_size` bytes of stack (0: the default), the given signals blocked from its first
// instruction. `elsewhere`: on another CPU than the caller's, when one is allowed — a new
// thread otherwise often waits on the caller's busy CPU until the next load balance,
// milliseconds later — then free to move. Returns 0, or -1 when no thread could be made.
int almanac_thread_start(void (*body)(void *), void *context, const char *name, size_t stack_size, int elsewhere,
                         const int *blocked_signals, int blocked_count);

// The process's argc and argv as glibc gave them to the constructors (Arguments.c): what
// Swift's `CommandLine.arguments` reads in a binary linked with the static Swift runtime.
char **almanac_arguments(int *count);

#endif
