//! The arithmetic through `amdgpu_valu::lanes` (`add`, `sub`, `subrev`,
//! `mul`, `fma`, `arith`, `arith_exec`): every example with bits of the
//! arithmetic rules (docs/semantics.md, the arithmetic sections: one
//! rounding, exact zeros, tininess and the output flush, overflow and
//! FP16_OVFL, NaN, OMOD and CLAMP) on the targets and MODE values it names,
//! plus the API's own checks (lengths, formats, modifiers, EXEC).
//!
//! Every expected value is derived by hand in the comment beside it, from
//! the encodings (sign, biased exponent, fraction), never from the
//! library. MODE fields used: FP_ROUND of F32 in bits 1:0 and of F16/F64 in
//! 3:2 (0 nearest even, 1 toward +inf, 2 toward -inf, 3 toward zero);
//! FP_DENORM of F32 in 5:4 and of F16/F64 in 7:6 (low bit keeps input
//! subnormals, high bit output subnormals); DX10_CLAMP bit 8; IEEE bit 9;
//! FP16_OVFL bit 23.
//!
//! Signalling-NaN examples before GFX12 use MODE.IEEE = 1 (or run on
//! gfx1201), where every policy quiets them; the gfx1100 rows with IEEE = 0
//! (a signalling NaN passing unquieted) are left to the policy's own tests.

mod common;

use amdgpu_valu::__testing::kernels::arith::{ArithInstr, SourceModifiers};
use amdgpu_valu::lanes::{self, ArithMods, ArithOp, LaneBits, LaneMods};
use amdgpu_valu::{ExecError, FormatKind, Omod, Target};

const ADD: ArithOp = ArithOp::Add;
const SUB: ArithOp = ArithOp::Sub;
const SUBREV: ArithOp = ArithOp::Subrev;
const MUL: ArithOp = ArithOp::Mul;
const FMA: ArithOp = ArithOp::Fma;

const NONE: ArithMods = ArithMods {
    abs: [false; 3],
    neg: [false; 3],
    omod: Omod::None,
    clamp: false,
};
const DIV2: ArithMods = ArithMods {
    omod: Omod::Div2,
    ..NONE
};
const MUL4: ArithMods = ArithMods {
    omod: Omod::Mul4,
    ..NONE
};
const CLAMP: ArithMods = ArithMods {
    clamp: true,
    ..NONE
};

const FP16_OVFL: u32 = 1 << 23;
const IEEE: u32 = 1 << 9;
const DX10_CLAMP: u32 = 1 << 8;

fn target(name: &str) -> Target {
    name.parse().expect("a target name")
}

/// One lane of `op` on `T` lanes (the sources in encoding order), run as a
/// 3-lane call with the lane in the middle so that neighbours are checked
/// to be computed alike.
fn one<T: lanes::LaneBits + PartialEq + core::fmt::Debug>(
    op: ArithOp,
    t: &str,
    mode: u32,
    mods: ArithMods,
    srcs: &[T],
) -> T {
    let cols: Vec<Vec<T>> = srcs.iter().map(|&s| vec![s; 3]).collect();
    let refs: Vec<&[T]> = cols.iter().map(Vec::as_slice).collect();
    let mut dst = vec![T::default(); 3];
    lanes::arith(op, target(t), mode, mods, &refs, &mut dst)
        .unwrap_or_else(|e| panic!("{t} v_{} mode {mode:#x}: {e}", op.name()));
    assert!(dst[0] == dst[1] && dst[1] == dst[2], "{dst:?}");
    dst[1]
}

/// `op` gives `want` on every target in `targets` under every MODE in
/// `modes`.
#[track_caller]
fn expect<T: lanes::LaneBits + PartialEq + core::fmt::Debug + core::fmt::LowerHex>(
    targets: &[&str],
    modes: &[u32],
    op: ArithOp,
    mods: ArithMods,
    srcs: &[T],
    want: T,
) {
    for t in targets {
        for &mode in modes {
            let got = one(op, t, mode, mods, srcs);
            assert!(
                got == want,
                "{t} MODE {mode:#x} v_{} {mods:?} {srcs:x?}: got {got:#x}, want {want:#x}",
                op.name()
            );
        }
    }
}

const ALL: [&str; 10] = [
    "gfx908", "gfx90a", "gfx942", "gfx950", "gfx1010", "gfx1030", "gfx1100", "gfx1150", "gfx1201",
    "gfx1250",
];
const HW_RDNA: [&str; 2] = ["gfx1100", "gfx1201"];

// ---- One rounding ----------------------------------------------------------

/// FMA never rounds its product alone [hw gfx1100, gfx1201]: 0x0001 is
/// 2^-24, the product 2^-48; 65504 + 2^-48 lies just above 65504 (0x7bff),
/// so toward +inf (MODE 0xc4: F16 FP_ROUND 1, F16 subnormals kept) it
/// rounds up to 65536, past the largest finite value: +inf, 0x7c00. To
/// nearest (0xc0) the 2^-48 is far below half an ulp (16): 0x7bff.
#[test]
fn fma_f16_sees_the_unrounded_product() {
    expect(
        &HW_RDNA,
        &[0xc4],
        FMA,
        NONE,
        &[0x0001u16, 0x0001, 0x7bff],
        0x7c00,
    );
    expect(
        &HW_RDNA,
        &[0xc0],
        FMA,
        NONE,
        &[0x0001u16, 0x0001, 0x7bff],
        0x7bff,
    );
}

