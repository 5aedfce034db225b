/*
 * The prepared instructions of the C API (avalu_prepared_new,
 * avalu_prepared_run_f16/_f32/_f64, avalu_prepared_free) on caller arrays,
 * checked against bits derived by hand (each comment says how) and against
 * the one-shot functions, and the statuses of refused calls.
 *
 * Valid C11 and C++17: capi/tests/c_programs.rs builds it as both and runs
 * it; it prints one line per check and "N checks, 0 failed" at the end.
 */

#include <amdgpu_valu.h>

#include <inttypes.h>
#include <stdio.h>

static int checks = 0;
static int failures = 0;

static void check(const char *what, uint64_t got, uint64_t want) {
    ++checks;
    if (got != want) {
        ++failures;
        printf("FAIL %s: got 0x%" PRIx64 ", want 0x%" PRIx64 " (%s)\n", what, got, want,
               avalu_last_error());
    } else {
        printf("ok   %s\n", what);
    }
}

static void check_status(const char *what, AvaluStatus got, AvaluStatus want) {
    ++checks;
    if (got != want) {
        ++failures;
        printf("FAIL %s: status %d, want %d (%s)\n", what, (int)got, (int)want, avalu_last_error());
    } else {
        printf("ok   %s%s%s\n", what, got ? ": " : "", got ? avalu_last_error() : "");
    }
}

static AvaluArithMods mods(uint8_t abs, uint8_t neg, uint8_t clamp, uint8_t omod) {
    AvaluArithMods m;
    m.abs = abs;
    m.neg = neg;
    m.clamp = clamp;
    m.omod = omod;
    return m;
}

