/* The C side of capi/benches/bindings.rs, compiled by it with -O2 against
 * the release static library. Usage:
 *   bindings_c DIR WHOLE RING REPS TARGET MODE OP:FMT...
 * For each row (fract:f16, add:f32...), reads DIR/{a,b,c}_FMT.bin,
 * DIR/exp_FMT.bin and DIR/want_ROW.bin (the Rust bare kernel's bits), and
 * prints "OP:FMT c64 cone cprep64": the median Mlanes/s over REPS passes of
 * the one-shot function in 64-lane calls cycling through RING lanes, of one
 * call over WHOLE lanes, and of avalu_prepared_run_* in 64-lane calls.
 * Every result is checked against the Rust bits; a difference exits 1.
 * Every array starts on a 4 KiB page, the destination BINDINGS_DST_SHIFT
 * bytes past one (default 0), as on the Rust side (see PageArray there):
 * left to malloc, the F32 arrays landed with the destination 80 bytes past
 * the source modulo 4 KiB, where a call's stores and the next call's loads
 * 4K-alias. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <amdgpu_valu.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#define PAGE 4096

/* bytes bytes on a fresh page (free it with free). */
static void *page_alloc(size_t bytes) {
    void *p = aligned_alloc(PAGE, (bytes + PAGE - 1) / PAGE * PAGE);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

static void *load(const char *dir, const char *name, size_t bytes) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    void *p = page_alloc(bytes);
    if (!f || !p || fread(p, 1, bytes, f) != bytes) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    fclose(f);
    return p;
}

static const char *OPS[] = {"fract", "ldexp", "add", "sub", "subrev", "mul", "fma"};

static uint32_t target;
static uint32_t mode;

/* The one-shot function of op in format fmt (0 F16, 1 F32, 2 F64). */
static AvaluStatus oneshot(int op, int fmt, const void *a, const void *b, const void *c,
                           const int32_t *e, void *d, size_t n) {
    AvaluMods m = {0, 0, 0, 0};
    AvaluArithMods am = {0, 0, 0, 0};
#define FORMATS(F, ...)                                                                    \
    switch (fmt) {                                                                         \
    case 0: return avalu_##F##_f16(target, mode, __VA_ARGS__, (uint16_t *)d, n);           \
    case 1: return avalu_##F##_f32(target, mode, __VA_ARGS__, (uint32_t *)d, n);           \
    default: return avalu_##F##_f64(target, mode, __VA_ARGS__, (uint64_t *)d, n);         \
    }
    switch (op) {
    case 0:
        switch (fmt) {
        case 0: return avalu_fract_f16(target, mode, m, NULL, (const uint16_t *)a, (uint16_t *)d, n);
        case 1: return avalu_fract_f32(target, mode, m, NULL, (const uint32_t *)a, (uint32_t *)d, n);
        default: return avalu_fract_f64(target, mode, m, NULL, (const uint64_t *)a, (uint64_t *)d, n);
        }
    case 1:
        switch (fmt) {
        case 0: return avalu_ldexp_f16(target, mode, m, NULL, (const uint16_t *)a, e, (uint16_t *)d, n);
        case 1: return avalu_ldexp_f32(target, mode, m, NULL, (const uint32_t *)a, e, (uint32_t *)d, n);
        default: return avalu_ldexp_f64(target, mode, m, NULL, (const uint64_t *)a, e, (uint64_t *)d, n);
        }
    case 2: FORMATS(add, am, NULL, a, b)
    /* No target has V_SUB_F64 or V_SUBREV_F64. */
    case 3: return fmt ? avalu_sub_f32(target, mode, am, NULL, a, b, (uint32_t *)d, n)
                       : avalu_sub_f16(target, mode, am, NULL, a, b, (uint16_t *)d, n);
    case 4: return fmt ? avalu_subrev_f32(target, mode, am, NULL, a, b, (uint32_t *)d, n)
                       : avalu_subrev_f16(target, mode, am, NULL, a, b, (uint16_t *)d, n);
    case 5: FORMATS(mul, am, NULL, a, b)
    default: FORMATS(fma, am, NULL, a, b, c)
    }
#undef FORMATS
}