/// The rounding of the result format's group: 1.0 + 2^-24 (0x33800000)
/// is a tie between 1.0 and 1.0 + 2^-23; nearest even keeps 1.0, toward
/// +inf gives 0x3f800001. F32 reads MODE bits 1:0, so MODE 0xf4 (F16/F64
/// toward +inf) leaves it at nearest. F64 1.0 + 2^-53 is the same tie in
/// 53 bits, rounded by bits 3:2.
#[test]
fn one_rounding_by_the_formats_fp_round() {
    expect(
        &ALL,
        &[0xf0, 0xf4],
        ADD,
        NONE,
        &[0x3f80_0000u32, 0x3380_0000],
        0x3f80_0000,
    );
    expect(
        &ALL,
        &[0xf1, 0xf5],
        ADD,
        NONE,
        &[0x3f80_0000u32, 0x3380_0000],
        0x3f80_0001,
    );
    let (one, half_ulp) = (0x3ff0_0000_0000_0000u64, 0x3ca0_0000_0000_0000u64);
    expect(&ALL, &[0xf0, 0xf1], ADD, NONE, &[one, half_ulp], one);
    expect(&ALL, &[0xf4], ADD, NONE, &[one, half_ulp], one + 1);
    // 1.5 x 2.0 = 3.0 = 1.1b x 2^1 in F64: exponent 0x400, fraction 0x8....
    expect(
        &ALL,
        &[0xf0],
        MUL,
        NONE,
        &[0x3ff8_0000_0000_0000u64, 0x4000_0000_0000_0000],
        0x4008_0000_0000_0000,
    );
}

// ---- Exact zeros -----------------------------------------------------------

/// [hw gfx1100, gfx1201 for F32 ADD/MUL] -0 + -0 = -0 in every mode;
/// -0 x 1 = -0; +0 + -0 = +0, but -0 toward -inf (MODE 0xf2); +0 x -0 = -0.
#[test]
fn exact_zero_signs_of_add_and_mul() {
    let every = [0xf0, 0xf1, 0xf2, 0xf3];
    expect(
        &ALL,
        &every,
        ADD,
        NONE,
        &[0x8000_0000u32, 0x8000_0000],
        0x8000_0000,
    );
    expect(
        &ALL,
        &every,
        MUL,
        NONE,
        &[0x8000_0000u32, 0x3f80_0000],
        0x8000_0000,
    );
    expect(
        &ALL,
        &[0xf0, 0xf1, 0xf3],
        ADD,
        NONE,
        &[0u32, 0x8000_0000],
        0,
    );
    expect(&ALL, &[0xf2], ADD, NONE, &[0u32, 0x8000_0000], 0x8000_0000);
    expect(&ALL, &every, MUL, NONE, &[0u32, 0x8000_0000], 0x8000_0000);
}

/// x - x and x + (-x) are +0, -0 toward -inf of the format's own group:
/// F16 and F64 read bits 3:2 (MODE 0xf8), not F32's 1:0 (MODE 0xf2).
#[test]
fn exact_cancellation_is_minus_zero_only_toward_minus_inf() {
    for (mode, want) in [(0xf0, 0u32), (0xf1, 0), (0xf3, 0), (0xf2, 0x8000_0000)] {
        expect(
            &ALL,
            &[mode],
            SUB,
            NONE,
            &[0x3f80_0000u32, 0x3f80_0000],
            want,
        );
        expect(
            &ALL,
            &[mode],
            SUBREV,
            NONE,
            &[0x3f80_0000u32, 0x3f80_0000],
            want,
        );
        expect(
            &ALL,
            &[mode],
            ADD,
            NONE,
            &[0x3f80_0000u32, 0xbf80_0000],
            want,
        );
        // FMA: 1 x 1 + -1, and a zero product +0 x 1 + -0.
        expect(
            &ALL,
            &[mode],
            FMA,
            NONE,
            &[0x3f80_0000u32, 0x3f80_0000, 0xbf80_0000],
            want,
        );
        expect(
            &ALL,
            &[mode],
            FMA,
            NONE,
            &[0u32, 0x3f80_0000, 0x8000_0000],
            want,
        );
    }
    // -0 x 1 + -0 = -0 + -0 = -0 in every mode.
    expect(
        &ALL,
        &[0xf0, 0xf1, 0xf2, 0xf3],
        FMA,
        NONE,
        &[0x8000_0000u32, 0x3f80_0000, 0x8000_0000],
        0x8000_0000,
    );
    expect(&ALL, &[0xf0, 0xf2], ADD, NONE, &[0x3c00u16, 0xbc00], 0);
    expect(&ALL, &[0xf8], ADD, NONE, &[0x3c00u16, 0xbc00], 0x8000);
    expect(
        &ALL,
        &[0xf2],
        ADD,
        NONE,
        &[0x3ff0_0000_0000_0000u64, 0xbff0_0000_0000_0000],
        0,
    );
    expect(
        &ALL,
        &[0xf8],
        ADD,
        NONE,
        &[0x3ff0_0000_0000_0000u64, 0xbff0_0000_0000_0000],
        1 << 63,
    );
}

