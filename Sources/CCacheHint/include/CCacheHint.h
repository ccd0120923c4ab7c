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

#endif
