#define _GNU_SOURCE
#include "CGlibc.h"
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

struct almanac_thread_start {
    void (*body)(void *);
    void *context;
    char name[16];
    int restore;
    cpu_set_t allowed;
};

static void *almanac_thread_trampoline(void *argument) {
    struct almanac_thread_start start = *(struct almanac_thread_start *)argument;
    free(argument);
    // Placed on another CPU to start at once; from here on the scheduler may move it anywhere allowed.
    if (start.restore) sched_setaffinity(0, sizeof start.allowed, &start.allowed);
    if (start.name[0]) pthread_setname_np(pthread_self(), start.name);
    start.body(start.context);
    return NULL;
}

int almanac_thread_start(void (*body)(void *), void *context, const char *name, size_t stack_size, int elsewhere,
                         const int *blocked_signals, int blocked_count) {
    struct almanac_thread_start *start = calloc(1, sizeof *start);
    if (!start) return -1;
    start->body = body;
    start->context = context;
    if (name) strncpy(start->name, name, sizeof start->name - 1);
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    if (stack_size) pthread_attr_setstacksize(&attributes, stack_size);
    if (elsewhere && sched_getaffinity(0, sizeof start->allowed, &start->allowed) == 0) {
        cpu_set_t others = start->allowed;
        int here = sched_getcpu();
        if (here >= 0) CPU_CLR(here, &others);
        if (CPU_COUNT(&others) > 0 && pthread_attr_setaffinity_np(&attributes, sizeof others, &others) == 0) start->restore = 1;
    }
    // A new thread inherits the creator's mask: block, create, restore, so that not even its
    // first instruction can take one of these signals.
    sigset_t blocked, previous;
    sigemptyset(&blocked);
    for (int i = 0; i < blocked_count; i++) sigaddset(&blocked, blocked_signals[i]);
    pthread_sigmask(SIG_BLOCK, &blocked, &previous);
    pthread_t thread;
    int result = pthread_create(&thread, &attributes, almanac_thread_trampoline, start);
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    pthread_attr_destroy(&attributes);
    if (result != 0) { free(start); return -1; }
    return 0;
}
