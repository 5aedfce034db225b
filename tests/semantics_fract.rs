//! V_FRACT, rule by rule (docs/semantics.md §4), in all three formats.
//! Expected bits are derived by hand from docs/semantics.md; recorded
//! hardware values are marked as such.

mod common;
use amdgpu_valu::Opcode::{FractF16, FractF32, FractF64};
use amdgpu_valu::{Encoding, Omod};
use common::{run_form, vop3, M, PLAIN};

/// Both kinds of target: OMOD-gated (gfx1100) and always-OMOD (gfx1201).
const TARGETS: [&str; 2] = ["gfx1100", "gfx1201"];
/// All subnormals kept, nearest-even.
const KEEP: u32 = 0xf0;
/// The four roundings of the F16/F64 field (bits 3:2), subnormals kept.
const F16_F64_ROUNDINGS: [u32; 4] = [0xf0, 0xf4, 0xf8, 0xfc];
/// The four roundings of the F32 field (bits 1:0), subnormals kept.
const F32_ROUNDINGS: [u32; 4] = [0xf0, 0xf1, 0xf2, 0xf3];

fn all(op: amdgpu_valu::Opcode, modes: &[u32], x: u64, want: u64) {
    for t in TARGETS {
        for &mode in modes {
            let got = vop3(t, mode, op, x, 0, PLAIN);
            assert_eq!(
                got, want,
                "{t} {op:?} mode {mode:#x} src {x:#x}: want {want:#x} got {got:#x}"
            );
            // The e32 form follows the same rules.
            let got = run_form(t, mode, op, Encoding::Vop1, x, 0, PLAIN);
            assert_eq!(got, want, "{t} {op:?}_e32 mode {mode:#x} src {x:#x}");
        }
    }
}

/// MODE.IEEE (bit 9, before GFX12).
const IEEE: u32 = 1 << 9;

/// A NaN source `x` in every mode of `modes`: quieted to `quiet` on
/// gfx1201 whatever MODE says and on gfx1100 with MODE.IEEE = 1; on
/// gfx1100 with IEEE = 0 it comes out as it went in (§10.1,
/// `snan: keep_when_ieee_off`).
fn nan(op: amdgpu_valu::Opcode, modes: &[u32], x: u64, quiet: u64) {
    for &mode in modes {
        for (t, mode, want) in [
            ("gfx1201", mode, quiet),
            ("gfx1100", mode | IEEE, quiet),
            ("gfx1100", mode, x),
        ] {
            let got = vop3(t, mode, op, x, 0, PLAIN);
            assert_eq!(got, want, "{t} {op:?} mode {mode:#x} src {x:#x}");
            let got = run_form(t, mode, op, Encoding::Vop1, x, 0, PLAIN);
            assert_eq!(got, want, "{t} {op:?}_e32 mode {mode:#x} src {x:#x}");
        }
    }
}

#[test]
fn nan_is_quieted_with_sign_and_payload_kept() {
    nan(FractF16, &F16_F64_ROUNDINGS, 0x7c01, 0x7e01);
    nan(FractF16, &F16_F64_ROUNDINGS, 0xfd55, 0xff55);
    all(FractF16, &F16_F64_ROUNDINGS, 0x7e00, 0x7e00);
    nan(FractF32, &F32_ROUNDINGS, 0xff80_0001, 0xffc0_0001);
    nan(
        FractF64,
        &F16_F64_ROUNDINGS,
        0x7ff0_0000_0000_0001,
        0x7ff8_0000_0000_0001,
    );
}

#[test]
fn infinities_give_the_negative_quiet_nan() {
    // gfx1201 capture: F32 0x7f800000 -> 0xffc00000, F64 likewise.
    for (op, modes, pos, neg, want) in [
        (
            FractF16,
            &F16_F64_ROUNDINGS,
            0x7c00u64,
            0xfc00u64,
            0xfe00u64,
        ),
        (
            FractF32,
            &F32_ROUNDINGS,
            0x7f80_0000,
            0xff80_0000,
            0xffc0_0000,
        ),
        (
            FractF64,
            &F16_F64_ROUNDINGS,
            0x7ff0_0000_0000_0000,
            0xfff0_0000_0000_0000,
            0xfff8_0000_0000_0000,
        ),
    ] {
        all(op, modes, pos, want);
        all(op, modes, neg, want);
    }
}

#[test]
fn zeros_and_integers_give_plus_zero_in_every_mode() {
    // F16: -0, -2.0, 1024.0, 65504 (max, an integer), -65504.
    for x in [0x0000, 0x8000, 0xc000, 0x6400, 0x7bff, 0xfbff, 0x3c00] {
        all(FractF16, &F16_F64_ROUNDINGS, x, 0);
    }
    // F32: 1.0, -(2^23 + 2) (exponent = mantissa bits), -0.
    for x in [0x3f80_0000, 0xcb00_0001, 0x8000_0000, 0xc040_0000] {
        all(FractF32, &F32_ROUNDINGS, x, 0);
    }
    // F64: -1.0, 2^52, -0.
    for x in [
        0xbff0_0000_0000_0000,
        0x4330_0000_0000_0000,
        0x8000_0000_0000_0000,
    ] {
        all(FractF64, &F16_F64_ROUNDINGS, x, 0);
    }
}