/// Signs are judged after ABS/NEG and after the input flush: NEG makes
/// src1's +0 a -0 (+0 + -0 = +0; with both negated -0 + -0 = -0); ABS
/// makes -0 a +0. 0x80000001 (the smallest negative subnormal) flushed
/// (MODE 0x00: F32 inputs flushed) is -0: -0 + -0 = -0, and -0 + +0 = +0
/// to nearest; kept (0xf0) the sum is exact, 0x80000001.
#[test]
fn zero_signs_after_modifiers_and_input_flush() {
    let neg1 = ArithMods {
        neg: [false, true, false],
        ..NONE
    };
    let neg01 = ArithMods {
        neg: [true, true, false],
        ..NONE
    };
    let abs0 = ArithMods {
        abs: [true, false, false],
        ..NONE
    };
    expect(&ALL, &[0xf0], ADD, neg1, &[0u32, 0], 0);
    expect(&ALL, &[0xf0], ADD, neg01, &[0u32, 0], 0x8000_0000);
    expect(&ALL, &[0xf0], ADD, abs0, &[0x8000_0000u32, 0x8000_0000], 0);
    let flushed = [0x00, IEEE];
    expect(
        &["gfx1201", "gfx1250"],
        &[0x00],
        ADD,
        NONE,
        &[0x8000_0001u32, 0x8000_0000],
        0x8000_0000,
    );
    expect(
        &["gfx908", "gfx1030", "gfx1100"],
        &flushed,
        ADD,
        NONE,
        &[0x8000_0001u32, 0x8000_0000],
        0x8000_0000,
    );
    expect(&ALL, &[0x00], ADD, NONE, &[0x8000_0001u32, 0], 0);
    expect(&ALL, &[0x02], ADD, NONE, &[0x8000_0001u32, 0], 0x8000_0000);
    expect(
        &ALL,
        &[0xf0],
        ADD,
        NONE,
        &[0x8000_0001u32, 0x8000_0000],
        0x8000_0001,
    );
}

// ---- Input denormals --------------------------------------------------------

/// [hw gfx1100, gfx1201 for F16 FMA] a flushed subnormal times inf is
/// 0 x inf, invalid: the negative canonical NaN 0xfe00 (MODE 0x30: F16
/// inputs flushed). Kept (0xf0), 2^-24 x inf = +inf, + 0 = +inf.
#[test]
fn flushed_subnormal_times_inf_is_invalid() {
    expect(
        &HW_RDNA,
        &[0x30, 0x30 | IEEE],
        FMA,
        NONE,
        &[0x0001u16, 0x7c00, 0],
        0xfe00,
    );
    expect(
        &HW_RDNA,
        &[0xf0],
        FMA,
        NONE,
        &[0x0001u16, 0x7c00, 0],
        0x7c00,
    );
}

// ---- Tininess after rounding and the output flush -----------------------------

/// [hw gfx1100, gfx1201] -2^-126 x (1 - 2^-24) with F32 outputs flushed
/// (MODE 0x10: inputs kept, outputs flushed): tiny, the zero of the exact
/// result's sign, 0x80000000, in every rounding mode.
#[test]
fn mul_f32_tiny_negative_flushes_to_minus_zero() {
    expect(
        &HW_RDNA,
        &[0x10, 0x11, 0x12, 0x13, 0x00],
        MUL,
        NONE,
        &[0x8080_0000u32, 0x3f7f_ffff],
        0x8000_0000,
    );
}

/// [hw gfx1100, gfx1201] 2^-126 x (1 - 2^-24) = (2^24 - 1) x 2^-150: 24
/// significant bits, exact at 24-bit precision with an unbounded exponent,
/// and below 2^-126: tiny in every mode, so flushed to +0 when F32 outputs
/// are flushed (MODE 0x10-0x13). Kept (0x30-0x33): in subnormal ulps of
/// 2^-149 it is 8388607.5, half way between 0x007fffff (8388607) and
/// 0x00800000 (8388608, even): nearest and toward +inf give 0x00800000,
/// toward -inf and toward zero 0x007fffff.
#[test]
fn mul_f32_tininess_is_judged_after_rounding_to_24_bits() {
    let (a, b) = (0x0080_0000u32, 0x3f7f_ffffu32);
    expect(&HW_RDNA, &[0x10, 0x11, 0x12, 0x13], MUL, NONE, &[a, b], 0);
    expect(&HW_RDNA, &[0x30, 0x31], MUL, NONE, &[a, b], 0x0080_0000);
    expect(&HW_RDNA, &[0x32, 0x33], MUL, NONE, &[a, b], 0x007f_ffff);
}

/// [hw gfx1201] F16 FMA 2^-24 x 0.25 + -2^-14 = -(2^-14 - 2^-26) =
/// -1.11111111111b x 2^-15 (1 and eleven ones: 12 bits). At 11 bits the
/// last one is exactly half an ulp. To nearest (tie to even: ...1 is odd,
/// so up) and toward -inf (larger magnitude) it rounds to -2^-14: not
/// tiny, -min_normal 0x8400. Toward +inf and toward zero it stays below
/// 2^-14: tiny, flushed (F16 outputs flushed, MODE 0x4_: inputs kept) to
/// -0, 0x8000. With div:2: -min_normal halves to -0 (biased exponent 1,
/// the input's sign), 0x8000; OMOD of -0 is +0, 0x0000.
#[test]
fn fma_f16_tininess_after_rounding_with_div2() {
    let s = [0x0001u16, 0x3400, 0x8400];
    expect(&["gfx1201"], &[0x40, 0x48], FMA, NONE, &s, 0x8400);
    expect(&["gfx1201"], &[0x44, 0x4c], FMA, NONE, &s, 0x8000);
    expect(&["gfx1201"], &[0x40, 0x48], FMA, DIV2, &s, 0x8000);
    expect(&["gfx1201"], &[0x44, 0x4c], FMA, DIV2, &s, 0x0000);
}

// ---- Overflow and FP16_OVFL ------------------------------------------------------

