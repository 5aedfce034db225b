/* The C API's FRACT_F32 on 64-lane chunks, timed from C (run by
 * capi/benches/bindings.rs, which compiles it with -O2 against the release
 * static library). Usage: bindings_c LANES RING REPS. Prints the median
 * Mlanes/s over REPS passes of LANES lanes in 64-lane calls cycling
 * through RING lanes, and a checksum. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <amdgpu_valu.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static uint64_t state = 0x9e3779b97f4a7c15ull;

/* xorshift64, as in bindings.rs, so both sides see the same lanes. */
static uint64_t next(void) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    size_t lanes = argc > 1 ? strtoull(argv[1], NULL, 10) : 4194304;
    size_t ring = argc > 2 ? strtoull(argv[2], NULL, 10) : 65536;
    int reps = argc > 3 ? atoi(argv[3]) : 9;
    if (ring == 0 || ring % 64 || lanes % 64) return 2;
    uint32_t *src = malloc(ring * sizeof *src), *dst = malloc(ring * sizeof *dst);
    double *rate = malloc(reps * sizeof *rate);
    if (!src || !dst || !rate) return 2;
    for (size_t i = 0; i < ring; ++i) {
        uint64_t r = next();
        /* Sign and fraction random, exponent 2^-8 .. 2^31 (biased 119..158). */
        src[i] = (uint32_t)(r & 0x807fffffu) | (uint32_t)(119 + (r >> 40) % 40) << 23;
    }
    uint32_t gfx1201 = 0;
    if (avalu_target_by_name("gfx1201", &gfx1201) != AVALU_STATUS_OK) return 2;
    AvaluMods mods = {0, 0, 0, 0};
    for (int r = 0; r < reps; ++r) {
        double t = now();
        for (size_t i = 0; i < lanes; i += 64) {
            size_t off = i % ring;
            if (avalu_fract_f32(gfx1201, 0xf0, mods, NULL, src + off, dst + off, 64) != AVALU_STATUS_OK) {
                fprintf(stderr, "%s\n", avalu_last_error());
                return 1;
            }
        }
        rate[r] = lanes / (now() - t) / 1e6;
    }
    qsort(rate, reps, sizeof *rate, cmp);
    uint64_t sum = 0;
    for (size_t i = 0; i < ring; ++i) sum = sum * 31 + dst[i];
    printf("%.1f %llu\n", rate[reps / 2], (unsigned long long)sum);
    return 0;
}
