// Linux interfaces for tracking which pages of this process are written: userfaultfd's asynchronous
// write protection (Linux 5.7, asynchronous since 6.7) and /proc/self/pagemap's PAGEMAP_SCAN
// (Linux 6.7). Debian 12's kernel headers predate the last two, so their numbers are spelled here,
// as the kernel's uapi headers define them. No library is linked: these are system calls.
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <malloc.h>
#include <sys/syscall.h>
#include <linux/userfaultfd.h>

#define FORGE_UFFD_FEATURE_WP_UNPOPULATED (1ULL << 13)
#define FORGE_UFFD_FEATURE_WP_ASYNC (1ULL << 15)

#define FORGE_PAGE_IS_WP_ALLOWED (1ULL << 0)
#define FORGE_PAGE_IS_WRITTEN (1ULL << 1)
#define FORGE_PAGE_IS_PRESENT (1ULL << 3)
#define FORGE_PAGE_IS_SWAPPED (1ULL << 4)
#define FORGE_PM_SCAN_WP_MATCHING (1ULL << 0)

struct forge_page_region {
    uint64_t start;
    uint64_t end;
    uint64_t categories;
};

struct forge_pm_scan_arg {
    uint64_t size;
    uint64_t flags;
    uint64_t start;
    uint64_t end;
    uint64_t walk_end;
    uint64_t vec;
    uint64_t vec_len;
    uint64_t max_pages;
    uint64_t category_inverted;
    uint64_t category_mask;
    uint64_t category_anyof_mask;
    uint64_t return_mask;
};

#define FORGE_PAGEMAP_SCAN _IOWR('f', 16, struct forge_pm_scan_arg)

/// A userfaultfd for this process's own faults, with asynchronous write protection that also
/// covers pages not yet populated; -1 where the kernel or its policy does not allow it.
static inline int forge_write_tracking_open(void) {
    int fd = (int)syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY);
    if (fd < 0) return -1;
    struct uffdio_api api;
    memset(&api, 0, sizeof api);
    api.api = UFFD_API;
    api.features = FORGE_UFFD_FEATURE_WP_ASYNC | FORGE_UFFD_FEATURE_WP_UNPOPULATED;
    if (ioctl(fd, UFFDIO_API, &api) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/// Write-protects [start, start + length) of a registered range (pages not there get a marker,
/// so a later write to them is tracked too); 0 on success.
static inline int forge_write_protect(int fd, uint64_t start, uint64_t length) {
    struct uffdio_writeprotect protect;
    memset(&protect, 0, sizeof protect);
    protect.range.start = start;
    protect.range.len = length;
    protect.mode = UFFDIO_WRITEPROTECT_MODE_WP;
    return ioctl(fd, UFFDIO_WRITEPROTECT, &protect);
}

/// Registers [start, start + length) for write protection and protects it; 0 on success.
static inline int forge_write_tracking_register(int fd, uint64_t start, uint64_t length) {
    struct uffdio_register registration;
    memset(&registration, 0, sizeof registration);
    registration.range.start = start;
    registration.range.len = length;
    registration.mode = UFFDIO_REGISTER_MODE_WP;
    if (ioctl(fd, UFFDIO_REGISTER, &registration) != 0) return -1;
    return forge_write_protect(fd, start, length);
}

/// PAGEMAP_SCAN over [start, end) on an open /proc/self/pagemap: fills `regions` with runs of
/// pages in any of `categories` (and in all of `required`), write-protecting them again when
/// `protect` is set; returns the number of runs (or -1) and where the walk stopped in `walkEnd`.
static inline long forge_pagemap_scan(
    int pagemap, uint64_t start, uint64_t end, uint64_t categories, uint64_t required, int protect,
    struct forge_page_region *regions, uint64_t capacity, uint64_t *walkEnd
) {
    struct forge_pm_scan_arg argument;
    memset(&argument, 0, sizeof argument);
    argument.size = sizeof argument;
    argument.flags = protect ? FORGE_PM_SCAN_WP_MATCHING : 0;
    argument.start = start;
    argument.end = end;
    argument.vec = (uint64_t)(uintptr_t)regions;
    argument.vec_len = capacity;
    argument.category_mask = required;
    argument.category_anyof_mask = categories;
    argument.return_mask = categories;
    long found = ioctl(pagemap, FORGE_PAGEMAP_SCAN, &argument);
    *walkEnd = argument.walk_end;
    return found;
}

/// Keeps this process's allocations in its heap's existing mappings: none gets a mapping of its own
/// and freed memory is not returned, so the set of mappings stays what it was.
static inline void forge_keep_allocations_in_place(void) {
    mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
    mallopt(M_TRIM_THRESHOLD, -1);
}
