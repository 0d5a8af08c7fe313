// The process's arguments for Swift's `CommandLine`, without the runtime's own search.
//
// On Linux the Swift runtime finds argv with a constructor that reads /proc/self/maps to
// locate the stack and walks back from `environ` (stdlib CommandLine.cpp): with fopen and
// sscanf, about 0.2 ms of every start, before main. glibc hands every ELF constructor argc
// and argv, so this file keeps them from its own constructor and defines the one function
// the runtime reads them through; the linker then leaves the runtime's CommandLine.cpp.o,
// constructor and all, out of a binary linked with the static Swift runtime. Linked against
// the shared runtime, whose copy is internal to it, the definition is simply unused.
#include "CGlibc.h"
#include <stddef.h>

static char **kept_argv;
static int kept_argc;

__attribute__((constructor(101)))
static void almanac_keep_arguments(int argc, char **argv, char **envp) {
    (void)envp;
    kept_argc = argc;
    kept_argv = argv;
}

char **almanac_arguments(int *count) {
    static char *none[] = { NULL };
    if (!kept_argv) {
        *count = 0;
        return none;
    }
    *count = kept_argc;
    return kept_argv;
}

// The Swift runtime's name and convention (swiftcall) for reading argv.
__attribute__((swiftcall, visibility("hidden")))
char **_swift_stdlib_getUnsafeArgvArgc(int *count) { return almanac_arguments(count); }
