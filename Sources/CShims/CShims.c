#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE
#include "CShims.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
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

static int wake_descriptor = -1;
static atomic_ulong counts[65];

static void on_signal(int signo) {
    int saved = errno;
    if (signo > 0 && signo < 65) atomic_fetch_add(&counts[signo], 1);
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