/// [hw gfx1030, gfx1100] MUL_F16 1.5 x 65504 = 98256, beyond 65504: to
/// nearest +inf, 0x7c00. Toward +inf also +inf; toward -inf and toward zero
/// +max, 0x7bff (docs/semantics.md §5.4).
#[test]
fn mul_f16_overflow_by_fp_round() {
    let s = [0x3e00u16, 0x7bff];
    expect(
        &["gfx1030", "gfx1100"],
        &[0xf0, 0xf4],
        MUL,
        NONE,
        &s,
        0x7c00,
    );
    expect(
        &["gfx1030", "gfx1100"],
        &[0xf8, 0xfc],
        MUL,
        NONE,
        &s,
        0x7bff,
    );
    // The negative product: -inf to nearest, -max (0xfbff) toward +inf.
    expect(
        &["gfx1030", "gfx1100"],
        &[0xf0],
        MUL,
        NONE,
        &[0xbe00u16, 0x7bff],
        0xfc00,
    );
    expect(
        &["gfx1030", "gfx1100"],
        &[0xf4],
        MUL,
        NONE,
        &[0xbe00u16, 0x7bff],
        0xfbff,
    );
}

/// [hw gfx1100, gfx1030] FP16_OVFL saturates the finite overflow of
/// 1.5 x 65504 to 0x7bff; with div:2 and IEEE = 0 (MODE 0x800000: F16
/// outputs flushed, so OMOD is effective) 65504 / 2 = 32752, exponent one
/// lower: 0x77ff. With IEEE = 1 OMOD is ignored: 0x7bff.
#[test]
fn fp16_ovfl_saturates_mul_before_omod() {
    let s = [0x3e00u16, 0x7bff];
    expect(&["gfx1030", "gfx1100"], &[FP16_OVFL], MUL, DIV2, &s, 0x77ff);
    expect(
        &["gfx1030", "gfx1100"],
        &[FP16_OVFL | IEEE],
        MUL,
        DIV2,
        &s,
        0x7bff,
    );
    // Without OMOD, in every rounding mode: +-max.
    for r in 0..4 {
        expect(&ALL, &[FP16_OVFL | 0xf0 | r << 2], MUL, NONE, &s, 0x7bff);
        expect(
            &ALL,
            &[FP16_OVFL | 0xf0 | r << 2],
            MUL,
            NONE,
            &[0xbe00u16, 0x7bff],
            0xfbff,
        );
    }
}

/// [hw gfx1100, gfx1201] FMA_F16 1 x 65504 + 65504 = 131008 overflows;
/// FP16_OVFL gives 0x7bff, div:2 0x77ff (gfx1201: OMOD always effective).
#[test]
fn fp16_ovfl_saturates_fma_before_omod() {
    let s = [0x3c00u16, 0x7bff, 0x7bff];
    expect(&HW_RDNA, &[FP16_OVFL], FMA, DIV2, &s, 0x77ff);
    expect(&["gfx1201"], &[FP16_OVFL | 0xf0], FMA, DIV2, &s, 0x77ff);
}

/// [doc] A result infinite because a source is: inf x 1 stays +inf under
/// FP16_OVFL. F32 never saturates: max + max overflows to +inf.
#[test]
fn fp16_ovfl_leaves_infinite_sources_and_f32_alone() {
    expect(
        &ALL,
        &[FP16_OVFL | 0xf0],
        MUL,
        NONE,
        &[0x7c00u16, 0x3c00],
        0x7c00,
    );
    expect(
        &ALL,
        &[FP16_OVFL | 0xf0],
        ADD,
        NONE,
        &[0x7f7f_ffffu32, 0x7f7f_ffff],
        0x7f80_0000,
    );
    expect(
        &ALL,
        &[FP16_OVFL | 0xf0],
        ADD,
        NONE,
        &[0x7fef_ffff_ffff_ffffu64, 0x7fef_ffff_ffff_ffff],
        0x7ff0_0000_0000_0000,
    );
}

// ---- NaN ----------------------------------------------------------------------

/// Invalid operations give the negative canonical quiet NaN whatever MODE
/// says: inf - inf through ADD, SUB, SUBREV and the FMA sum; 0 x inf
/// through MUL and the FMA product [hw gfx1100, gfx1201 for F16 FMA; F32
/// and F64 inherited].
#[test]
fn invalid_operations_give_the_negative_canonical_nan() {
    let (inf, ninf, one) = (0x7f80_0000u32, 0xff80_0000u32, 0x3f80_0000u32);
    let modes = [0x00, 0xf0, 0xf0 | IEEE, 0xf3 | DX10_CLAMP];
    expect(&ALL, &modes, ADD, NONE, &[inf, ninf], 0xffc0_0000);
    expect(&ALL, &modes, SUB, NONE, &[inf, inf], 0xffc0_0000);
    expect(&ALL, &modes, SUBREV, NONE, &[ninf, ninf], 0xffc0_0000);
    expect(&ALL, &modes, MUL, NONE, &[0, inf], 0xffc0_0000);
    expect(
        &ALL,
        &modes,
        FMA,
        NONE,
        &[0x8000_0000, inf, one],
        0xffc0_0000,
    );
    expect(&ALL, &modes, FMA, NONE, &[one, inf, ninf], 0xffc0_0000);
    expect(
        &ALL,
        &modes,
        ADD,
        NONE,
        &[0x7ff0_0000_0000_0000u64, 0xfff0_0000_0000_0000],
        0xfff8_0000_0000_0000,
    );
    expect(&ALL, &modes, MUL, NONE, &[0x7c00u16, 0], 0xfe00);
}

