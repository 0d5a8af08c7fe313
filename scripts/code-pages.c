// Reads an executable's code back into the page cache in 2 MB pages (folios), so that every
// start maps it in one fault per 2 MB instead of one per 64 KB window, and tears down as few
// entries: `almanac -c quit` 0.11-0.14 ms faster, the 1x first answer 0.17-0.28 ms (see
// BENCHMARKS.md). Linux puts a file's pages in 2 MB folios when a mapping that asked for huge
// pages (MADV_HUGEPAGE) reads them; they stay until the cache drops them, and any later
// mapping at a matching address (the release binary's code is at 0x400000, from offset 0)
// maps them whole. Where the kernel or file system cannot, nothing changes.
//
// usage: code-pages FILE   (exit 0 unless FILE cannot be read as an ELF executable)
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define HUGE_PAGE (2UL << 20)

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: code-pages FILE\n");
        return 2;
    }
    int fd = open(argv[1], O_RDONLY | O_CLOEXEC);
    Elf64_Ehdr header;
    if (fd < 0 || pread(fd, &header, sizeof header, 0) != sizeof header || memcmp(header.e_ident, ELFMAG, SELFMAG) != 0
        || header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_phentsize != sizeof(Elf64_Phdr)) {
        fprintf(stderr, "code-pages: %s is not a 64-bit ELF file\n", argv[1]);
        return 1;
    }
    uint64_t end = 0;
    for (int i = 0; i < header.e_phnum; i++) {
        Elf64_Phdr segment;
        if (pread(fd, &segment, sizeof segment, header.e_phoff + (off_t)i * sizeof segment) != sizeof segment) return 1;
        if (segment.p_type != PT_LOAD || !(segment.p_flags & PF_X)) continue;
        // Mapped whole only where the address and the file offset agree within 2 MB.
        if ((segment.p_vaddr - segment.p_offset) % HUGE_PAGE != 0) return 0;
        if (segment.p_offset + segment.p_filesz > end) end = segment.p_offset + segment.p_filesz;
    }
    end &= ~(HUGE_PAGE - 1);
    if (end == 0) return 0;
    // Written pages must reach the disk before the cache can drop them.
    fdatasync(fd);
    posix_fadvise(fd, 0, (off_t)end, POSIX_FADV_DONTNEED);
    // Read back through a mapping at a 2 MB boundary that asked for huge pages.
    uint8_t *reserved = mmap(NULL, end + HUGE_PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (reserved == MAP_FAILED) return 0;
    uint8_t *aligned = (uint8_t *)(((uintptr_t)reserved + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1));
    uint8_t *code = mmap(aligned, end, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0);
    if (code == MAP_FAILED) return 0;
    madvise(code, end, MADV_HUGEPAGE);
    volatile uint8_t sum = 0;
    for (uint64_t offset = 0; offset < end; offset += 4096) sum += code[offset];
    (void)sum;
    return 0;
}