#[test]
fn positive_below_one_is_returned_unchanged() {
    for x in [0x3bff, 0x3555, 0x3800, 0x0400] {
        all(FractF16, &F16_F64_ROUNDINGS, x, x);
    }
    all(FractF32, &F32_ROUNDINGS, 0x3e80_0001, 0x3e80_0001);
    all(
        FractF64,
        &F16_F64_ROUNDINGS,
        0x3fe0_0000_0000_0001,
        0x3fe0_0000_0000_0001,
    );
}

#[test]
fn positive_above_one_gives_the_exact_fraction_renormalised() {
    all(FractF16, &F16_F64_ROUNDINGS, 0x3e00, 0x3800); // 1.5 -> 0.5
    all(FractF16, &F16_F64_ROUNDINGS, 0x3c01, 0x1400); // 1 + 2^-10 -> 2^-10
    all(FractF16, &F16_F64_ROUNDINGS, 0x63ff, 0x3800); // 1023.5 -> 0.5
    all(FractF32, &F32_ROUNDINGS, 0x3fc0_0000, 0x3f00_0000); // 1.5 -> 0.5
    all(FractF32, &F32_ROUNDINGS, 0x4aff_ffff, 0x3f00_0000); // 8388607.5 -> 0.5
                                                             // pi: fraction bits 0x090fdb * 2^-22 -> 0x3e10fdb0.
    all(FractF32, &F32_ROUNDINGS, 0x4049_0fdb, 0x3e10_fdb0);
    all(
        FractF64,
        &F16_F64_ROUNDINGS,
        0x3ff8_0000_0000_0000,
        0x3fe0_0000_0000_0000,
    );
    all(
        FractF64,
        &F16_F64_ROUNDINGS,
        0x432f_ffff_ffff_ffff,
        0x3fe0_0000_0000_0000,
    );
}

#[test]
fn negative_at_least_half_gives_one_minus_fraction_exactly() {
    all(FractF16, &F16_F64_ROUNDINGS, 0xbd00, 0x3a00); // -1.25 -> 0.75
    all(FractF16, &F16_F64_ROUNDINGS, 0xb800, 0x3800); // -0.5 -> 0.5
    all(FractF16, &F16_F64_ROUNDINGS, 0xba00, 0x3400); // -0.75 -> 0.25
    all(FractF16, &F16_F64_ROUNDINGS, 0xbbff, 0x1000); // -(1 - 2^-11) -> 2^-11
    all(FractF16, &F16_F64_ROUNDINGS, 0xe3ff, 0x3800); // -1023.5 -> 0.5
    all(FractF32, &F32_ROUNDINGS, 0xbfc0_0000, 0x3f00_0000); // -1.5 -> 0.5
    all(
        FractF64,
        &F16_F64_ROUNDINGS,
        0xc006_0000_0000_0000,
        0x3fd0_0000_0000_0000,
    ); // -2.75 -> 0.25
}

#[test]
fn negative_below_half_is_rounded_under_fp_round() {
    // F16 0xb58d: 1 - |x| = 1337.5 units of 2^-11 [gfx1201 capture: nearest 0x393a, zero 0x3939].
    let f16 = [
        (0xf0, 0x393a),
        (0xf4, 0x393a),
        (0xf8, 0x3939),
        (0xfc, 0x3939),
    ];
    for (mode, want) in f16 {
        all(FractF16, &[mode], 0xb58d, want);
    }
    // F32 0xb7cbb5fd [gfx1201 capture: nearest 0x3f7ffe69].
    let f32 = [
        (0xf0, 0x3f7f_fe69),
        (0xf1, 0x3f7f_fe69),
        (0xf2, 0x3f7f_fe68),
        (0xf3, 0x3f7f_fe68),
    ];
    for (mode, want) in f32 {
        all(FractF32, &[mode], 0xb7cb_b5fd, want);
    }
    // F64 0xbce254ae32fc7a4f [gfx1201 capture: toward zero 0x3fefffffffffffed].
    let f64 = [
        (0xf0, 0x3fef_ffff_ffff_ffee),
        (0xf4, 0x3fef_ffff_ffff_ffee),
        (0xf8, 0x3fef_ffff_ffff_ffed),
        (0xfc, 0x3fef_ffff_ffff_ffed),
    ];
    for (mode, want) in f64 {
        all(FractF64, &[mode], 0xbce2_54ae_32fc_7a4f, want);
    }
    // -0.25 is exact: 0.75.
    all(FractF16, &F16_F64_ROUNDINGS, 0xb400, 0x3a00);
}

