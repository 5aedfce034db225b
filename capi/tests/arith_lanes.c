/*
 * The arithmetic of the C API (avalu_add_*, avalu_sub_*, avalu_subrev_*,
 * avalu_mul_*, avalu_fma_*) on caller arrays, checked against bits derived
 * by hand (each comment says how), and the statuses of refused calls.
 *
 * Valid C11 and C++17: capi/tests/c_programs.rs builds it as both and runs
 * it; it prints one line per check and "N checks, 0 failed" at the end.
 *
 * MODE fields: FP_ROUND of F32 in bits 1:0, of F16/F64 in 3:2 (0 nearest
 * even, 1 toward +inf, 2 toward -inf, 3 toward zero); FP_DENORM of F32 in
 * 5:4, of F16/F64 in 7:6 (low bit keeps input subnormals, high bit output
 * subnormals); IEEE bit 9; FP16_OVFL bit 23.
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

static uint32_t target(const char *name) {
    uint32_t id = 0;
    if (avalu_target_by_name(name, &id) != AVALU_STATUS_OK) {
        ++failures;
        printf("FAIL target %s: %s\n", name, avalu_last_error());
    }
    return id;
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
    const uint32_t gfx1030 = target("gfx1030");
    const uint32_t gfx1100 = target("gfx1100");
    const uint32_t gfx1201 = target("gfx1201");
    const AvaluArithMods none = mods(0, 0, 0, 0);
    const AvaluArithMods div2 = mods(0, 0, 0, 3);
    const uint32_t IEEE = 1u << 9, FP16_OVFL = 1u << 23;

    /* F32 ADD, gfx1100, MODE 0xf0: 1.5 + 2.25 = 3.75 = 1.111b x 2^1
     * (0x40700000); 1.0 + 2^-24 is a tie between 1.0 and 1.0 + 2^-23, to
     * the even 1.0; +inf + -inf is invalid, the negative canonical NaN.
     * Toward +inf (MODE 0xf1) the tie goes up to 0x3f800001. */
    {
        const uint32_t a[3] = {0x3fc00000u, 0x3f800000u, 0x7f800000u};
        const uint32_t b[3] = {0x40100000u, 0x33800000u, 0xff800000u};
        uint32_t d[3] = {0, 0, 0};
        check_status("add_f32", avalu_add_f32(gfx1100, 0xf0, none, NULL, a, b, d, 3), AVALU_STATUS_OK);
        check("add_f32 1.5 + 2.25", d[0], 0x40700000u);
        check("add_f32 tie to even", d[1], 0x3f800000u);
        check("add_f32 inf - inf", d[2], 0xffc00000u);
        avalu_add_f32(gfx1100, 0xf1, none, NULL, a, b, d, 3);
        check("add_f32 tie toward +inf", d[1], 0x3f800001u);
    }

    /* F16 FMA, gfx1201, MODE 0xc4 (toward +inf, F16 subnormals kept):
     * 2^-24 x 2^-24 + 65504 is just above 65504 and rounds up past the
     * largest finite value: +inf, 0x7c00. The product is not rounded on its
     * own. To nearest (0xc0) 2^-48 is far below half an ulp: 0x7bff. */
    {
        const uint16_t a[1] = {0x0001}, b[1] = {0x0001}, c[1] = {0x7bff};
        uint16_t d[1] = {0};
        avalu_fma_f16(gfx1201, 0xc4, none, NULL, a, b, c, d, 1);
        check("fma_f16 one rounding toward +inf", d[0], 0x7c00);
        avalu_fma_f16(gfx1201, 0xc0, none, NULL, a, b, c, d, 1);
        check("fma_f16 one rounding to nearest", d[0], 0x7bff);
        /* 0 x inf wins over the NaN addend: 0xfe00. */
        const uint16_t z[1] = {0x0000}, inf[1] = {0x7c00}, nan[1] = {0x7e01};
        avalu_fma_f16(gfx1201, 0xf0, none, NULL, z, inf, nan, d, 1);
        check("fma_f16 0 x inf + NaN", d[0], 0xfe00);
    }

    /* F32 MUL, gfx1100: 2^-126 x (1 - 2^-24) = (2^24 - 1) x 2^-150 is exact
     * at 24 bits and below 2^-126: tiny in every mode. Outputs flushed
     * (MODE 0x10): +0. Kept (0x3r): 8388607.5 subnormal ulps, half way
     * between 0x007fffff and 0x00800000 (even): nearest and toward +inf
     * give 0x00800000, toward -inf and toward zero 0x007fffff. */
    {
        const uint32_t a[1] = {0x00800000u}, b[1] = {0x3f7fffffu};
        const uint32_t want[4] = {0x00800000u, 0x00800000u, 0x007fffffu, 0x007fffffu};
        uint32_t d[1] = {0};
        for (uint32_t r = 0; r < 4; ++r) {
            avalu_mul_f32(gfx1100, 0x30 | r, none, NULL, a, b, d, 1);
            check("mul_f32 tiny, outputs kept", d[0], want[r]);
            avalu_mul_f32(gfx1100, 0x10 | r, none, NULL, a, b, d, 1);
            check("mul_f32 tiny, outputs flushed", d[0], 0);
        }
    }

    /* F16 MUL, gfx1030: 1.5 x 65504 overflows; FP16_OVFL saturates it to
     * 0x7bff; div:2 with IEEE = 0 and F16 outputs flushed is effective:
     * 32752 = 0x77ff. With IEEE = 1 OMOD is ignored: 0x7bff. Without
     * FP16_OVFL, to nearest, and div:2 after rounding: inf/2 = 0x7c00. */
    {
        const uint16_t a[1] = {0x3e00}, b[1] = {0x7bff};
        uint16_t d[1] = {0};
        avalu_mul_f16(gfx1030, FP16_OVFL, div2, NULL, a, b, d, 1);
        check("mul_f16 FP16_OVFL div:2", d[0], 0x77ff);
        avalu_mul_f16(gfx1030, FP16_OVFL | IEEE, div2, NULL, a, b, d, 1);
        check("mul_f16 FP16_OVFL div:2 ignored under IEEE", d[0], 0x7bff);
        avalu_mul_f16(gfx1030, 0x00, div2, NULL, a, b, d, 1);
        check("mul_f16 rounds before OMOD", d[0], 0x7c00);
    }

    /* The first NaN, quieted on gfx1201: 0x7f801abc (signalling) + a
     * negative quiet NaN gives src0's with the quiet bit: 0x7fc01abc. */
    {
        const uint32_t a[1] = {0x7f801abcu}, b[1] = {0xffc00222u};
        uint32_t d[1] = {0};
        avalu_add_f32(gfx1201, 0xf0, none, NULL, a, b, d, 1);
        check("add_f32 first NaN quieted", d[0], 0x7fc01abcu);
    }

    /* SUB and SUBREV: 2 - 3 = -1, 3 - 2 = 1; F16 1 - 1 toward -inf of the
     * F16 group (MODE 0xf8: bits 3:2 = 2) is -0, 0x8000. */
    {
        const uint32_t two[1] = {0x40000000u}, three[1] = {0x40400000u};
        uint32_t d[1] = {0};
        avalu_sub_f32(gfx1100, 0xf0, none, NULL, two, three, d, 1);
        check("sub_f32 2 - 3", d[0], 0xbf800000u);
        avalu_subrev_f32(gfx1100, 0xf0, none, NULL, two, three, d, 1);
        check("subrev_f32 3 - 2", d[0], 0x3f800000u);
        const uint16_t one[1] = {0x3c00};
        uint16_t h[1] = {0};
        avalu_sub_f16(gfx1100, 0xf8, none, NULL, one, one, h, 1);
        check("sub_f16 1 - 1 toward -inf", h[0], 0x8000);
        avalu_subrev_f16(gfx1100, 0xf0, none, NULL, one, one, h, 1);
        check("subrev_f16 1 - 1", h[0], 0x0000);
        avalu_add_f16(gfx1100, 0xf0, none, NULL, one, one, h, 1);
        check("add_f16 1 + 1", h[0], 0x4000);
    }

    /* F64: 1.5 + 2.25 = 3.75 (exponent 0x400, fraction .111b); 1.5 x 2 = 3
     * (fraction .1b); 1 x 1 + 1 = 2. */
    {
        const uint64_t a[1] = {0x3ff8000000000000ull}, b[1] = {0x4002000000000000ull};
        const uint64_t one[1] = {0x3ff0000000000000ull}, two[1] = {0x4000000000000000ull};
        uint64_t d[1] = {0};
        avalu_add_f64(gfx1201, 0xf0, none, NULL, a, b, d, 1);
        check("add_f64 1.5 + 2.25", d[0], 0x400e000000000000ull);
        avalu_mul_f64(gfx1201, 0xf0, none, NULL, a, two, d, 1);
        check("mul_f64 1.5 x 2", d[0], 0x4008000000000000ull);
        avalu_fma_f64(gfx1201, 0xf0, none, NULL, one, one, one, d, 1);
        check("fma_f64 1 x 1 + 1", d[0], 0x4000000000000000ull);
    }

    /* Modifiers per source: fma(2, 3, -7) = -1 (NEG bit 2); fma(2, -|3|,
     * 7) = 1 (ABS and NEG bit 1); CLAMP of 1 + 1 = 2 is 1.0. */
    {
        const uint32_t two[1] = {0x40000000u}, three[1] = {0x40400000u};
        const uint32_t seven[1] = {0x40e00000u}, one[1] = {0x3f800000u};
        uint32_t d[1] = {0};
        avalu_fma_f32(gfx1201, 0xf0, mods(0, 4, 0, 0), NULL, two, three, seven, d, 1);
        check("fma_f32 neg src2", d[0], 0xbf800000u);
        avalu_fma_f32(gfx1201, 0xf0, mods(2, 2, 0, 0), NULL, two, three, seven, d, 1);
        check("fma_f32 -|src1|", d[0], 0x3f800000u);
        avalu_add_f32(gfx1201, 0xf0, mods(0, 0, 1, 0), NULL, one, one, d, 1);
        check("add_f32 clamp", d[0], 0x3f800000u);
    }

    /* In place (v0 = v0 + v1) on a wave64 under EXEC: even lanes active get
     * 1 + 1 = 2, odd lanes keep 1.0. */
    {
        uint32_t v0[64], v1[64];
        for (int i = 0; i < 64; ++i) {
            v0[i] = 0x3f800000u;
            v1[i] = 0x3f800000u;
        }
        const uint64_t exec = 0x5555555555555555ull;
        check_status("add_f32 in place under EXEC",
                     avalu_add_f32(gfx1201, 0xf0, none, &exec, v0, v1, v0, 64), AVALU_STATUS_OK);
        int wrong = 0;
        for (int i = 0; i < 64; ++i) {
            wrong += v0[i] != (i % 2 ? 0x3f800000u : 0x40000000u);
        }
        check("add_f32 in place lanes wrong", (uint64_t)wrong, 0);
    }

    /* Refused calls. */
    {
        uint32_t x[4] = {0x3f800000u, 0x3f800000u, 0x3f800000u, 0x3f800000u};
        uint32_t d[4] = {0, 0, 0, 0};
        check_status("omod 4", avalu_add_f32(gfx1201, 0, mods(0, 0, 0, 4), NULL, x, x, d, 4),
                     AVALU_STATUS_INVALID_ARGUMENT);
        check_status("abs bit 3", avalu_fma_f32(gfx1201, 0, mods(8, 0, 0, 0), NULL, x, x, x, d, 4),
                     AVALU_STATUS_INVALID_ARGUMENT);
        check_status("abs on src2 of add", avalu_add_f32(gfx1201, 0, mods(4, 0, 0, 0), NULL, x, x, d, 4),
                     AVALU_STATUS_EXECUTE);
        check_status("NULL src1", avalu_mul_f32(gfx1201, 0, none, NULL, x, NULL, d, 4),
                     AVALU_STATUS_NULL_POINTER);
        check_status("NULL src2", avalu_fma_f32(gfx1201, 0, none, NULL, x, x, NULL, d, 4),
                     AVALU_STATUS_NULL_POINTER);
        check_status("dst overlapping src0", avalu_add_f32(gfx1201, 0, none, NULL, x, x, x + 1, 3),
                     AVALU_STATUS_INVALID_ARGUMENT);
        check_status("target id 99", avalu_sub_f32(99, 0, none, NULL, x, x, d, 4),
                     AVALU_STATUS_INVALID_ARGUMENT);
        check_status("zero lanes", avalu_fma_f64(gfx1201, 0, none, NULL, NULL, NULL, NULL, NULL, 0),
                     AVALU_STATUS_OK);
        check("refused calls leave dst", d[0] | d[1] | d[2] | d[3], 0);
    }

    printf("%d checks, %d failed\n", checks, failures);
    return failures != 0;
}
