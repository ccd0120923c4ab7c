#ifndef CITYSIM_CCACHEHINT_H
#define CITYSIM_CCACHEHINT_H

/// Asks the CPU to start loading, for a read soon, every 64-byte cache line that `bytes` bytes from `address`
/// touch. A hint only: it cannot fault, changes no value and is dropped when the memory system is busy. Swift
/// has no prefetch of its own. Used for the customers the feed's producer wrote on the other core, a bucket's
/// event blocks before a refill, and the records the loop's next event will read.
static inline void citysim_prefetch_range(const void *address, long bytes) {
    const char *line = (const char *)((unsigned long)address & ~63UL);
    const char *end = (const char *)address + bytes;
    for (; line < end; line += 64) __builtin_prefetch(line, 0, 3);
}

/// Has the kernel map, writable, every whole page within `bytes` bytes from `address`, as a first write to each
/// would, but without writing (Linux's `MADV_POPULATE_WRITE`, 5.14 and later). Memory contents do not change, so
/// it may run on one thread while another writes into the range. Returns 0, or -1 where the kernel cannot
/// (another system, an older kernel, a range not mapped): the pages then fault at their first write, as before.
int citysim_populate_pages(void *address, long bytes);

#endif