/// [hw gfx1100, gfx1201] FMA's 0 x inf wins over a NaN addend:
/// fma(0, inf, 0x7e01) is 0xfe00, not the addend's NaN.
#[test]
fn fma_zero_times_inf_wins_over_a_nan_addend() {
    expect(
        &HW_RDNA,
        &[0xf0, 0xf0 | IEEE],
        FMA,
        NONE,
        &[0u16, 0x7c00, 0x7e01],
        0xfe00,
    );
    expect(
        &ALL,
        &[0xf0],
        FMA,
        NONE,
        &[0u32, 0x7f80_0000, 0x7fc0_0001],
        0xffc0_0000,
    );
}

/// [hw gfx1100, gfx1201] The first NaN in operand order, sign and payload
/// kept, quieted: ADD 0x7f801abc (signalling) + 0xffc00222 gives src0's,
/// with the quiet bit 0x00400000: 0x7fc01abc. FMA_F16 1.0 x 0xfc12
/// (signalling) + 0x7e01 gives src1's, quieted (bit 0x0200): 0xfe12.
/// gfx1201 quiets always; before GFX12 with MODE.IEEE = 1.
#[test]
fn first_nan_in_operand_order_quieted() {
    expect(
        &["gfx1201", "gfx1250"],
        &[0x00, 0xf0],
        ADD,
        NONE,
        &[0x7f80_1abcu32, 0xffc0_0222],
        0x7fc0_1abc,
    );
    expect(
        &["gfx1100"],
        &[0xf0 | IEEE],
        ADD,
        NONE,
        &[0x7f80_1abcu32, 0xffc0_0222],
        0x7fc0_1abc,
    );
    expect(
        &["gfx1201"],
        &[0xf0],
        FMA,
        NONE,
        &[0x3c00u16, 0xfc12, 0x7e01],
        0xfe12,
    );
    expect(
        &["gfx1100"],
        &[0xf0 | IEEE],
        FMA,
        NONE,
        &[0x3c00u16, 0xfc12, 0x7e01],
        0xfe12,
    );
}

/// No sNaN priority: a quiet src0 NaN wins over a signalling src1, on
/// every target and MODE (the quiet NaN needs no quieting). SUBREV also
/// prefers src0 (operand order of the encoding, not of src1 - src0). FMA
/// takes src0, else src1, else src2. All quiet, so quieting cannot matter.
#[test]
fn nan_priority_is_operand_order_only() {
    let modes = [0x00, 0xf0, 0xf0 | IEEE];
    let (qa, qb, qc, one) = (
        0x7fc0_0001u32,
        0xffc0_0002u32,
        0x7fc0_0003u32,
        0x3f80_0000u32,
    );
    expect(&ALL, &modes, ADD, NONE, &[qa, 0x7f80_0002], qa);
    expect(&ALL, &modes, SUBREV, NONE, &[qa, qb], qa);
    expect(&ALL, &modes, SUB, NONE, &[qb, qa], qb);
    expect(&ALL, &modes, MUL, NONE, &[one, qb], qb);
    expect(&ALL, &modes, FMA, NONE, &[qa, qb, qc], qa);
    expect(&ALL, &modes, FMA, NONE, &[one, qb, qc], qb);
    expect(&ALL, &modes, FMA, NONE, &[one, one, qc], qc);
    expect(
        &ALL,
        &modes,
        ADD,
        NONE,
        &[0x3ff0_0000_0000_0000u64, 0xfff8_0000_0000_0005],
        0xfff8_0000_0000_0005,
    );
}

/// Quieting: gfx1201 and gfx1250 set the quiet bit always [hw gfx1201];
/// before GFX12 MODE.IEEE = 1 quiets [doc; hw gfx1100]. Sign and payload
/// stay: 0xff800001 + 1.0 gives 0xffc00001.
#[test]
fn signalling_nans_are_quieted() {
    expect(
        &["gfx1201", "gfx1250"],
        &[0x00, 0xf0, 0xf0 | IEEE],
        ADD,
        NONE,
        &[0x7f80_0001u32, 0x3f80_0000],
        0x7fc0_0001,
    );
    expect(
        &ALL,
        &[0xf0 | IEEE],
        ADD,
        NONE,
        &[0xff80_0001u32, 0x3f80_0000],
        0xffc0_0001,
    );
    expect(
        &ALL,
        &[0xf0 | IEEE],
        MUL,
        NONE,
        &[0x3c00u16, 0x7c01],
        0x7e01,
    );
}

/// [open, default `ieee`] SUB and SUBREV return a NaN subtrahend with its
/// sign unchanged: 1.0 - 0x7fc00001 is 0x7fc00001, 1.0 - 0xffc00001 is
/// 0xffc00001.
#[test]
fn sub_returns_a_nan_subtrahend_unchanged_by_default() {
    expect(
        &ALL,
        &[0xf0],
        SUB,
        NONE,
        &[0x3f80_0000u32, 0x7fc0_0001],
        0x7fc0_0001,
    );
    expect(
        &ALL,
        &[0xf0],
        SUB,
        NONE,
        &[0x3f80_0000u32, 0xffc0_0001],
        0xffc0_0001,
    );
    expect(
        &ALL,
        &[0xf0],
        SUBREV,
        NONE,
        &[0x7fc0_0001u32, 0x3f80_0000],
        0x7fc0_0001,
    );
}

// ---- OMOD and CLAMP ---------------------------------------------------------------

/// [hw gfx1030, gfx1100] MUL_F16 0x3e00 x 0x7bff with div:2, IEEE = 0 and
/// F16 output denormals off (MODE 0x00, 0x40): rounding first gives +inf,
/// and inf / 2 = inf: 0x7c00. (Scaling first would give 49128 = 0x79ff.)
#[test]
fn omod_acts_on_the_rounded_result() {
    expect(
        &["gfx1030", "gfx1100"],
        &[0x00, 0x40],
        MUL,
        DIV2,
        &[0x3e00u16, 0x7bff],
        0x7c00,
    );
}

