#ifndef CITYSIM_CCACHEHINT_H
#define CITYSIM_CCACHEHINT_H

/// Asks the CPU to start loading the cache line holding `address` for a read soon. A hint only: it cannot
/// fault, changes no value and is dropped when the memory system is busy. Swift has no prefetch of its own.
/// `CustomerFeed` uses it for the customers the producer thread wrote on the other core.
static inline void citysim_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

/// `citysim_prefetch` for every 64-byte cache line that `bytes` bytes from `address` touch.
static inline void citysim_prefetch_range(const void *address, long bytes) {
    const char *line = (const char *)((unsigned long)address & ~63UL);
    const char *end = (const char *)address + bytes;
    for (; line < end; line += 64) __builtin_prefetch(line, 0, 3);
}

#endif
