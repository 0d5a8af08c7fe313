#define _GNU_SOURCE
#include "CShims.h"
#include "CGlibc.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

FILE *almanac_stdin(void) { return stdin; }
FILE *almanac_stdout(void) { return stdout; }
FILE *almanac_stderr(void) { return stderr; }

int almanac_wcwidth(wchar_t c) { return wcwidth(c); }

int almanac_terminal_size(int fd, int *rows, int *columns) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0 || size.ws_col == 0) return -1;
    *rows = size.ws_row;
    *columns = size.ws_col;
    return 0;
}

int almanac_el_set_int(EditLine *el, int op, int value) { return el_wset(el, op, value); }
int almanac_el_set_string(EditLine *el, int op, const wchar_t *value) { return el_wset(el, op, value); }
int almanac_el_set_prompt(EditLine *el, almanac_prompt_fn fn, wchar_t escape) {
    return el_wset(el, EL_PROMPT_ESC, fn, escape);
}
int almanac_el_set_history(EditLine *el, HistoryW *history) { return el_wset(el, EL_HIST, history_w, history); }
int almanac_el_set_getc(EditLine *el, el_rfunc_t fn) { return el_wset(el, EL_GETCFN, fn); }
int almanac_el_set_clientdata(EditLine *el, void *data) { return el_wset(el, EL_CLIENTDATA, data); }
void *almanac_el_get_clientdata(EditLine *el) {
    void *data = NULL;
    el_wget(el, EL_CLIENTDATA, &data);
    return data;
}
int almanac_el_add_function(EditLine *el, const wchar_t *name, const wchar_t *help, almanac_editor_fn fn) {
    return el_wset(el, EL_ADDFN, name, help, fn);
}
int almanac_el_bind(EditLine *el, const wchar_t *key, const wchar_t *function) {
    return el_wset(el, EL_BIND, key, function, NULL);
}
int almanac_el_refresh(EditLine *el) { return el_wset(el, EL_REFRESH); }

int almanac_history_op(HistoryW *h, HistEventW *ev, int op) { return history_w(h, ev, op); }
int almanac_history_int(HistoryW *h, HistEventW *ev, int op, int value) { return history_w(h, ev, op, value); }
int almanac_history_string(HistoryW *h, HistEventW *ev, int op, const wchar_t *value) {
    return history_w(h, ev, op, value);
}

struct almanac_capture {
    FILE *stream;
    char *bytes;
    size_t count, capacity;
};

static ssize_t capture_write(void *cookie, const char *data, size_t size) {
    almanac_capture *capture = cookie;
    if (capture->count + size > capture->capacity) {
        size_t capacity = capture->capacity ? capture->capacity : 4096;
        while (capacity < capture->count + size) capacity *= 2;
        char *grown = realloc(capture->bytes, capacity);
        if (!grown) return -1;
        capture->bytes = grown;
        capture->capacity = capacity;
    }
    memcpy(capture->bytes + capture->count, data, size);
    capture->count += size;
    return (ssize_t)size;
}

almanac_capture *almanac_capture_open(void) {
    almanac_capture *capture = calloc(1, sizeof *capture);
    if (!capture) return NULL;
    cookie_io_functions_t functions = {.read = NULL, .write = capture_write, .seek = NULL, .close = NULL};
    capture->stream = fopencookie(capture, "w", functions);
    if (!capture->stream) {
        free(capture);
        return NULL;
    }
    // Unbuffered: every write lands in `bytes` at once, in order with the shell's own.
    setvbuf(capture->stream, NULL, _IONBF, 0);
    return capture;
}

FILE *almanac_capture_stream(almanac_capture *capture) { return capture->stream; }

size_t almanac_capture_pending(almanac_capture *capture) { return capture->count; }

int almanac_capture_flush(almanac_capture *capture, int fd) {
    fflush(capture->stream);
    size_t offset = 0;
    int result = 0;
    while (offset < capture->count) {
        ssize_t written = write(fd, capture->bytes + offset, capture->count - offset);
        if (written > 0) { offset += (size_t)written; continue; }
        if (written < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        result = -1;
        break;
    }
    capture->count = 0;
    if (capture->capacity > (1 << 20)) {
        // A huge redraw once (a pasted megabyte): give the memory back.
        free(capture->bytes);
        capture->bytes = NULL;
        capture->capacity = 0;
    }
    return result;
}

void almanac_capture_close(almanac_capture *capture) {
    if (!capture) return;
    fclose(capture->stream);
    free(capture->bytes);
    free(capture);
}

static int wake_descriptor = -1;
static atomic_ulong counts[65];

static void on_signal(int signo) {
    int saved = errno;
    if (signo > 0 && signo < 65) atomic_fetch_add(&counts[signo], 1);
    almanac_watchdog_notify(signo);
    if (wake_descriptor >= 0) {
        unsigned char byte = (unsigned char)signo;
        ssize_t ignored = write(wake_descriptor, &byte, 1);
        (void)ignored;
    }
    errno = saved;
}

void almanac_signals_install(int wake_fd) {
    wake_descriptor = wake_fd;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0; // no SA_RESTART, on purpose
    int handled[] = {SIGINT, SIGTERM, SIGHUP, SIGWINCH};
    for (unsigned i = 0; i < sizeof handled / sizeof handled[0]; i++) sigaction(handled[i], &action, NULL);
    signal(SIGPIPE, SIG_IGN);
}

unsigned long almanac_signal_count(int signo) {
    if (signo <= 0 || signo >= 65) return 0;
    return atomic_load(&counts[signo]);
}

void almanac_signal_reraise_default(int signo) {
    signal(signo, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signo);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(signo);
}