/// [hw gfx1201] MODE 0: 0x8800 (-2^-13) + 0x0478 ((1 + 120/1024) 2^-14) =
/// -(904/1024) 2^-14 = -0.8828125 x 2^-14, exact and tiny: flushed (F16
/// outputs flushed) to -0, 0x8000; with mul:4 OMOD of -0 gives +0. F16
/// subnormals kept (0xc0) it is the subnormal -904 x 2^-24, 0x8388; with
/// mul:4 on gfx1201 OMOD forces the flush: +0 again.
#[test]
fn omod_of_a_flushed_sum_is_plus_zero_on_gfx1201() {
    let s = [0x8800u16, 0x0478];
    expect(&["gfx1201"], &[0x00], ADD, NONE, &s, 0x8000);
    expect(&["gfx1201"], &[0x00, 0xc0], ADD, MUL4, &s, 0x0000);
    expect(&["gfx1201"], &[0xc0], ADD, NONE, &s, 0x8388);
}

/// [hw gfx1201] MODE 0xff: 0x8400 + 0 = -2^-14 (normal); div:2 of the
/// lowest binade gives the zero of its sign, 0x8000.
#[test]
fn div2_of_minus_min_normal_is_minus_zero() {
    expect(
        &["gfx1201"],
        &[0xff, 0x00],
        ADD,
        DIV2,
        &[0x8400u16, 0],
        0x8000,
    );
}

/// [hw gfx1100, gfx1030] With IEEE = 1 OMOD is ignored: 1.0 x 2.0 and
/// 1.0 + 1.0 with div:2 give 2.0 (0x4000). IEEE = 0 and F16 outputs
/// flushed: 1.0 (0x3c00). IEEE = 0 but F16 outputs kept (0xc0): ignored.
/// gfx1201 always applies it.
#[test]
fn omod_gate_by_ieee_and_output_denormals() {
    for op in [MUL, ADD] {
        let s = if op == MUL {
            [0x3c00u16, 0x4000]
        } else {
            [0x3c00u16, 0x3c00]
        };
        expect(&["gfx1030", "gfx1100"], &[IEEE, 0xc0], op, DIV2, &s, 0x4000);
        expect(&["gfx1030", "gfx1100"], &[0x00], op, DIV2, &s, 0x3c00);
        expect(&["gfx1201"], &[IEEE, 0xc0, 0x00], op, DIV2, &s, 0x3c00);
    }
}

/// CLAMP after OMOD: 1 + 1 = 2 clamps to 1.0; -1 + 0 to +0; a quiet NaN
/// to +0 on gfx1201 always, before GFX12 only with DX10_CLAMP.
#[test]
fn clamp_after_the_result() {
    expect(
        &ALL,
        &[0xf0],
        ADD,
        CLAMP,
        &[0x3f80_0000u32, 0x3f80_0000],
        0x3f80_0000,
    );
    expect(&ALL, &[0xf0], ADD, CLAMP, &[0xbf80_0000u32, 0], 0);
    expect(
        &["gfx1201", "gfx1250"],
        &[0xf0],
        ADD,
        CLAMP,
        &[0x7fc0_0001u32, 0],
        0,
    );
    expect(
        &["gfx908", "gfx1030", "gfx1100"],
        &[0xf0],
        ADD,
        CLAMP,
        &[0x7fc0_0001u32, 0],
        0x7fc0_0001,
    );
    expect(
        &["gfx908", "gfx1030", "gfx1100"],
        &[0xf0 | DX10_CLAMP],
        ADD,
        CLAMP,
        &[0x7fc0_0001u32, 0],
        0,
    );
    // mul:2 then clamp (gfx1201): 0.75 x 1.0 x 2 = 1.5, clamped to 1.0.
    let m = ArithMods {
        omod: Omod::Mul2,
        clamp: true,
        ..NONE
    };
    expect(
        &["gfx1201"],
        &[0xf0],
        MUL,
        m,
        &[0x3f40_0000u32, 0x3f80_0000],
        0x3f80_0000,
    );
}

/// ABS and NEG reach each source: fma(2, 3, -7) = -1 (0xbf800000);
/// fma(2, -|3|, 7) = 1 (0x3f800000); -|2| - 3 = -5 (0xc0a00000).
#[test]
fn abs_and_neg_per_source() {
    let (two, three, seven) = (0x4000_0000u32, 0x4040_0000u32, 0x40e0_0000u32);
    let neg2 = ArithMods {
        neg: [false, false, true],
        ..NONE
    };
    expect(&ALL, &[0xf0], FMA, neg2, &[two, three, seven], 0xbf80_0000);
    let nabs1 = ArithMods {
        abs: [false, true, false],
        neg: [false, true, false],
        ..NONE
    };
    expect(&ALL, &[0xf0], FMA, nabs1, &[two, three, seven], 0x3f80_0000);
    let nabs0 = ArithMods {
        abs: [true, false, false],
        neg: [true, false, false],
        ..NONE
    };
    expect(&ALL, &[0xf0], SUB, nabs0, &[two, three], 0xc0a0_0000);
    // The FRACT/LDEXP modifiers convert to src0's.
    let from: ArithMods = LaneMods {
        abs: true,
        neg: true,
        ..LaneMods::default()
    }
    .into();
    assert_eq!(from, nabs0);
}

// ---- The API's checks ----------------------------------------------------------------

