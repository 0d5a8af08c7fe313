#include "CFetch.h"
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct transfer {
    CURL *easy;
    const almanac_fetch_callbacks *callbacks;
    long long max_bytes;
    long long received;
    int headed;
    int redirect;
    int too_large;
    char *location;
    long long content_length;
} transfer;

static int is_redirect(long status) { return status >= 300 && status < 400 && status != 304; }

// Header lines of each response in turn (redirects included): the Location of the last one.
static size_t on_header(char *line, size_t size, size_t count, void *user) {
    transfer *state = user;
    size_t length = size * count;
    if (length >= 5 && strncmp(line, "HTTP/", 5) == 0) {
        free(state->location);
        state->location = NULL;
        state->content_length = -1;
    } else if (length > 15 && strncasecmp(line, "content-length:", 15) == 0) {
        state->content_length = strtoll(line + 15, NULL, 10);
    } else if (length > 9 && strncasecmp(line, "location:", 9) == 0) {
        size_t start = 9, end = length;
        while (start < end && (line[start] == ' ' || line[start] == '\t')) start++;
        while (end > start && (line[end - 1] == '\r' || line[end - 1] == '\n' || line[end - 1] == ' ')) end--;
        free(state->location);
        state->location = strndup(line + start, end - start);
    }
    return length;
}

static size_t on_body(char *bytes, size_t size, size_t count, void *user) {
    transfer *state = user;
    size_t length = size * count;
    if (!state->headed) {
        long status = 0;
        curl_off_t declared = -1;
        curl_easy_getinfo(state->easy, CURLINFO_RESPONSE_CODE, &status);
        curl_easy_getinfo(state->easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &declared);
        state->headed = 1;
        char *type = NULL;
        curl_easy_getinfo(state->easy, CURLINFO_CONTENT_TYPE, &type);
        state->redirect = is_redirect(status) && state->location != NULL;
        if (!state->redirect) state->callbacks->head(state->callbacks->context, status, declared, type);
    }
    state->received += (long long)length;
    if (state->received > state->max_bytes) {
        state->too_large = 1;
        return 0;  // not `length`: libcurl stops with CURLE_WRITE_ERROR
    }
    // A redirect's own body is nobody's data.
    if (!state->redirect) state->callbacks->body(state->callbacks->context, bytes, length);
    return length;
}

almanac_fetch_result almanac_fetch(const char *url, long idle_seconds, long deadline_ms, long long max_bytes,
                                   const almanac_fetch_callbacks *callbacks, almanac_fetch_outcome *outcome) {
    static int initialized;
    if (!initialized) {
        curl_global_init(CURL_GLOBAL_DEFAULT);
        initialized = 1;
    }
    memset(outcome, 0, sizeof *outcome);
    outcome->declared_length = -1;
    transfer state = {0};
    state.callbacks = callbacks;
    state.max_bytes = max_bytes;
    state.content_length = -1;
    CURL *easy = curl_easy_init();
    CURLM *multi = curl_multi_init();
    if (easy == NULL || multi == NULL) {
        snprintf(outcome->error, sizeof outcome->error, "cannot start libcurl");
        if (easy) curl_easy_cleanup(easy);
        if (multi) curl_multi_cleanup(multi);
        return ALMANAC_FETCH_FAILED;
    }
    state.easy = easy;
    char error[CURL_ERROR_SIZE] = {0};
    curl_easy_setopt(easy, CURLOPT_URL, url);
    curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, error);
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT, idle_seconds);
    curl_easy_setopt(easy, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(easy, CURLOPT_LOW_SPEED_TIME, idle_seconds);
    curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, deadline_ms);
    curl_easy_setopt(easy, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)max_bytes);
    curl_easy_setopt(easy, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(easy, CURLOPT_USERAGENT, "almanac");
    struct curl_slist *headers = curl_slist_append(NULL, "Accept: application/json, text/csv;q=0.9, text/tab-separated-values;q=0.9, */*;q=0.5");
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(easy, CURLOPT_HEADERDATA, &state);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, &state);
    curl_multi_add_handle(multi, easy);

    almanac_fetch_result result = ALMANAC_FETCH_DONE;
    CURLcode code = CURLE_OK;
    int running = 1;
    while (running) {
        if (curl_multi_perform(multi, &running) != CURLM_OK) {
            code = CURLE_FAILED_INIT;
            break;
        }
        if (!running) break;
        if (callbacks->cancelled(callbacks->context)) {
            result = ALMANAC_FETCH_CANCELLED;
            break;
        }
        curl_multi_poll(multi, NULL, 0, 50, NULL);
    }
    if (result != ALMANAC_FETCH_CANCELLED) {
        int left = 0;
        CURLMsg *message;
        while ((message = curl_multi_info_read(multi, &left)) != NULL) {
            if (message->msg == CURLMSG_DONE) code = message->data.result;
        }
        long status = 0;
        curl_off_t declared = -1;
        curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
        curl_easy_getinfo(easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &declared);
        // An aborted transfer may not report the length it was told: the header says it.
        outcome->declared_length = declared >= 0 ? declared : state.content_length;
        if (state.too_large || code == CURLE_FILESIZE_EXCEEDED) {
            result = ALMANAC_FETCH_TOO_LARGE;
        } else if (code == CURLE_OPERATION_TIMEDOUT) {
            result = ALMANAC_FETCH_TIMED_OUT;
        } else if (code != CURLE_OK) {
            result = ALMANAC_FETCH_FAILED;
            outcome->code = (int)code;
            snprintf(outcome->error, sizeof outcome->error, "%s", error[0] ? error : curl_easy_strerror(code));
        } else if (is_redirect(status) && state.location != NULL) {
            result = ALMANAC_FETCH_REDIRECT;
            char *resolved = NULL;
            curl_easy_getinfo(easy, CURLINFO_REDIRECT_URL, &resolved);
            outcome->resolved = resolved ? strdup(resolved) : NULL;
            outcome->location = state.location;
            state.location = NULL;
        } else if (!state.headed) {
            // No body at all: the head still goes first.
            char *type = NULL;
            curl_easy_getinfo(easy, CURLINFO_CONTENT_TYPE, &type);
            callbacks->head(callbacks->context, status, declared, type);
        }
    }
    free(state.location);
    curl_multi_remove_handle(multi, easy);
    curl_easy_cleanup(easy);
    curl_multi_cleanup(multi);
    curl_slist_free_all(headers);
    return result;
}

void almanac_fetch_outcome_free(almanac_fetch_outcome *outcome) {
    free(outcome->location);
    free(outcome->resolved);
    outcome->location = NULL;
    outcome->resolved = NULL;
}
