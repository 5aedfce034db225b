//! V_LDEXP, rule by rule (docs/semantics.md §5), in all three formats.
//! Expected bits are derived by hand from docs/semantics.md; recorded
//! hardware values are marked as such.

mod common;
use amdgpu_valu::Opcode::{LdexpF16, LdexpF32, LdexpF64};
use amdgpu_valu::{Encoding, Omod, Opcode};
use common::{run_form, vop3, M, PLAIN};

const TARGETS: [&str; 2] = ["gfx1100", "gfx1201"];
const KEEP: u32 = 0xf0;
const FP16_OVFL: u32 = 1 << 23;

fn ld(op: Opcode, mode: u32, x: u64, e: u32, want: u64) {
    for t in TARGETS {
        let got = vop3(t, mode, op, x, e, PLAIN);
        assert_eq!(
            got, want,
            "{t} {op:?} mode {mode:#x} ldexp({x:#x}, {e:#x}): want {want:#x} got {got:#x}"
        );
        if op == LdexpF16 {
            let got = run_form(t, mode, op, Encoding::Vop2, x, e, PLAIN);
            assert_eq!(
                got, want,
                "{t} {op:?}_e32 mode {mode:#x} ldexp({x:#x}, {e:#x})"
            );
        }
    }
}

fn neg(e: i32) -> u32 {
    e as u32
}

#[test]
fn f16_reads_only_the_low_16_bits_of_the_exponent_as_i16() {
    // 0xde3dffff means -1 [gfx1201 capture].
    ld(LdexpF16, KEEP, 0x3c00, 0xde3d_ffff, 0x3800);
    ld(LdexpF16, KEEP, 0x3c00, 0x0001_0001, 0x4000); // +1, junk above
                                                     // F32 and F64 read all 32 bits: 0x0001ffff is +131071 -> overflow.
    ld(LdexpF32, KEEP, 0x3f80_0000, 0x0001_ffff, 0x7f80_0000);
    ld(
        LdexpF64,
        KEEP,
        0x3ff0_0000_0000_0000,
        0x0001_ffff,
        0x7ff0_0000_0000_0000,
    );
}

/// MODE.IEEE (bit 9, before GFX12).
const IEEE: u32 = 1 << 9;

/// A signalling NaN source `x`: quieted to `quiet` on gfx1201 and on
/// gfx1100 with MODE.IEEE = 1; unchanged on gfx1100 with IEEE = 0 (§10.1,
/// `snan: keep_when_ieee_off`).
fn snan(op: Opcode, x: u64, e: u32, quiet: u64) {
    for (t, mode, want) in [
        ("gfx1201", KEEP, quiet),
        ("gfx1100", KEEP | IEEE, quiet),
        ("gfx1100", KEEP, x),
    ] {
        let got = vop3(t, mode, op, x, e, PLAIN);
        assert_eq!(got, want, "{t} {op:?} mode {mode:#x} ldexp({x:#x}, {e:#x})");
    }
}

#[test]
fn nan_is_quieted_infinities_and_zeros_pass() {
    for e in [0, 1, neg(-100), 0x7fff_ffff] {
        snan(LdexpF16, 0x7d00, e, 0x7f00);
        ld(LdexpF16, KEEP, 0xfc00, e, 0xfc00);
        ld(LdexpF16, KEEP, 0x8000, e, 0x8000);
        snan(LdexpF32, 0xff80_0001, e, 0xffc0_0001);
        ld(LdexpF32, KEEP, 0x7f80_0000, e, 0x7f80_0000);
        ld(
            LdexpF64,
            KEEP,
            0x8000_0000_0000_0000,
            e,
            0x8000_0000_0000_0000,
        );
        snan(LdexpF64, 0x7ff0_0000_0000_0001, e, 0x7ff8_0000_0000_0001);
    }
    // A zero made by the input flush passes as a zero of the same sign.
    ld(LdexpF16, 0x80, 0x8001, 20, 0x8000);
    ld(LdexpF32, 0x00, 0x8000_0001, 40, 0x8000_0000);
}