#[test]
fn named_functions_match_their_operation() {
    let t = Target::Gfx1201;
    let (a, b, c) = ([0x4000_0000u32], [0x4040_0000u32], [0x3f80_0000u32]);
    let mut d = [0u32];
    // 2 + 3 = 5, 2 - 3 = -1, 3 - 2 = 1, 2 x 3 = 6, 2 x 3 + 1 = 7.
    lanes::add(t, 0xf0, NONE, &a, &b, &mut d).unwrap();
    assert_eq!(d, [0x40a0_0000]);
    lanes::sub(t, 0xf0, NONE, &a, &b, &mut d).unwrap();
    assert_eq!(d, [0xbf80_0000]);
    lanes::subrev(t, 0xf0, NONE, &a, &b, &mut d).unwrap();
    assert_eq!(d, [0x3f80_0000]);
    lanes::mul(t, 0xf0, NONE, &a, &b, &mut d).unwrap();
    assert_eq!(d, [0x40c0_0000]);
    lanes::fma(t, 0xf0, NONE, &a, &b, &c, &mut d).unwrap();
    assert_eq!(d, [0x40e0_0000]);
}

#[test]
fn refused_calls_say_why_and_leave_dst_alone() {
    let t = Target::Gfx1100;
    let x = [0x3f80_0000u32; 4];
    let mut d = [0xdead_beefu32; 4];
    let msg = |r: Result<(), ExecError>| r.expect_err("refused").to_string();
    assert_eq!(
        msg(lanes::add(t, 0, NONE, &x[..3], &x, &mut d)),
        "src0: 3 lanes for 4 destination lanes"
    );
    assert_eq!(
        msg(lanes::mul(t, 0, NONE, &x, &x[..2], &mut d)),
        "src1: 2 lanes for 4 destination lanes"
    );
    assert_eq!(
        msg(lanes::fma(t, 0, NONE, &x, &x, &x[..1], &mut d)),
        "src2: 1 lanes for 4 destination lanes"
    );
    assert_eq!(
        msg(lanes::arith(
            ADD,
            t,
            0,
            NONE,
            &[&x[..], &x[..], &x[..]],
            &mut d
        )),
        "src2: v_add takes 2 sources, 3 given"
    );
    assert_eq!(
        msg(lanes::arith(FMA, t, 0, NONE, &[&x[..], &x[..]], &mut d)),
        "src2: v_fma takes 3 sources, 2 given"
    );
    assert_eq!(
        msg(lanes::arith_exec(
            ADD,
            t,
            0,
            NONE,
            &[],
            &[&x[..], &x[..]],
            &mut d
        )),
        "exec: 0 EXEC words for 4 destination lanes"
    );
    let abs2 = ArithMods {
        abs: [false, false, true],
        ..NONE
    };
    assert_eq!(
        msg(lanes::add(t, 0, abs2, &x, &x, &mut d)),
        "ABS or NEG on src2: v_add has 2 sources"
    );
    let neg2 = ArithMods {
        neg: [false, false, true],
        ..NONE
    };
    assert_eq!(
        msg(lanes::mul(t, 0, neg2, &x, &x, &mut d)),
        "ABS or NEG on src2: v_mul has 2 sources"
    );
    assert_eq!(d, [0xdead_beef; 4]);
    let y = [0x3ff0_0000_0000_0000u64; 2];
    let mut e = [7u64; 2];
    for t in Target::ALL {
        assert_eq!(
            msg(lanes::sub(t, 0, NONE, &y, &y, &mut e)),
            "src0: no target has v_sub_f64: SUB exists in F16 and F32 only"
        );
        assert_eq!(
            msg(lanes::subrev(t, 0, NONE, &y, &y, &mut e)),
            "src0: no target has v_subrev_f64: SUBREV exists in F16 and F32 only"
        );
        for op in [ADD, MUL, FMA] {
            let srcs: Vec<&[u64]> = vec![&y[..]; op.sources()];
            lanes::arith(op, t, 0, NONE, &srcs, &mut e).unwrap();
        }
    }
    assert_eq!(e, [0x3ff0_0000_0000_0000 + 0x0010_0000_0000_0000; 2]); // 1 x 1 + 1 = 2
    assert!(
        !lanes::has_format(SUB, FormatKind::F64) && !lanes::has_format(SUBREV, FormatKind::F64)
    );
    assert!(lanes::has_format(SUB, FormatKind::F16) && lanes::has_format(FMA, FormatKind::F64));
    // Every target runs every operation in F16 and F32 (the VOP3 forms of
    // its instruction set): 1 + 1 = 2, 1 - 1 = +0 (to nearest), 1 x 1 = 1,
    // 1 x 1 + 1 = 2.
    for t in Target::ALL {
        for (op, h, f) in [
            (ADD, 0x4000u16, 0x4000_0000u32),
            (SUB, 0, 0),
            (SUBREV, 0, 0),
            (MUL, 0x3c00, 0x3f80_0000),
            (FMA, 0x4000, 0x4000_0000),
        ] {
            let (x, mut d) = ([0x3c00u16; 1], [0x5555u16; 1]);
            lanes::arith(op, t, 0, NONE, &vec![&x[..]; op.sources()], &mut d).unwrap();
            assert_eq!(d, [h], "{t:?} v_{}_f16", op.name());
            let (x, mut d) = ([0x3f80_0000u32; 1], [0x5555u32; 1]);
            lanes::arith(op, t, 0, NONE, &vec![&x[..]; op.sources()], &mut d).unwrap();
            assert_eq!(d, [f], "{t:?} v_{}_f32", op.name());
        }
    }
    // Zero lanes: nothing to do, no error.
    lanes::fma::<u16>(t, 0, NONE, &[], &[], &[], &mut []).unwrap();
}

