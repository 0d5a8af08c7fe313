#define _GNU_SOURCE
#include "CGlibc.h"
#include <string.h>
#include <stdlib.h>
#include <errno.h>
#include <unistd.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/mman.h>
#include <malloc.h>

const void *almanac_memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length) {
    return memmem(haystack, haystack_length, needle, needle_length);
}

pid_t almanac_gettid(void) { return gettid(); }

int almanac_malloc_trim(void) { return malloc_trim(0); }

int almanac_keep_working_buffers(size_t mmap_threshold, size_t trim_threshold) {
    // A person's own MALLOC_* or GLIBC_TUNABLES settings win.
    if (getenv("MALLOC_MMAP_THRESHOLD_") || getenv("MALLOC_TRIM_THRESHOLD_") || getenv("GLIBC_TUNABLES")) return 0;
    return mallopt(M_MMAP_THRESHOLD, (int)mmap_threshold) && mallopt(M_TRIM_THRESHOLD, (int)trim_threshold);
}

#ifndef MREMAP_DONTUNMAP
#define MREMAP_DONTUNMAP 4
#endif

int almanac_move_pages(void *from, size_t length, void *to) {
    void *moved = mremap(from, length, length, MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP, to);
    return moved == MAP_FAILED ? errno : 0;
}

// Guards: a few ranges at once (one per concurrent load). The handler only reads atomics and
// calls mmap, a system call, so it is safe in a signal handler.
#define ALMANAC_GUARDS 64
static _Atomic uintptr_t guard_start[ALMANAC_GUARDS];
static _Atomic uintptr_t guard_end[ALMANAC_GUARDS];
static _Atomic int guard_hit[ALMANAC_GUARDS];
static pthread_mutex_t guard_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sigaction previous_bus_action;
static int bus_handler_installed;
static uintptr_t guard_page_size;

static void on_bus_error(int signo, siginfo_t *info, void *context) {
    (void)signo;
    (void)context;
    uintptr_t address = (uintptr_t)info->si_addr;
    for (int guard = 0; guard < ALMANAC_GUARDS; guard++) {
        uintptr_t start = atomic_load(&guard_start[guard]);
        if (start != 0 && address >= start && address < atomic_load(&guard_end[guard])) {
            void *page = (void *)(address & ~(guard_page_size - 1));
            if (mmap(page, guard_page_size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED) {
                atomic_store(&guard_hit[guard], 1);
                return;
            }
        }
    }
    // Not ours: what would have happened without this handler happens (the access faults again).
    sigaction(SIGBUS, &previous_bus_action, NULL);
}

int almanac_guard_mapping(const void *start, size_t length) {
    pthread_mutex_lock(&guard_lock);
    if (!bus_handler_installed) {
        guard_page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_sigaction = on_bus_error;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_SIGINFO | SA_NODEFER;
        if (sigaction(SIGBUS, &action, &previous_bus_action) != 0) {
            pthread_mutex_unlock(&guard_lock);
            return -1;
        }
        bus_handler_installed = 1;
    }
    int found = -1;
    for (int guard = 0; guard < ALMANAC_GUARDS; guard++) {
        if (atomic_load(&guard_start[guard]) == 0) {
            atomic_store(&guard_hit[guard], 0);
            atomic_store(&guard_end[guard], (uintptr_t)start + length);
            atomic_store(&guard_start[guard], (uintptr_t)start);
            found = guard;
            break;
        }
    }
    pthread_mutex_unlock(&guard_lock);
    return found;
}

int almanac_guard_was_hit(int guard) {
    return guard >= 0 && guard < ALMANAC_GUARDS && atomic_load(&guard_hit[guard]);
}

void almanac_unguard_mapping(int guard) {
    if (guard < 0 || guard >= ALMANAC_GUARDS) return;
    pthread_mutex_lock(&guard_lock);
    atomic_store(&guard_start[guard], 0);
    atomic_store(&guard_end[guard], 0);
    pthread_mutex_unlock(&guard_lock);
}
