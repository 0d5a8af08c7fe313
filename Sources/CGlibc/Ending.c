#define _GNU_SOURCE
#include "CGlibc.h"
#include <limits.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

// How the process ends, whatever the main thread is doing: what must not outlive it (helper
// processes, a temporary file) is recorded here, and a watchdog thread ends the process a
// moment after a termination signal if the main thread has not by then.

#define ALMANAC_CHILDREN 16
static _Atomic pid_t children[ALMANAC_CHILDREN];

static char temporary_path[PATH_MAX + 1];
static atomic_int temporary_set;

static sem_t watchdog_wake;
static atomic_int watchdog_signal;
static atomic_int watchdog_grace_ms;
static atomic_int interrupt_ends;
static struct termios saved_terminal;
static int terminal_saved;

void almanac_child_started(pid_t pid) {
    for (int slot = 0; slot < ALMANAC_CHILDREN; slot++) {
        pid_t empty = 0;
        if (atomic_compare_exchange_strong(&children[slot], &empty, pid)) return;
    }
}

void almanac_child_ended(pid_t pid) {
    for (int slot = 0; slot < ALMANAC_CHILDREN; slot++) {
        pid_t expected = pid;
        if (atomic_compare_exchange_strong(&children[slot], &expected, 0)) return;
    }
}

void almanac_kill_children(void) {
    for (int slot = 0; slot < ALMANAC_CHILDREN; slot++) {
        pid_t pid = atomic_exchange(&children[slot], 0);
        if (pid > 0) kill(pid, SIGKILL);
    }
}

void almanac_set_temporary_file(const char *path) {
    atomic_store(&temporary_set, 0);
    if (path == NULL || strlen(path) > PATH_MAX) return;
    strcpy(temporary_path, path);
    atomic_store(&temporary_set, 1);
}

static void remove_temporary_file(void) {
    if (atomic_exchange(&temporary_set, 0)) unlink(temporary_path);
}

void almanac_watchdog_notify(int signo) {
    if (atomic_load(&watchdog_grace_ms) <= 0) return;
    if (signo == SIGTERM || signo == SIGHUP || (signo == SIGINT && atomic_load(&interrupt_ends))) {
        int none = 0;
        atomic_compare_exchange_strong(&watchdog_signal, &none, signo);
        sem_post(&watchdog_wake);
    }
}

static void *watchdog(void *unused) {
    (void)unused;
    while (sem_wait(&watchdog_wake) != 0) {}
    int milliseconds = atomic_load(&watchdog_grace_ms);
    struct timespec grace = {milliseconds / 1000, (long)(milliseconds % 1000) * 1000000L};
    while (nanosleep(&grace, &grace) != 0) {}
    // The main thread did not end the process in time: end it here.
    almanac_kill_children();
    remove_temporary_file();
    if (terminal_saved) tcsetattr(0, TCSANOW, &saved_terminal);
    _exit(128 + atomic_load(&watchdog_signal));
    return NULL;
}

static void at_exit(void) { almanac_kill_children(); }

void almanac_watchdog_start(int grace_ms) {
    static int started;
    if (started) return;
    started = 1;
    atexit(at_exit);
    if (isatty(0) && tcgetattr(0, &saved_terminal) == 0) terminal_saved = 1;
    sem_init(&watchdog_wake, 0, 0);
    atomic_store(&watchdog_grace_ms, grace_ms);
    // The watchdog takes no signals itself: the shell's handlers run on the main thread.
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &previous);
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attributes, 64 * 1024);
    pthread_t thread;
    if (pthread_create(&thread, &attributes, watchdog, NULL) != 0) atomic_store(&watchdog_grace_ms, 0);
    pthread_attr_destroy(&attributes);
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
}

void almanac_watchdog_interrupt_ends(int on) { atomic_store(&interrupt_ends, on); }

int almanac_die_with_parent(pid_t parent) {
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return -1;
    // The parent may have ended before the request took effect.
    return parent > 0 && getppid() != parent ? -1 : 0;
}
