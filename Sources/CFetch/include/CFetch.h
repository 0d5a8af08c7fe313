#ifndef ALMANAC_CFETCH_H
#define ALMANAC_CFETCH_H
#include <stddef.h>

// One HTTP GET through libcurl, its body handed on as it arrives. The body callback runs on
// the calling thread and libcurl reads nothing more from the network until it returns: a
// slow consumer slows the transfer instead of filling memory (URLSession on Linux queues
// every piece for its delegate, however many).

typedef struct almanac_fetch_callbacks {
    void *context;
    // The final response's status, declared length (-1: none) and Content-Type (NULL: none),
    // before its body.
    void (*head)(void *context, long status, long long declared_length, const char *content_type);
    // A piece of the body.
    void (*body)(void *context, const char *bytes, size_t count);
    // Nonzero stops the transfer (checked every 50 ms at least).
    int (*cancelled)(void *context);
} almanac_fetch_callbacks;

typedef enum almanac_fetch_result {
    ALMANAC_FETCH_DONE = 0,
    // A 3xx with a Location: not followed here (the caller judges where it leads).
    ALMANAC_FETCH_REDIRECT,
    // The body passed `max_bytes`, or declared a length over it (`declared_length`).
    ALMANAC_FETCH_TOO_LARGE,
    ALMANAC_FETCH_TIMED_OUT,
    ALMANAC_FETCH_CANCELLED,
    // Anything else: `error` says what.
    ALMANAC_FETCH_FAILED,
} almanac_fetch_result;

typedef struct almanac_fetch_outcome {
    // For a redirect: the Location header as the server wrote it, and libcurl's absolute URL
    // for it (both malloc'ed, or NULL; free them with almanac_fetch_outcome_free).
    char *location;
    char *resolved;
    long long declared_length;
    // For a failure: libcurl's code and message.
    int code;
    char error[256];
} almanac_fetch_outcome;

// `idle_seconds`: at most this long without a byte (and to connect); `deadline_ms`: for the
// whole response.
almanac_fetch_result almanac_fetch(const char *url, long idle_seconds, long deadline_ms, long long max_bytes,
                                   const almanac_fetch_callbacks *callbacks, almanac_fetch_outcome *outcome);

void almanac_fetch_outcome_free(almanac_fetch_outcome *outcome);

#endif