#[test]
fn results_in_the_normal_range_are_exact() {
    ld(LdexpF16, KEEP, 0x3c00, 15, 0x7800);
    ld(LdexpF32, KEEP, 0x3fc0_0000, neg(-3), 0x3e40_0000);
    ld(
        LdexpF64,
        KEEP,
        0x3ff0_0000_0000_0001,
        10,
        0x4090_0000_0000_0001,
    );
    // Subnormal sources are normalised first [gfx1201 capture, MODE 0xf0].
    ld(LdexpF32, KEEP, 0x0000_0001, 23, 0x0080_0000);
    ld(LdexpF64, KEEP, 1, 52, 0x0010_0000_0000_0000);
    ld(LdexpF16, 0x40, 0x0001, 10, 0x0400); // input kept, output flushed: normal result
    ld(LdexpF32, KEEP, 0x0000_0003, 1, 0x0000_0006); // still subnormal, exact
}

#[test]
fn huge_exponents_saturate() {
    for (mode, want) in [(0xf0, 0x7f80_0000), (0xf3, 0x7f7f_ffff)] {
        ld(LdexpF32, mode, 0x3f80_0000, 0x7fff_ffff, want);
    }
    ld(LdexpF32, KEEP, 0x3f80_0000, 0x8000_0000, 0);
    ld(LdexpF32, 0xf1, 0x3f80_0000, 0x8000_0000, 1); // toward +inf: the smallest subnormal
    ld(
        LdexpF64,
        0xf8,
        0xbff0_0000_0000_0000,
        0x8000_0000,
        0x8000_0000_0000_0001,
    );
    ld(
        LdexpF64,
        0xf0,
        0x0000_0000_0000_0001,
        0x7fff_ffff,
        0x7ff0_0000_0000_0000,
    );
    // F16 [gfx1201 captures]: 1.0 * 2^32767 and 2^-32768.
    ld(LdexpF16, 0xf0, 0x3c00, 0x7fff, 0x7c00);
    ld(LdexpF16, 0xf8, 0x3c00, 0x7fff, 0x7bff);
    ld(LdexpF16, 0xfc, 0x3c00, 0x7fff, 0x7bff);
    ld(LdexpF16, 0xf0, 0x3c00, 0x8000, 0x0000);
    ld(LdexpF16, 0xf4, 0x3c00, 0x8000, 0x0001);
}

#[test]
fn tiny_results_round_to_subnormals_when_kept() {
    // [gfx1201 captures] 0x0401 * 2^-1: 0x0200, toward +inf 0x0201.
    for (mode, want) in [
        (0xf0, 0x0200),
        (0xf4, 0x0201),
        (0xf8, 0x0200),
        (0xfc, 0x0200),
    ] {
        ld(LdexpF16, mode, 0x0401, 0xffff, want);
    }
    for (mode, want) in [
        (0xf0, 0x8200),
        (0xf4, 0x8200),
        (0xf8, 0x8201),
        (0xfc, 0x8200),
    ] {
        ld(LdexpF16, mode, 0x8401, 0xffff, want);
    }
    // Half of the smallest subnormal ties to even (0); a hair more rounds up.
    ld(LdexpF32, KEEP, 0x0080_0000, neg(-24), 0);
    ld(LdexpF32, KEEP, 0x0080_0001, neg(-24), 1);
    ld(LdexpF32, 0xfa, 0x8080_0000, neg(-24), 0x8000_0001); // toward -inf [gfx1100, gfx1201 captures]
                                                            // Rounding up the largest subnormal gives the smallest normal.
    ld(LdexpF32, KEEP, 0x00ff_ffff, neg(-1), 0x0080_0000);
    ld(LdexpF16, KEEP, 0x3bff, neg(-14), 0x0400);
}

#[test]
fn tininess_is_judged_before_rounding_when_outputs_are_flushed() {
    // [gfx1201 capture]: 0x3f7fffff * 2^-126 would round to the smallest
    // normal, but it is tiny at full precision: flushed under MODE 0xd0.
    ld(LdexpF32, 0xd0, 0x3f7f_ffff, neg(-126), 0);
    ld(LdexpF32, 0xd0, 0xbf7f_ffff, neg(-126), 0x8000_0000);
    for mode in [0x40, 0x44, 0x48, 0x4c] {
        ld(LdexpF16, mode, 0x3bff, neg(-14), 0x0000);
    }
    // [gfx1201 captures] 0x0400 * 2^-1 is 0 (0x8000 for 0x8400) with outputs flushed.
    ld(LdexpF16, 0x00, 0x0400, 0xffff, 0x0000);
    ld(LdexpF16, 0x00, 0x8400, 0xffff, 0x8000);
    ld(LdexpF16, 0x40, 0x8400, 0xffff, 0x8000);
    ld(LdexpF16, 0xc0, 0x8400, 0xffff, 0x8200);
}