int main(void) {
    uint32_t gfx1201 = 0, gfx942 = 0;
    if (avalu_target_by_name("gfx1201", &gfx1201) != AVALU_STATUS_OK ||
        avalu_target_by_name("gfx942", &gfx942) != AVALU_STATUS_OK) {
        printf("FAIL targets: %s\n", avalu_last_error());
        return 1;
    }
    const AvaluArithMods none = mods(0, 0, 0, 0);

    /* F32 FRACT, gfx1201, MODE 0xf0: FRACT(1.5) = 0.5 (0x3f000000);
     * FRACT(-1.25) = -1.25 - (-2) = 0.75 (0x3f400000). NEG on src0:
     * FRACT(-1.5) = 0.5 as well, FRACT(1.25) = 0.25 (0x3e800000). */
    {
        AvaluPrepared *p = NULL;
        check_status("new fract f32", avalu_prepared_new(gfx1201, AVALU_OP_FRACT, AVALU_FORMAT_F32, 0xf0, none, &p),
                     AVALU_STATUS_OK);
        check("format", avalu_prepared_format(p), AVALU_FORMAT_F32);
        const uint32_t x[2] = {0x3fc00000u, 0xbfa00000u};
        uint32_t d[2] = {0, 0};
        check_status("run fract f32", avalu_prepared_run_f32(p, NULL, x, NULL, NULL, NULL, d, 2), AVALU_STATUS_OK);
        check("fract 1.5", d[0], 0x3f000000u);
        check("fract -1.25", d[1], 0x3f400000u);
        /* EXEC 0b10: lane 0 keeps 0x12345678. */
        const uint64_t exec = 2;
        d[0] = 0x12345678u;
        check_status("run fract f32 exec", avalu_prepared_run_f32(p, &exec, x, NULL, NULL, NULL, d, 2),
                     AVALU_STATUS_OK);
        check("fract inactive lane", d[0], 0x12345678u);
        /* The same bits as the one-shot function. */
        uint32_t one[2] = {0, 0};
        AvaluMods m = {0, 0, 0, 0};
        avalu_fract_f32(gfx1201, 0xf0, m, NULL, x, one, 2);
        check("fract = avalu_fract_f32", d[1], one[1]);
        /* Wrong format's function; FRACT given src1 or exp. */
        uint16_t h[2] = {0, 0};
        check_status("f16 run on f32 handle", avalu_prepared_run_f16(p, NULL, h, NULL, NULL, NULL, h, 2),
                     AVALU_STATUS_INVALID_ARGUMENT);
        const int32_t e[2] = {0, 0};
        check_status("fract with exp", avalu_prepared_run_f32(p, NULL, x, NULL, NULL, e, d, 2),
                     AVALU_STATUS_INVALID_ARGUMENT);
        check_status("fract with src1", avalu_prepared_run_f32(p, NULL, x, x, NULL, NULL, d, 2),
                     AVALU_STATUS_INVALID_ARGUMENT);
        check_status("NULL src0", avalu_prepared_run_f32(p, NULL, NULL, NULL, NULL, NULL, d, 2),
                     AVALU_STATUS_NULL_POINTER);
        check_status("zero lanes", avalu_prepared_run_f32(p, NULL, NULL, NULL, NULL, NULL, NULL, 0), AVALU_STATUS_OK);
        avalu_prepared_free(p);
    }

    /* F16 LDEXP, gfx1201: 1.0 (0x3c00) x 2^3 = 8.0 (biased exponent 15 + 3
     * = 18: 0x4800); the word 0x5a5affff reads as -1: 0.5 (0x3800). */
    {
        AvaluPrepared *p = NULL;
        check_status("new ldexp f16", avalu_prepared_new(gfx1201, AVALU_OP_LDEXP, AVALU_FORMAT_F16, 0xf0, none, &p),
                     AVALU_STATUS_OK);
        const uint16_t x[2] = {0x3c00u, 0x3c00u};
        const int32_t e[2] = {3, (int32_t)0x5a5affff};
        uint16_t d[2] = {0, 0};
        check_status("run ldexp f16", avalu_prepared_run_f16(p, NULL, x, NULL, NULL, e, d, 2), AVALU_STATUS_OK);
        check("ldexp 1 x 2^3", d[0], 0x4800u);
        check("ldexp 1 x 2^-1", d[1], 0x3800u);
        check_status("ldexp without exp", avalu_prepared_run_f16(p, NULL, x, NULL, NULL, NULL, d, 2),
                     AVALU_STATUS_NULL_POINTER);
        avalu_prepared_free(p);
    }

    /* F64 FMA, gfx942, NEG on src2: 2 x 3 - 1 = 5 (0x4014000000000000),
     * in place (dst is src0). */
    {
        AvaluPrepared *p = NULL;
        check_status("new fma f64", avalu_prepared_new(gfx942, AVALU_OP_FMA, AVALU_FORMAT_F64, 0xf0, mods(0, 4, 0, 0), &p),
                     AVALU_STATUS_OK);
        uint64_t a[1] = {0x4000000000000000ull};
        const uint64_t b[1] = {0x4008000000000000ull}, c[1] = {0x3ff0000000000000ull};
        check_status("run fma f64 in place", avalu_prepared_run_f64(p, NULL, a, b, c, NULL, a, 1), AVALU_STATUS_OK);
        check("fma 2 x 3 - 1", a[0], 0x4014000000000000ull);
        avalu_prepared_free(p);
    }

    /* Refused instructions and handles. */
    {
        AvaluPrepared *p = NULL;
        check_status("sub f64", avalu_prepared_new(gfx1201, AVALU_OP_SUB, AVALU_FORMAT_F64, 0, none, &p),
                     AVALU_STATUS_EXECUTE);
        check_status("abs on src1 of fract", avalu_prepared_new(gfx1201, AVALU_OP_FRACT, AVALU_FORMAT_F32, 0, mods(2, 0, 0, 0), &p),
                     AVALU_STATUS_EXECUTE);
        check_status("op 7", avalu_prepared_new(gfx1201, 7, AVALU_FORMAT_F32, 0, none, &p),
                     AVALU_STATUS_INVALID_ARGUMENT);
        check_status("format 3", avalu_prepared_new(gfx1201, AVALU_OP_ADD, 3, 0, none, &p),
                     AVALU_STATUS_INVALID_ARGUMENT);
        check_status("omod 4", avalu_prepared_new(gfx1201, AVALU_OP_ADD, AVALU_FORMAT_F32, 0, mods(0, 0, 0, 4), &p),
                     AVALU_STATUS_INVALID_ARGUMENT);
        check_status("target 99", avalu_prepared_new(99, AVALU_OP_ADD, AVALU_FORMAT_F32, 0, none, &p),
                     AVALU_STATUS_INVALID_ARGUMENT);
        check_status("NULL out", avalu_prepared_new(gfx1201, AVALU_OP_ADD, AVALU_FORMAT_F32, 0, none, NULL),
                     AVALU_STATUS_NULL_POINTER);
        check("no handle made", (uint64_t)(p != NULL), 0);
        uint32_t x[1] = {0};
        check_status("NULL handle", avalu_prepared_run_f32(NULL, NULL, x, x, NULL, NULL, x, 1),
                     AVALU_STATUS_NULL_POINTER);
        check("NULL handle's format", avalu_prepared_format(NULL), UINT32_MAX);
        avalu_prepared_free(NULL);
    }

    printf("%d checks, %d failed\n", checks, failures);
    return failures != 0;
}
