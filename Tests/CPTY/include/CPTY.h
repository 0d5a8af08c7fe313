#ifndef CPTY_H
#define CPTY_H
#include <sys/types.h>

// Starts `path` with `argv`/`envp` as the session leader of a new pseudo-terminal of
// `rows` x `columns`. Returns the child's pid (or -1) and the master side in *master
// (close-on-exec). The child starts with default signal handling and no inherited
// descriptors beyond 0, 1 and 2.
pid_t cpty_spawn(const char *path, char *const argv[], char *const envp[], int rows, int columns, int *master);

// Starts `path` with `input`, `output` and `error` as its descriptors 0, 1 and 2, default
// signal handling, no other inherited descriptors, in a process group of its own, in
// `directory` (NULL: the caller's). Returns the child's pid, or -1.
pid_t cpty_spawn_piped(const char *path, char *const argv[], char *const envp[],
                       int input, int output, int error, const char *directory);

// pipe(2) with both ends close-on-exec, so parallel tests' children never inherit them.
int cpty_pipe(int descriptors[2]);

// Resizes the terminal (the child gets SIGWINCH).
int cpty_resize(int master, int rows, int columns);

// Whether the terminal currently echoes input (libedit turns echo off once it is ready for keys).
int cpty_echo_enabled(int master);

// Cells a character takes on a terminal, as libc's wcwidth says in a UTF-8 locale (whatever
// the test process's own locale): 2 for wide characters, 0 for combining marks, -1 for controls.
int cpty_wcwidth(unsigned int character);

// Forks a child that starts CGlibc's watchdog with `grace_ms` (`interrupt_ends` as a script
// sets it), takes `signo` through a handler that tells the watchdog, as the shell's does,
// and then never ends by itself. Returns the child's exit status, -2 when it was still running
// after `limit_ms` (then killed), -1 when no child could be made; *elapsed_ms: fork to end.
int cpty_watchdog_probe(int grace_ms, int interrupt_ends, int signo, int limit_ms, double *elapsed_ms);
#endif
