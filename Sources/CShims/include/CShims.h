#ifndef ALMANAC_CSHIMS_H
#define ALMANAC_CSHIMS_H

#include <histedit.h>
#include <stdio.h>
#include <wchar.h>

// Swift 6 refuses the mutable stdio globals; these hand them over.
FILE *almanac_stdin(void);
FILE *almanac_stdout(void);
FILE *almanac_stderr(void);

// libc's display width of one character (-1 for non-printable), which Swift cannot see.
int almanac_wcwidth(wchar_t c);

// The terminal's size in cells; 0 on success, -1 when `fd` is not a terminal (ioctl is variadic).
int almanac_terminal_size(int fd, int *rows, int *columns);

// libedit's el_wset, el_wget and history_w are variadic; one typed wrapper per use.
typedef wchar_t *(*almanac_prompt_fn)(EditLine *);
typedef unsigned char (*almanac_editor_fn)(EditLine *, int);

int almanac_el_set_int(EditLine *el, int op, int value);
int almanac_el_set_string(EditLine *el, int op, const wchar_t *value);
int almanac_el_set_prompt(EditLine *el, almanac_prompt_fn fn, wchar_t escape);
int almanac_el_set_history(EditLine *el, HistoryW *history);
int almanac_el_set_getc(EditLine *el, el_rfunc_t fn);
int almanac_el_set_clientdata(EditLine *el, void *data);
void *almanac_el_get_clientdata(EditLine *el);
int almanac_el_add_function(EditLine *el, const wchar_t *name, const wchar_t *help, almanac_editor_fn fn);
int almanac_el_bind(EditLine *el, const wchar_t *key, const wchar_t *function);
int almanac_el_refresh(EditLine *el);

int almanac_history_op(HistoryW *h, HistEventW *ev, int op);
int almanac_history_int(HistoryW *h, HistEventW *ev, int op, int value);
int almanac_history_string(HistoryW *h, HistEventW *ev, int op, const wchar_t *value);

// A stdio stream whose writes collect in memory until flushed to a descriptor in one write:
// libedit draws into it, the shell adds its decorations (hints, colours), and the terminal
// receives a key's whole redraw at once, so nothing flickers.
typedef struct almanac_capture almanac_capture;
almanac_capture *almanac_capture_open(void);
FILE *almanac_capture_stream(almanac_capture *capture);
// Writes what collected to `fd` (retrying short writes); returns -1 when that failed.
int almanac_capture_flush(almanac_capture *capture, int fd);
// Bytes collected and not yet flushed.
size_t almanac_capture_pending(almanac_capture *capture);
void almanac_capture_close(almanac_capture *capture);

// Signals. The handler only counts and writes the signal number to `wake_fd`,
// so a poll() on the read end wakes on any thread's delivery.
// Installed without SA_RESTART: el_wgets and poll return EINTR, the hook for "clear the line".
void almanac_signals_install(int wake_fd);
// How many times each signal arrived since start.
unsigned long almanac_signal_count(int signo);
// Restore the default action and raise it again (used for SIGPIPE: exit the way other tools do).
void almanac_signal_reraise_default(int signo);

#endif