#[test]
fn a_result_rounding_to_one_is_capped_at_one_minus_ulp() {
    // [gfx1201 captures, all formats]: 1 - tiny rounds to 1.0 -> 1 - ulp.
    all(FractF16, &F16_F64_ROUNDINGS, 0x8001, 0x3bff);
    all(FractF16, &F16_F64_ROUNDINGS, 0x8400, 0x3bff);
    all(FractF32, &F32_ROUNDINGS, 0x8000_0001, 0x3f7f_ffff);
    all(
        FractF64,
        &F16_F64_ROUNDINGS,
        0x8000_0000_0000_0001,
        0x3fef_ffff_ffff_ffff,
    );
    // Below the cap a directed mode still rounds normally: -2^-12 is 1 - 0.5 ulp.
    all(FractF16, &[0xf0], 0x8c00, 0x3bff); // tie, kept last bit odd -> 1.0 -> cap
    all(FractF16, &[0xf8], 0x8c00, 0x3bff); // toward -inf keeps 1 - ulp
}

#[test]
fn subnormal_sources_and_results_follow_fp_denorm() {
    // Input flushed: -subnormal -> -0 -> +0 [gfx1201 capture, MODE 0x30].
    all(FractF16, &[0x30, 0x80, 0x00], 0x8001, 0x0000);
    // Input kept, output kept: x itself [gfx1201 capture, MODE 0xc0].
    all(FractF16, &[0xc0], 0x0001, 0x0001);
    // Input kept, output flushed: +0.
    all(FractF16, &[0x40], 0x0001, 0x0000);
    all(FractF32, &[0x30], 0x0000_0001, 0x0000_0001);
    all(FractF32, &[0x10, 0xd0], 0x0000_0001, 0x0000_0000);
    all(FractF64, &[0xc0], 1, 1); // [gfx1201 capture]
    all(FractF64, &[0x40, 0x30], 1, 0);
    // A negative subnormal with input kept is capped even with outputs flushed.
    all(FractF32, &[0x10], 0x8000_0001, 0x3f7f_ffff);
}

#[test]
fn omod_applies_after_the_cap() {
    // [gfx1201 captures]: capped, then doubled.
    assert_eq!(
        vop3("gfx1201", KEEP, FractF16, 0x8001, 0, M::omod(Omod::Mul2)),
        0x3fff
    );
    assert_eq!(
        vop3(
            "gfx1201",
            KEEP,
            FractF32,
            0x8000_0001,
            0,
            M::omod(Omod::Mul2)
        ),
        0x3fff_ffff
    );
    assert_eq!(
        vop3(
            "gfx1201",
            KEEP,
            FractF64,
            0x8000_0000_0000_0001,
            0,
            M::omod(Omod::Mul2)
        ),
        0x3fff_ffff_ffff_ffff
    );
    // gfx1100 under MODE 0xf0 keeps output subnormals: OMOD ignored.
    assert_eq!(
        vop3("gfx1100", KEEP, FractF16, 0x8001, 0, M::omod(Omod::Mul2)),
        0x3bff
    );
    // gfx1100 with F16 outputs flushed and IEEE = 0: OMOD applies.
    assert_eq!(
        vop3("gfx1100", 0x40, FractF16, 0x8001, 0, M::omod(Omod::Mul2)),
        0x3fff
    );
    // ... but not with IEEE = 1.
    assert_eq!(
        vop3("gfx1100", 0x240, FractF16, 0x8001, 0, M::omod(Omod::Mul2)),
        0x3bff
    );
}

#[test]
fn clamp_of_a_nan_result() {
    // [gfx1201 capture]: sNaN -> quiet NaN -> clamp -> +0 (always on gfx12).
    assert_eq!(
        vop3("gfx1201", KEEP, FractF32, 0x7f80_0001, 0, M::clamp()),
        0
    );
    assert_eq!(
        vop3(
            "gfx1201",
            KEEP,
            FractF64,
            0x7ff0_0000_0000_0001,
            0,
            M::clamp()
        ),
        0
    );
    // gfx1100: NaN survives CLAMP unless DX10_CLAMP (bit 8) is set; with
    // IEEE = 0 the sNaN is not quieted either (§10.1), with IEEE = 1 it is.
    assert_eq!(
        vop3("gfx1100", KEEP, FractF32, 0x7f80_0001, 0, M::clamp()),
        0x7f80_0001
    );
    assert_eq!(
        vop3("gfx1100", KEEP | IEEE, FractF32, 0x7f80_0001, 0, M::clamp()),
        0x7fc0_0001
    );
    assert_eq!(
        vop3(
            "gfx1100",
            KEEP | 0x100,
            FractF32,
            0x7f80_0001,
            0,
            M::clamp()
        ),
        0
    );
    // Infinity -> negative quiet NaN -> CLAMP.
    assert_eq!(
        vop3("gfx1100", KEEP, FractF16, 0x7c00, 0, M::clamp()),
        0xfe00
    );
    assert_eq!(vop3("gfx1201", KEEP, FractF16, 0x7c00, 0, M::clamp()), 0);
}
