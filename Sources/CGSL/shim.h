#ifndef CITYSIM_CGSL_SHIM_H
#define CITYSIM_CGSL_SHIM_H
#include <gsl/gsl_errno.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>
#include <gsl/gsl_sort.h>

/// Swift 6 rejects GSL's mutable global generator types; these accessors hand them out safely.
static inline const gsl_rng_type *cgsl_rng_mt19937(void) { return gsl_rng_mt19937; }
static inline const gsl_rng_type *cgsl_rng_ranlxd2(void) { return gsl_rng_ranlxd2; }
static inline const gsl_rng_type *cgsl_rng_taus2(void) { return gsl_rng_taus2; }

/// GSL's mt19937, with the same state layout, seeding and output, but a regeneration without branches.
///
/// GSL's own `mt_get` refills its 624 words with `(y & 1) ? 0x9908b0df : 0`, a branch the CPU mispredicts
/// half the time: perf put ~8 % of the megacity scenario there. This refill computes the same words with a
/// mask. `RandomStream` allocates and seeds a generator with GSL's `gsl_rng_mt19937` (its `set` is used
/// unchanged), then points it at `cgsl_mt19937_fast`, so GSL's distributions and the inline
/// `cgsl_mt_uniform` draw the same numbers from one state, in the order they are asked for.
///
/// Invariant: `cgsl_mt_state` is GSL's private `mt_state_t` (`unsigned long mt[624]; int mti;`);
/// `RandomStream` checks the sizes agree before switching, and a test compares draws with GSL's.
typedef struct { unsigned long mt[624]; int mti; } cgsl_mt_state;

static inline void cgsl_mt_refill(cgsl_mt_state *state) {
    unsigned long *const mt = state->mt;
    int kk;
    for (kk = 0; kk < 624 - 397; kk++) {
        unsigned long y = (mt[kk] & 0x80000000UL) | (mt[kk + 1] & 0x7fffffffUL);
        mt[kk] = mt[kk + 397] ^ (y >> 1) ^ ((0UL - (y & 1UL)) & 0x9908b0dfUL);
    }
    for (; kk < 623; kk++) {
        unsigned long y = (mt[kk] & 0x80000000UL) | (mt[kk + 1] & 0x7fffffffUL);
        mt[kk] = mt[kk + (397 - 624)] ^ (y >> 1) ^ ((0UL - (y & 1UL)) & 0x9908b0dfUL);
    }
    unsigned long y = (mt[623] & 0x80000000UL) | (mt[0] & 0x7fffffffUL);
    mt[623] = mt[396] ^ (y >> 1) ^ ((0UL - (y & 1UL)) & 0x9908b0dfUL);
    state->mti = 0;
}

static inline unsigned long cgsl_mt_get(void *vstate) {
    cgsl_mt_state *state = (cgsl_mt_state *)vstate;
    if (__builtin_expect(state->mti >= 624, 0)) cgsl_mt_refill(state);
    unsigned long k = state->mt[state->mti++];
    k ^= (k >> 11);
    k ^= (k << 7) & 0x9d2c5680UL;
    k ^= (k << 15) & 0xefc60000UL;
    k ^= (k >> 18);
    return k;
}

static inline double cgsl_mt_get_double(void *vstate) { return (double)cgsl_mt_get(vstate) / 4294967296.0; }

/// `gsl_rng_uniform` for a generator switched to `cgsl_mt19937_fast`, inlined into the caller.
static inline double cgsl_mt_uniform(const gsl_rng *r) { return cgsl_mt_get_double(r->state); }

/// GSL's `mt_set` (the 2002 seeding), so `gsl_rng_set` on a switched generator seeds as GSL's would.
static void cgsl_mt_set(void *vstate, unsigned long s) {
    cgsl_mt_state *state = (cgsl_mt_state *)vstate;
    if (s == 0) s = 4357;
    state->mt[0] = s & 0xffffffffUL;
    int i;
    for (i = 1; i < 624; i++) {
        state->mt[i] = (1812433253UL * (state->mt[i - 1] ^ (state->mt[i - 1] >> 30)) + i) & 0xffffffffUL;
    }
    state->mti = i;
}

static const gsl_rng_type cgsl_mt19937_fast_type = {
    "mt19937", 0xffffffffUL, 0, sizeof(cgsl_mt_state), &cgsl_mt_set, &cgsl_mt_get, &cgsl_mt_get_double
};

/// The branchless mt19937 type.
static inline const gsl_rng_type *cgsl_mt19937_fast(void) { return &cgsl_mt19937_fast_type; }
#endif
