#define _GNU_SOURCE
#include "CPTY.h"

#include <fcntl.h>
#include <pty.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include "CGlibc.h"
#include <termios.h>
#include <locale.h>
#include <unistd.h>
#include <wchar.h>

// The test runner may ignore or block signals (SIGPIPE, SIGINT); ignored dispositions and the
// mask survive execve, so the child starts from the defaults a shell would give it.
static void reset_signals_in_child(void) {
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    for (int signal_number = 1; signal_number < NSIG; signal_number++) {
        if (signal_number == SIGKILL || signal_number == SIGSTOP) continue;
        signal(signal_number, SIG_DFL);
    }
}

// Tests run in parallel: another test's pipes and terminals must not leak into this child,
// or a pipe would never see end-of-file while the child lives.
static void close_inherited_descriptors(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    closefrom(3);
#else
    long limit = sysconf(_SC_OPEN_MAX);
    if (limit < 0 || limit > 65536) limit = 65536;
    for (int descriptor = 3; descriptor < limit; descriptor++) close(descriptor);
#endif
}

pid_t cpty_spawn(const char *path, char *const argv[], char *const envp[], int rows, int columns, int *master) {
    struct winsize size;
    memset(&size, 0, sizeof size);
    size.ws_row = (unsigned short)rows;
    size.ws_col = (unsigned short)columns;
    pid_t pid = forkpty(master, NULL, NULL, &size);
    if (pid == 0) {
        reset_signals_in_child();
        close_inherited_descriptors();
        execve(path, argv, envp);
        _exit(127);
    }
    if (pid > 0) fcntl(*master, F_SETFD, FD_CLOEXEC);
    return pid;
}

pid_t cpty_spawn_piped(const char *path, char *const argv[], char *const envp[],
                       int input, int output, int error, const char *directory) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    if (posix_spawn_file_actions_init(&actions) != 0) return -1;
    if (posix_spawnattr_init(&attributes) != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return -1;
    }
    posix_spawn_file_actions_adddup2(&actions, input, 0);
    posix_spawn_file_actions_adddup2(&actions, output, 1);
    posix_spawn_file_actions_adddup2(&actions, error, 2);
    if (directory != NULL) posix_spawn_file_actions_addchdir_np(&actions, directory);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    posix_spawn_file_actions_addclosefrom_np(&actions, 3);
#endif
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    sigdelset(&all, SIGKILL);
    sigdelset(&all, SIGSTOP);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &all);
    // Its own process group, as a shell gives each pipeline: signals sent to the test runner's
    // group (a Ctrl-C in the developer's terminal) reach the runner, which then kills the child.
    posix_spawnattr_setpgroup(&attributes, 0);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
    pid_t pid = -1;
    int failure = posix_spawn(&pid, path, &actions, &attributes, argv, envp);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    return failure == 0 ? pid : -1;
}

int cpty_pipe(int descriptors[2]) {
    return pipe2(descriptors, O_CLOEXEC);
}

int cpty_resize(int master, int rows, int columns) {
    struct winsize size;
    memset(&size, 0, sizeof size);
    size.ws_row = (unsigned short)rows;
    size.ws_col = (unsigned short)columns;
    return ioctl(master, TIOCSWINSZ, &size);
}

int cpty_echo_enabled(int master) {
    struct termios settings;
    if (tcgetattr(master, &settings) != 0) return -1;
    return (settings.c_lflag & ECHO) != 0;
}

int cpty_wcwidth(unsigned int character) {
    static locale_t utf8;
    if (!utf8) utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
    locale_t previous = utf8 ? uselocale(utf8) : (locale_t)0;
    int width = wcwidth((wchar_t)character);
    if (previous) uselocale(previous);
    return width;
}

static void probe_signal(int signo) { almanac_watchdog_notify(signo); }

static double probe_now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec * 1e3 + now.tv_nsec / 1e6;
}

int cpty_watchdog_probe(int grace_ms, int interrupt_ends, int signo, int limit_ms, double *elapsed_ms) {
    double started = probe_now_ms();
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        reset_signals_in_child();
        almanac_watchdog_interrupt_ends(interrupt_ends);
        almanac_watchdog_start(grace_ms);
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = probe_signal;
        sigaction(signo, &action, NULL);
        raise(signo);
        for (;;) pause();
    }
    int status = 0;
    int timed_out = 0;
    while (waitpid(pid, &status, WNOHANG) != pid) {
        if (probe_now_ms() - started > limit_ms) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            timed_out = 1;
            break;
        }
        usleep(1000);
    }
    *elapsed_ms = probe_now_ms() - started;
    if (timed_out) return -2;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
