#ifndef CITYSIM_CCACHEHINT_H
#define CITYSIM_CCACHEHINT_H

/// Asks the CPU to start loading the cache line holding `address` for a read soon. A hint only: it cannot
/// fault, changes no value and is dropped when the memory system is busy. Swift has no prefetch of its own.
/// `CustomerFeed` uses it for the customers the producer thread wrote on the other core.
static inline void citysim_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

#endif