#[test]
fn overflow_follows_fp_round() {
    // F32 max * 2 under each rounding, both signs.
    let pos = [
        (0xf0, 0x7f80_0000),
        (0xf1, 0x7f80_0000),
        (0xf2, 0x7f7f_ffff),
        (0xf3, 0x7f7f_ffff),
    ];
    let negs = [
        (0xf0, 0xff80_0000),
        (0xf1, 0xff7f_ffff),
        (0xf2, 0xff80_0000),
        (0xf3, 0xff7f_ffff),
    ];
    for (mode, want) in pos {
        ld(LdexpF32, mode, 0x7f7f_ffff, 1, want);
    }
    for (mode, want) in negs {
        ld(LdexpF32, mode, 0xff7f_ffff, 1, want);
    }
    for (mode, want) in [
        (0xf0, 0xfc00),
        (0xf4, 0xfbff),
        (0xf8, 0xfc00),
        (0xfc, 0xfbff),
    ] {
        ld(LdexpF16, mode, 0xbc00, 0x7fff, want);
    }
    // [gfx1201 capture] F64 max * 2 -> +inf.
    ld(
        LdexpF64,
        KEEP,
        0x7fef_ffff_ffff_ffff,
        1,
        0x7ff0_0000_0000_0000,
    );
}

#[test]
fn fp16_ovfl_saturates_f16_only() {
    for r in [0xf0, 0xf4, 0xf8, 0xfc] {
        ld(LdexpF16, r | FP16_OVFL, 0x3c00, 0x7fff, 0x7bff);
        ld(LdexpF16, r | FP16_OVFL, 0xbc00, 0x7fff, 0xfbff);
    }
    // F32 and F64 never saturate.
    ld(LdexpF32, KEEP | FP16_OVFL, 0x7f7f_ffff, 1, 0x7f80_0000);
    ld(
        LdexpF64,
        KEEP | FP16_OVFL,
        0x7fef_ffff_ffff_ffff,
        1,
        0x7ff0_0000_0000_0000,
    );
}

#[test]
fn effective_omod_flushes_tiny_results() {
    // [gfx1201 capture]: 0x3bff * 2^-14 mul:2 under 0xf0 -> tiny, flushed, +0.
    assert_eq!(
        vop3(
            "gfx1201",
            KEEP,
            LdexpF16,
            0x3bff,
            0xfff2,
            M::omod(Omod::Mul2)
        ),
        0
    );
    // gfx1100 keeps output subnormals under 0xf0: OMOD ignored, no flush.
    assert_eq!(
        vop3(
            "gfx1100",
            KEEP,
            LdexpF16,
            0x3bff,
            0xfff2,
            M::omod(Omod::Mul2)
        ),
        0x0400
    );
    // [gfx1201] 0x0400 * 2^-1 mul:4 under MODE 0 -> +0; gfx1100's gate is open under MODE 0 too.
    for t in TARGETS {
        assert_eq!(vop3(t, 0, LdexpF16, 0x0400, 0xffff, M::omod(Omod::Mul4)), 0);
        // [gfx1201, gfx1030] 0x8400 * 2^0 div:2 -> -0.
        assert_eq!(vop3(t, 0, LdexpF16, 0x8400, 0, M::omod(Omod::Div2)), 0x8000);
    }
}

#[test]
fn rounding_happens_before_omod() {
    // 0x7bff * 2 overflows to +inf first, and div:2 leaves infinity alone.
    assert_eq!(
        vop3("gfx1201", KEEP, LdexpF16, 0x7bff, 1, M::omod(Omod::Div2)),
        0x7c00
    );
    assert_eq!(
        vop3("gfx1100", 0x00, LdexpF16, 0x7bff, 1, M::omod(Omod::Div2)),
        0x7c00
    );
}
