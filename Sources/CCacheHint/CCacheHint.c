// The module is its header's inline function, and the page population below.
#include "CCacheHint.h"

#ifdef __linux__
#include <sys/mman.h>
#include <unistd.h>
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
#endif

int citysim_populate_pages(void *address, long bytes) {
#ifdef __linux__
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0 || bytes <= 0) return -1;
    unsigned long start = ((unsigned long)address + (unsigned long)page - 1) & ~((unsigned long)page - 1);
    unsigned long end = ((unsigned long)address + (unsigned long)bytes) & ~((unsigned long)page - 1);
    if (end <= start) return 0;  // no whole page in the range
    return madvise((void *)start, end - start, MADV_POPULATE_WRITE) == 0 ? 0 : -1;
#else
    (void)address; (void)bytes;
    return -1;
#endif
}
