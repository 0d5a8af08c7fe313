# The README's two commands: `make run` builds and starts almanac, `make test` runs every test.
# Each installs what it needs when it is missing. `make install` puts almanac under PREFIX.

SWIFT ?= swift
PREFIX ?= /usr/local
DESTDIR ?=
# The folder with the binaries `make install-files` installs.
BUILT ?= .build/release

.PHONY: run test test-deps build release release-flags deps completions man install install-files uninstall

run: release
	@.build/release/almanac

# The release binaries, with the Swift runtime linked in and at a fixed address (for a fast
# start: a position-independent 80 MB static binary has 75,000 relocations for the dynamic
# loader to apply at every start, a quarter of `almanac --version`'s page faults and CPU).
# Only with the static runtime: against the shared one, -no-pie makes the loader warn.
# libstdc++ and libedit with its libraries are linked in from their static archives (the
# folder scripts/static-libs makes, searched before the system's): loading them bound ~2,200
# symbols at every start, 80% of `almanac --version`'s instructions.
# No symbol is exported (--no-export-dynamic; nothing looks ours up): the runtime's start-up
# dladdr walked all 7,500 of them, 0.26 M instructions. Type metadata is asked for through its
# accessor rather than by mangled name: demangling it, and the first check of a conformance
# (a scan of every conformance record of the binary), was half of `almanac -c quit`'s
# instructions. Each function has its own section, and the ones a start runs are placed
# together (scripts/startup-order lists them; gold's --section-ordering-file): a start faulted
# in 99 windows of 64 KB of code spread over the binary, 53 now.
# No $ORIGIN run path (--disable-local-rpath): with the runtime linked in there is no library
# of ours to find, and the loader tried ~20 names under the binary's folder (glibc-hwcaps/…,
# tls/…) for libm, libgcc_s and libc at every start: 0.12–0.15 ms of `almanac -c quit`.
# libgcc's unwinder linked in (-static-libgcc): libgcc_s.so was one more library to load at
# every start, and its constructor asked the CPU for its features (CPUID: on a virtual machine
# each a trap to the hypervisor): `almanac -c quit` 1.66 → 1.47 ms.
# bench/peers builds with the same flags (`make -s release-flags`).
STATIC_LIBS := $(CURDIR)/.build/static-libs
RELEASE_FLAGS := -c release --static-swift-stdlib --disable-local-rpath -Xlinker -no-pie -Xswiftc -L$(STATIC_LIBS) \
	-Xlinker -ltinfo -Xlinker -lbsd -Xlinker -lmd -Xlinker --no-export-dynamic \
	-Xswiftc -Xclang-linker -Xswiftc -static-libgcc \
	-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
	-Xswiftc -Xfrontend -Xswiftc -function-sections \
	-Xlinker --section-ordering-file=$(CURDIR)/scripts/startup-sections.txt
release: deps
	@scripts/static-libs $(STATIC_LIBS)
	@$(SWIFT) build $(RELEASE_FLAGS) --product almanac-fetch
	@$(SWIFT) build $(RELEASE_FLAGS) --product almanac

# The flags alone, for bench/peers (which builds in a scratch folder of its own).
release-flags:
	@echo $(RELEASE_FLAGS)

# The tests run the release binaries, the ones `make run` and `make install` ship (ALMANAC_BIN;
# the in-process tests use the debug build): the debug binary spent two thirds of its time in the
# runtime's generic code, and the suite took 564 s with it against 288 s with these. The one
# release build, made beside the debug one (scripts/build-for-tests), also serves
# `almanac-bench --quick`, which CI runs to check it still runs.
TEST_RELEASE := $(CURDIR)/.build-release/release
test: test-deps
	@scripts/static-libs $(STATIC_LIBS)
	scripts/build-for-tests $(SWIFT) $(RELEASE_FLAGS)
	ALMANAC_BIN=$(TEST_RELEASE)/almanac scripts/test-summary $(SWIFT)
	$(TEST_RELEASE)/almanac-bench --quick

build: deps
	$(SWIFT) build

deps:
	@scripts/install-deps

test-deps:
	@scripts/install-deps --tests

# Installs the release build under $(DESTDIR)$(PREFIX); `make uninstall` with the same
# variables removes exactly what it put there (scripts/install-files).
install: release
	@scripts/install-files install "$(PREFIX)" "$(DESTDIR)" .build/release

# `make install` without the build: the binaries in $(BUILT) (the tests install their debug build).
install-files:
	@scripts/install-files install "$(PREFIX)" "$(DESTDIR)" "$(BUILT)"

uninstall:
	@scripts/install-files uninstall "$(PREFIX)" "$(DESTDIR)"

# Regenerates the committed completion scripts from the binary.
completions: build
	.build/debug/almanac --generate-completion-script bash > completions/almanac.bash
	.build/debug/almanac --generate-completion-script zsh > completions/_almanac
	.build/debug/almanac --generate-completion-script fish > completions/almanac.fish

# Regenerates the committed man/almanac.1: swift-argument-parser's generate-manual plugin
# writes the page for the command line, then almanac adds its command table, keys, files and
# the rest (Sources/AlmanacShell/Manual). A page that changed only in its date is kept.
GENERATED_MANUAL := .build/plugins/GenerateManual/outputs/almanac/almanac.1
man: build
	$(SWIFT) package generate-manual --configuration debug --date "$$(date +%F)"
	.build/debug/almanac --experimental-manual-page $(GENERATED_MANUAL) > .build/almanac.1
	@mkdir -p man; sed '/^\.Dd /d' .build/almanac.1 > .build/almanac.1.undated; \
	if [ -f man/almanac.1 ] && sed '/^\.Dd /d' man/almanac.1 | cmp -s - .build/almanac.1.undated; then \
		echo "man/almanac.1 is current"; \
	else cp .build/almanac.1 man/almanac.1; echo "man/almanac.1 regenerated"; fi