static AvaluStatus prepared(const AvaluPrepared *p, int op, int fmt, const char *a, const char *b,
                            const char *c, const int32_t *e, char *d, size_t n) {
    int k = op == 6 ? 3 : op >= 2 ? 2 : 1;
    const void *s1 = k > 1 ? b : NULL, *s2 = k > 2 ? c : NULL;
    const int32_t *x = op == 1 ? e : NULL;
    switch (fmt) {
    case 0:
        return avalu_prepared_run_f16(p, NULL, (const uint16_t *)a, (const uint16_t *)s1, (const uint16_t *)s2, x,
                                      (uint16_t *)d, n);
    case 1:
        return avalu_prepared_run_f32(p, NULL, (const uint32_t *)a, (const uint32_t *)s1, (const uint32_t *)s2, x,
                                      (uint32_t *)d, n);
    default:
        return avalu_prepared_run_f64(p, NULL, (const uint64_t *)a, (const uint64_t *)s1, (const uint64_t *)s2, x,
                                      (uint64_t *)d, n);
    }
}

int main(int argc, char **argv) {
    if (argc < 7) return 2;
    const char *dir = argv[1];
    size_t whole = strtoull(argv[2], NULL, 10), ring = strtoull(argv[3], NULL, 10);
    int reps = atoi(argv[4]);
    target = (uint32_t)strtoul(argv[5], NULL, 10);
    mode = (uint32_t)strtoul(argv[6], NULL, 10);
    if (ring == 0 || ring % 64 || ring > whole || reps < 1) return 2;
    double *rate = malloc(reps * sizeof *rate);
    const char *shift_text = getenv("BINDINGS_DST_SHIFT");
    size_t shift = shift_text ? strtoull(shift_text, NULL, 10) % PAGE / 8 * 8 : 0;
    for (int r = 7; r < argc; ++r) {
        char name[64];
        snprintf(name, sizeof name, "%s", argv[r]);
        char *colon = strchr(name, ':');
        if (!colon) return 2;
        *colon = 0;
        const char *fmts[] = {"f16", "f32", "f64"};
        int op = -1, fmt = -1;
        for (int i = 0; i < 7; ++i)
            if (!strcmp(name, OPS[i])) op = i;
        for (int i = 0; i < 3; ++i)
            if (!strcmp(colon + 1, fmts[i])) fmt = i;
        if (op < 0 || fmt < 0) return 2;
        size_t size = (size_t)2 << fmt, bytes = whole * size;
        char file[64];
        snprintf(file, sizeof file, "a_%s.bin", fmts[fmt]);
        char *a = load(dir, file, bytes);
        snprintf(file, sizeof file, "b_%s.bin", fmts[fmt]);
        char *b = load(dir, file, bytes);
        snprintf(file, sizeof file, "c_%s.bin", fmts[fmt]);
        char *c = load(dir, file, bytes);
        snprintf(file, sizeof file, "exp_%s.bin", fmts[fmt]);
        int32_t *e = load(dir, file, whole * 4);
        snprintf(file, sizeof file, "want_%d.bin", r - 7);
        char *want = load(dir, file, bytes);
        char *d_page = page_alloc(bytes + shift), *d = d_page + shift;
        AvaluPrepared *p = NULL;
        AvaluArithMods none = {0, 0, 0, 0};
        if (avalu_prepared_new(target, (uint32_t)op, (uint32_t)fmt, mode, none, &p) != AVALU_STATUS_OK) {
            fprintf(stderr, "%s\n", avalu_last_error());
            return 1;
        }
        double fig[3];
        for (int col = 0; col < 3; ++col) {
            memset(d, 0, bytes);
            for (int rep = -1; rep < reps; ++rep) {
                double t = now();
                size_t lanes = ring;
                if (col == 1) {
                    lanes = whole;
                    if (oneshot(op, fmt, a, b, c, e, d, whole) != AVALU_STATUS_OK) goto fail;
                } else {
                    for (size_t i = 0; i < ring; i += 64) {
                        size_t o = i * size;
                        AvaluStatus s = col == 0 ? oneshot(op, fmt, a + o, b + o, c + o, e + i, d + o, 64)
                                                 : prepared(p, op, fmt, a + o, b + o, c + o, e + i, d + o, 64);
                        if (s != AVALU_STATUS_OK) goto fail;
                    }
                }
                if (rep >= 0) rate[rep] = lanes / (now() - t) / 1e6;
            }
            qsort(rate, reps, sizeof *rate, cmp);
            fig[col] = rate[reps / 2];
            if (memcmp(d, want, (col == 1 ? whole : ring) * size)) {
                fprintf(stderr, "%s column %d: bits differ from the Rust bare kernel\n", argv[r], col);
                return 1;
            }
        }
        printf("%s %.1f %.1f %.1f\n", argv[r], fig[0], fig[1], fig[2]);
        avalu_prepared_free(p);
        free(a), free(b), free(c), free(e), free(want), free(d_page);
    }
    return 0;
fail:
    fprintf(stderr, "%s\n", avalu_last_error());
    return 1;
}
