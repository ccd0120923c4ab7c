// Dependent-load latency by working-set size: a random cyclic pointer chase, one 64-byte line per step.
// gcc -O2 -o /tmp/lat Scripts/memory-latency.c && for m in 1 4 16 64; do /tmp/lat $m; done   (Results/bench/speed.md)
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
int main(int argc, char **argv) {
  size_t mb = argc > 1 ? atoi(argv[1]) : 64, n = mb * 1024 * 1024 / 64;
  size_t *a = aligned_alloc(64, n * 64), *perm = malloc(n * sizeof(size_t));
  for (size_t i = 0; i < n; i++) perm[i] = i;
  srand(1); for (size_t i = n - 1; i > 0; i--) { size_t j = ((size_t)rand() * RAND_MAX + rand()) % (i + 1); size_t t = perm[i]; perm[i] = perm[j]; perm[j] = t; }
  for (size_t i = 0; i < n; i++) a[perm[i] * 8] = perm[(i + 1) % n] * 8;
  size_t p = perm[0] * 8, steps = 20000000; struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (size_t i = 0; i < steps; i++) p = a[p];
  clock_gettime(CLOCK_MONOTONIC, &t1);
  printf("%zu MB: %.1f ns per dependent load (%zu)\n", mb, ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / steps, p & 1);
}
