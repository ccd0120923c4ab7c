/*
 * Reference: a plain binary min-heap of (double time, uint64 seq) pairs,
 * driven by the "hold" pattern the simulator produces: keep N events
 * pending, then repeatedly pop the earliest and schedule one new event at
 * now + Exp(1). Prints schedule-and-pop pairs per second.
 *
 * Ordering is (time, seq) so ties are FIFO, like citysim's EventQueue.
 * Exponential delays come from a precomputed table (SplitMix64 + -log(u))
 * so the timing measures the heap, not the random number generator.
 *
 *   gcc -O2 -o /tmp/heap heap.c -lm && /tmp/heap
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct { double time; uint64_t seq; } event_t;

static event_t *heap;
static size_t heap_count;
static uint64_t next_seq;

static inline int before(const event_t *a, const event_t *b) {
    if (a->time != b->time) return a->time < b->time;
    return a->seq < b->seq;
}

static void push(double time) {
    event_t e = { time, next_seq++ };
    size_t hole = heap_count++;
    while (hole > 0) {
        size_t parent = (hole - 1) / 2;
        if (!before(&e, &heap[parent])) break;
        heap[hole] = heap[parent];
        hole = parent;
    }
    heap[hole] = e;
}

static event_t pop(void) {
    event_t top = heap[0];
    event_t last = heap[--heap_count];
    size_t hole = 0, n = heap_count;
    for (;;) {
        size_t child = 2 * hole + 1;
        if (child >= n) break;
        if (child + 1 < n && before(&heap[child + 1], &heap[child])) child++;
        if (!before(&heap[child], &last)) break;
        heap[hole] = heap[child];
        hole = child;
    }
    heap[hole] = last;
    return top;
}

static uint64_t splitmix_state = 42;
static uint64_t splitmix64(void) {
    uint64_t z = (splitmix_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

#define DELAYS (1u << 20)
static double delays[DELAYS];

static double seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void run(size_t pending, size_t pairs) {
    heap = malloc(sizeof(event_t) * (pending + 1));
    heap_count = 0;
    next_seq = 0;
    size_t d = 0;
    for (size_t i = 0; i < pending; i++) push(delays[d++ & (DELAYS - 1)]);
    double checksum = 0;
    double start = seconds();
    for (size_t i = 0; i < pairs; i++) {
        event_t e = pop();
        checksum += e.time;
        push(e.time + delays[d++ & (DELAYS - 1)]);
    }
    double elapsed = seconds() - start;
    printf("binary heap, %6zu pending: %6.2f M pairs/s  (%zu pairs in %.3f s, checksum %.6g)\n",
           pending, pairs / elapsed / 1e6, pairs, elapsed, checksum);
    free(heap);
}

int main(void) {
    for (size_t i = 0; i < DELAYS; i++) {
        double u = (double)(splitmix64() >> 11) * 0x1.0p-53;  /* [0, 1) */
        delays[i] = -log1p(-u);                              /* Exp(mean 1) */
    }
    run(1000, 20000000);
    run(100000, 10000000);
    return 0;
}