/// EXEC: lane i is written when bit i % 64 of exec[i / 64] is set; the
/// others keep their value. 2100 lanes cross the 1024-lane blocks, with a
/// block fully active, one fully inactive and mixed ones. 1.5 + 2.25 =
/// 3.75 (0x40700000) in active lanes.
#[test]
fn exec_masks_lanes_across_blocks() {
    let n: usize = 2100;
    let mut exec = vec![0u64; n.div_ceil(64)];
    for (k, w) in exec.iter_mut().enumerate() {
        *w = match k {
            0..=15 => u64::MAX,
            16..=31 => 0,
            _ => 0x8000_0000_0000_0001 | (k as u64) << 8,
        };
    }
    let a = vec![0x3fc0_0000u32; n];
    let b = vec![0x4010_0000u32; n];
    let mut d: Vec<u32> = (0..n as u32).collect();
    lanes::arith_exec(
        ADD,
        Target::Gfx1030,
        0xf0,
        NONE,
        &exec,
        &[&a[..], &b[..]],
        &mut d,
    )
    .unwrap();
    for (i, &v) in d.iter().enumerate() {
        let active = exec[i / 64] >> (i % 64) & 1 != 0;
        assert_eq!(v, if active { 0x4070_0000 } else { i as u32 }, "lane {i}");
    }
    // Without EXEC every lane, F16 and F64 likewise: 1.5 + 2.25.
    let mut h = vec![0u16; n];
    lanes::add(
        Target::Gfx1030,
        0xf0,
        NONE,
        &vec![0x3e00u16; n],
        &vec![0x4080u16; n],
        &mut h,
    )
    .unwrap();
    assert!(h.iter().all(|&v| v == 0x4380));
    let mut f = vec![0u64; 70];
    lanes::add(
        Target::Gfx90a,
        0xf0,
        NONE,
        &[0x3ff8_0000_0000_0000u64; 70],
        &[0x4002_0000_0000_0000u64; 70],
        &mut f,
    )
    .unwrap();
    assert!(f.iter().all(|&v| v == 0x400e_0000_0000_0000));
}

/// The lane API builds the same instruction as the kernels' own entry
/// (`__testing::arith_lanes`: the policy from the target's rules, MODE,
/// OMOD and CLAMP, each source's ABS/NEG): random targets, MODE values,
/// modifiers, operations, formats and lengths give the same bits. A
/// wiring check (both run `arith_slices`), not a rule check: a modifier
/// dropped or moved to another source, a format mixed up or lanes shifted
/// on the way in or out shows here.
#[test]
fn lanes_build_the_instruction_the_kernel_entry_builds() {
    fn compare<T: LaneBits + core::fmt::Debug + PartialEq + Into<u64> + TryFrom<u64>>(
        rng: &mut common::Rng,
        width: u32,
    ) {
        let t = Target::ALL[rng.below(Target::ALL.len() as u64) as usize];
        let op = ArithOp::ALL[rng.below(5) as usize];
        if !lanes::has_format(op, T::FORMAT) {
            return;
        }
        let n = rng.below(200) as usize;
        let mask = u64::MAX >> (64 - width);
        let lane = |rng: &mut common::Rng| rng.next() & mask;
        let srcs: Vec<Vec<u64>> = (0..op.sources())
            .map(|_| (0..n).map(|_| lane(rng)).collect())
            .collect();
        let bit = |rng: &mut common::Rng, i: usize| i < op.sources() && rng.below(2) == 1;
        let mods = ArithMods {
            abs: [0, 1, 2].map(|i| bit(rng, i)),
            neg: [0, 1, 2].map(|i| bit(rng, i)),
            omod: Omod::from_field(rng.below(4) as u32),
            clamp: rng.below(2) == 1,
        };
        let mode = rng.next() as u32 & 0x0080_03ff;
        let typed: Vec<Vec<T>> = srcs
            .iter()
            .map(|s| {
                s.iter()
                    .map(|&x| T::try_from(x).ok().expect("fits"))
                    .collect()
            })
            .collect();
        let refs: Vec<&[T]> = typed.iter().map(Vec::as_slice).collect();
        let mut got = vec![T::default(); n];
        lanes::arith(op, t, mode, mods, &refs, &mut got).expect("lanes");
        let instr = ArithInstr {
            op,
            sources: SourceModifiers {
                abs: mods.abs,
                neg: mods.neg,
            },
            omod: mods.omod,
            clamp: mods.clamp,
        };
        let rules = amdgpu_valu::__testing::float_rules(t.spec());
        let none = vec![0u64; n];
        let src = |i: usize| srcs.get(i).unwrap_or(&none).as_slice();
        let mut want = vec![0u64; n];
        amdgpu_valu::__testing::arith_lanes(
            instr,
            T::FORMAT,
            &rules,
            amdgpu_valu::Mode(mode),
            [src(0), src(1), src(2)],
            &mut want,
        )
        .expect("kernel entry");
        let got: Vec<u64> = got.into_iter().map(Into::into).collect();
        assert_eq!(
            got,
            want,
            "{t:?} v_{}_{:?} MODE {mode:#x} {mods:?}",
            op.name(),
            T::FORMAT
        );
    }
    let mut rng = common::Rng(0x6172_6974_686d_6574);
    for _ in 0..300 {
        compare::<u16>(&mut rng, 16);
        compare::<u32>(&mut rng, 32);
        compare::<u64>(&mut rng, 64);
    }
}
