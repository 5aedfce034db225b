//! The arithmetic kernels (ADD, SUB, SUBREV, MUL, FMA) bit for bit: every
//! example of the arithmetic contract with bits, derived by hand; then the
//! kernels against the reference model (`tests/reference/arith.rs`) on a
//! strided F16 sweep and on generated F32/F64 cases with random modifiers.
//!
//! The kernels are reached through the hidden test hook
//! (`__testing::arith_lanes`) until the executor runs them. MODE values
//! (docs/semantics.md §2): F32 FP_ROUND bits 1:0, F16/F64 bits 3:2 (0
//! nearest-even, 1 toward +inf, 2 toward -inf, 3 toward zero); F32
//! FP_DENORM bits 5:4, F16/F64 bits 7:6 (low bit keeps inputs, high bit
//! outputs); IEEE bit 9; FP16_OVFL bit 23.

mod common;
mod reference;

use amdgpu_valu::__testing::kernels::arith::{ArithInstr, ArithOp, SourceModifiers};
use amdgpu_valu::__testing::kernels::{
    ClampNan, FloatRules, FormatKind, Mode, Omod, OmodGate, SnanPolicy, SubNan, Tininess, F16, F32,
    F64,
};
use amdgpu_valu::__testing::{arith_lane, arith_lanes};

use common::Rng;
use reference::arith::{ref_arith, ArithFormat, ArithRefMods, RefOp};
use reference::TargetKind;

/// gfx1201/gfx1250: OMOD always effective, CLAMP of NaN +0, NaNs quieted.
const ALWAYS: FloatRules = FloatRules {
    omod_gate: OmodGate::Always,
    clamp_nan: ClampNan::AlwaysZero,
    has_ieee_dx10_bits: false,
    snan: SnanPolicy::Quiet,
    sub_nan: SubNan::Ieee,
    tininess: Tininess::AfterRounding,
};

/// gfx1030/gfx1100: OMOD only with IEEE = 0 and output subnormals flushed;
/// signalling NaNs kept when IEEE = 0 (`keep_when_ieee_off`).
const GATED_KEEP: FloatRules = FloatRules {
    omod_gate: OmodGate::IeeeAndOutputDenorm,
    clamp_nan: ClampNan::Dx10Clamp,
    has_ieee_dx10_bits: true,
    snan: SnanPolicy::KeepWhenIeeeOff,
    sub_nan: SubNan::Ieee,
    tininess: Tininess::AfterRounding,
};

/// The same gated target quieting every NaN.
const GATED_QUIET: FloatRules = FloatRules {
    snan: SnanPolicy::Quiet,
    sub_nan: SubNan::Ieee,
    tininess: Tininess::AfterRounding,
    ..GATED_KEEP
};

const IEEE: u32 = 1 << 9;
const FP16_OVFL: u32 = 1 << 23;

fn instr(op: ArithOp, omod: Omod) -> ArithInstr {
    ArithInstr {
        omod,
        ..ArithInstr::new(op)
    }
}

/// One lane through the hook.
fn run(rules: &FloatRules, mode: u32, format: FormatKind, i: ArithInstr, srcs: [u64; 3]) -> u64 {
    arith_lane(i, format, rules, Mode(mode), srcs).expect("in range")
}

fn f16(rules: &FloatRules, mode: u32, op: ArithOp, omod: Omod, srcs: [u64; 3]) -> u64 {
    run(rules, mode, FormatKind::F16, instr(op, omod), srcs)
}

fn f32(rules: &FloatRules, mode: u32, op: ArithOp, srcs: [u64; 3]) -> u64 {
    run(rules, mode, FormatKind::F32, instr(op, Omod::None), srcs)
}

// ---------------------------------------------------------------------------
// (a) The examples of the contract, each derived by hand.

/// §1.1: fma_f16(0x0001, 0x0001, 0x7bff) is 65504 + 2^-48. One rounding
/// toward +inf (MODE 0xc4: F16 round 1, F16 subnormals kept) sees the
/// 2^-48 and rounds up to 65536, which overflows to +inf (0x7c00); to
/// nearest (0xc0) and toward zero (0xcc) it stays 65504 (0x7bff). With F16
/// input subnormals flushed (0x84) the product is 0: 65504 in every mode.
#[test]
fn fma_f16_rounds_once_and_sees_the_tiny_product() {
    let s = [0x0001, 0x0001, 0x7bff];
    let fma = |mode| f16(&ALWAYS, mode, ArithOp::Fma, Omod::None, s);
    assert_eq!(fma(0xc4), 0x7c00);
    assert_eq!(fma(0xc0), 0x7bff);
    assert_eq!(fma(0xcc), 0x7bff);
    assert_eq!(fma(0x84), 0x7bff);
}

/// §1.2, F32 (MODE 0xf0 nearest, 0xf2 toward -inf): -0 + -0 = -0 in both;
/// +0 + -0 = +0, but -0 toward -inf; -0 x 1 = -0; +0 x -0 = -0; 1 - 1 =
/// +0, but -0 toward -inf; FMA's zero product 0 x -1 = -0 plus -0 is -0,
/// and +0 x 1 plus -0 is +0 (-0 toward -inf).
#[test]
fn exact_zero_signs() {
    let add = |mode, a, b| f32(&ALWAYS, mode, ArithOp::Add, [a, b, 0]);
    for mode in [0xf0, 0xf2] {
        assert_eq!(add(mode, 0x8000_0000, 0x8000_0000), 0x8000_0000);
    }
    assert_eq!(add(0xf0, 0, 0x8000_0000), 0);
    assert_eq!(add(0xf2, 0, 0x8000_0000), 0x8000_0000);
    assert_eq!(add(0xf1, 0, 0x8000_0000), 0);
    let mul = |mode, a, b| f32(&ALWAYS, mode, ArithOp::Mul, [a, b, 0]);
    assert_eq!(mul(0xf0, 0x8000_0000, 0x3f80_0000), 0x8000_0000);
    assert_eq!(mul(0xf0, 0, 0x8000_0000), 0x8000_0000);
    assert_eq!(mul(0xf2, 0, 0), 0);
    let sub = |mode, a, b| f32(&ALWAYS, mode, ArithOp::Sub, [a, b, 0]);
    assert_eq!(sub(0xf0, 0x3f80_0000, 0x3f80_0000), 0);
    assert_eq!(sub(0xf2, 0x3f80_0000, 0x3f80_0000), 0x8000_0000);
    assert_eq!(sub(0xf3, 0x3f80_0000, 0x3f80_0000), 0);
    // x + (-x) of a subnormal, F16 toward -inf (MODE 0xf8): -0.
    let add16 = |a, b| f16(&ALWAYS, 0xf8, ArithOp::Add, Omod::None, [a, b, 0]);
    assert_eq!(add16(0x0001, 0x8001), 0x8000);
    let fma = |mode, s| f32(&ALWAYS, mode, ArithOp::Fma, s);
    assert_eq!(fma(0xf0, [0, 0xbf80_0000, 0x8000_0000]), 0x8000_0000);
    assert_eq!(fma(0xf0, [0, 0x3f80_0000, 0x8000_0000]), 0);
    assert_eq!(fma(0xf2, [0, 0x3f80_0000, 0x8000_0000]), 0x8000_0000);
    // 1 x 1 - 1 cancels exactly: +0, -0 toward -inf.
    assert_eq!(fma(0xf0, [0x3f80_0000, 0x3f80_0000, 0xbf80_0000]), 0);
    assert_eq!(
        fma(0xf2, [0x3f80_0000, 0x3f80_0000, 0xbf80_0000]),
        0x8000_0000
    );
    // A flushed negative subnormal is -0 (MODE 0xe0: F32 inputs flushed):
    // -0 + -0 = -0.
    assert_eq!(add(0xe0, 0x8000_0001, 0x8000_0000), 0x8000_0000);
}

/// §3.2: 0x00800000 x 0x3f7fffff = (1 - 2^-24) 2^-126, exact in 24 bits
/// and below 2^-126, so tiny in every mode: with F32 outputs flushed
/// (MODE 0x1r: inputs kept) it is +0 in every mode r. With outputs kept
/// (0x3r) it lies half way between 0x007fffff and 0x00800000: nearest
/// (even) and toward +inf give 0x00800000, toward -inf and zero
/// 0x007fffff. The negative twin, flushed, is -0.
#[test]
fn f32_mul_tininess_after_rounding() {
    let mul = |mode, a| f32(&ALWAYS, mode, ArithOp::Mul, [a, 0x3f7f_ffff, 0]);
    for r in 0..4 {
        assert_eq!(mul(0x10 | r, 0x0080_0000), 0, "flushed, round {r}");
    }
    assert_eq!(mul(0x30, 0x0080_0000), 0x0080_0000);
    assert_eq!(mul(0x31, 0x0080_0000), 0x0080_0000);
    assert_eq!(mul(0x32, 0x0080_0000), 0x007f_ffff);
    assert_eq!(mul(0x33, 0x0080_0000), 0x007f_ffff);
    assert_eq!(mul(0x10, 0x8080_0000), 0x8000_0000);
}

/// §3.2, F16 FMA 0x0001 x 0x3400 + 0x8400 = 2^-26 - 2^-14 =
/// -(2 - 2^-11) 2^-15: twelve significant ones, a tie at 11 bits. F16
/// inputs kept, outputs flushed (MODE 0x4r, F16 round r in bits 3:2),
/// div:2 on an always-OMOD target: nearest-even (odd last bit, up) and
/// toward -inf (magnitude up) reach -2^-14, not tiny: -min_normal, halved
/// to -0 (0x8000, the input's sign). Toward +inf and toward zero truncate:
/// tiny, flushed to -0, and OMOD of a zero is +0.
#[test]
fn f16_fma_tininess_with_div2() {
    let fma = |round: u32| {
        f16(
            &ALWAYS,
            0x40 | round << 2,
            ArithOp::Fma,
            Omod::Div2,
            [0x0001, 0x3400, 0x8400],
        )
    };
    assert_eq!(fma(0), 0x8000);
    assert_eq!(fma(2), 0x8000);
    assert_eq!(fma(1), 0x0000);
    assert_eq!(fma(3), 0x0000);
    // Without OMOD and with outputs kept (0xc0), nearest: -min_normal.
    let plain = f16(
        &ALWAYS,
        0xc0,
        ArithOp::Fma,
        Omod::None,
        [0x0001, 0x3400, 0x8400],
    );
    assert_eq!(plain, 0x8400);
}

/// §4: 1.5 x 65504 = 98256 overflows F16: nearest gives +inf (MODE 0xf0);
/// FP16_OVFL gives 0x7bff. With div:2 on a gated target: MODE 0x800000
/// (IEEE 0, outputs flushed: OMOD effective) halves 0x7bff to 0x77ff;
/// with IEEE = 1 OMOD is ignored (0x7bff); without FP16_OVFL (MODE 0) the
/// infinity passes OMOD unchanged (0x7c00, not 0x79ff: rounding first).
/// FMA 1 x 65504 + 65504 = 131008 with FP16_OVFL and div:2 on an
/// always-OMOD target: 0x7bff halved, 0x77ff. An infinite source stays
/// infinite under FP16_OVFL.
#[test]
fn f16_overflow_and_fp16_ovfl() {
    let mul = |rules, mode, omod| f16(rules, mode, ArithOp::Mul, omod, [0x3e00, 0x7bff, 0]);
    assert_eq!(mul(&GATED_QUIET, 0xf0, Omod::None), 0x7c00);
    assert_eq!(mul(&GATED_QUIET, 0xf0 | FP16_OVFL, Omod::None), 0x7bff);
    assert_eq!(mul(&GATED_QUIET, FP16_OVFL, Omod::Div2), 0x77ff);
    assert_eq!(mul(&GATED_QUIET, FP16_OVFL | IEEE, Omod::Div2), 0x7bff);
    assert_eq!(mul(&GATED_QUIET, 0, Omod::Div2), 0x7c00);
    let fma = f16(
        &ALWAYS,
        FP16_OVFL,
        ArithOp::Fma,
        Omod::Div2,
        [0x3c00, 0x7bff, 0x7bff],
    );
    assert_eq!(fma, 0x77ff);
    let inf = f16(
        &ALWAYS,
        0xf0 | FP16_OVFL,
        ArithOp::Mul,
        Omod::None,
        [0x7c00, 0x3c00, 0],
    );
    assert_eq!(inf, 0x7c00);
    // F32 toward zero (0xf3): the largest finite value, never infinity.
    let big = f32(&ALWAYS, 0xf3, ArithOp::Add, [0x7f7f_ffff, 0x7f7f_ffff, 0]);
    assert_eq!(big, 0x7f7f_ffff);
}

/// §5: invalid operations give the negative canonical quiet NaN, FMA's
/// 0 x inf winning over a NaN addend; otherwise the first NaN in encoding
/// order, quieted on an always-quiet target or with IEEE = 1, kept with
/// IEEE = 0 on a `keep_when_ieee_off` target.
#[test]
fn nan_rules() {
    let fma16 = |rules, mode, s| f16(rules, mode, ArithOp::Fma, Omod::None, s);
    assert_eq!(fma16(&ALWAYS, 0xf0, [0x0000, 0x7c00, 0x7e01]), 0xfe00);
    assert_eq!(fma16(&GATED_KEEP, 0xf0, [0x0000, 0x7c00, 0x7e01]), 0xfe00);
    // 1.0 x 0xfc12 + 0x7e01: src1's signalling NaN wins.
    assert_eq!(fma16(&GATED_KEEP, 0xf0, [0x3c00, 0xfc12, 0x7e01]), 0xfc12);
    assert_eq!(
        fma16(&GATED_KEEP, 0xf0 | IEEE, [0x3c00, 0xfc12, 0x7e01]),
        0xfe12
    );
    assert_eq!(fma16(&ALWAYS, 0xf0, [0x3c00, 0xfc12, 0x7e01]), 0xfe12);
    // F32 ADD 0x7f801abc + 0xffc00222: src0's NaN, no sNaN priority.
    let add = |rules, mode| f32(rules, mode, ArithOp::Add, [0x7f80_1abc, 0xffc0_0222, 0]);
    assert_eq!(add(&GATED_KEEP, 0xf0), 0x7f80_1abc);
    assert_eq!(add(&GATED_KEEP, 0xf0 | IEEE), 0x7fc0_1abc);
    assert_eq!(add(&ALWAYS, 0xf0), 0x7fc0_1abc);
    // SUBREV also prefers src0.
    let subrev = f32(
        &ALWAYS,
        0xf0,
        ArithOp::Subrev,
        [0x7fc0_0001, 0x7fc0_0002, 0],
    );
    assert_eq!(subrev, 0x7fc0_0001);
    // sub_nan: ieee: 1.0 - 0x7fc00001 keeps the NaN's sign.
    let sub = f32(&ALWAYS, 0xf0, ArithOp::Sub, [0x3f80_0000, 0x7fc0_0001, 0]);
    assert_eq!(sub, 0x7fc0_0001);
    // inf - inf through ADD, SUB and SUBREV; inf + inf is inf.
    let inf = 0x7f80_0000;
    assert_eq!(
        f32(&ALWAYS, 0xf0, ArithOp::Add, [inf, 0xff80_0000, 0]),
        0xffc0_0000
    );
    assert_eq!(f32(&ALWAYS, 0xf0, ArithOp::Sub, [inf, inf, 0]), 0xffc0_0000);
    assert_eq!(
        f32(&ALWAYS, 0xf0, ArithOp::Subrev, [inf, inf, 0]),
        0xffc0_0000
    );
    assert_eq!(f32(&ALWAYS, 0xf0, ArithOp::Add, [inf, inf, 0]), inf);
    // FMA inf x 1 - inf; F64 0 x -inf.
    assert_eq!(
        f32(&ALWAYS, 0xf0, ArithOp::Fma, [inf, 0x3f80_0000, 0xff80_0000]),
        0xffc0_0000
    );
    let f64_invalid = run(
        &ALWAYS,
        0xf0,
        FormatKind::F64,
        ArithInstr::new(ArithOp::Mul),
        [0, 0xfff0_0000_0000_0000, 0],
    );
    assert_eq!(f64_invalid, 0xfff8_0000_0000_0000);
    // A flushed subnormal x inf is invalid (F16 inputs flushed, 0x80); a
    // kept one (0xc0) gives inf.
    assert_eq!(
        f16(&ALWAYS, 0x80, ArithOp::Mul, Omod::None, [0x0001, 0x7c00, 0]),
        0xfe00
    );
    assert_eq!(
        f16(&ALWAYS, 0xc0, ArithOp::Mul, Omod::None, [0x0001, 0x7c00, 0]),
        0x7c00
    );
}

/// §6: ADD_F16 0x8400 + 0 with div:2 under MODE 0xff on gfx1201:
/// -min_normal, halved to the zero of its sign, 0x8000. Under MODE 0 with
/// mul:4: 0x8800 + 0x0480 = -2^-13 + 1.125 x 2^-14 = -0.875 x 2^-14, tiny,
/// flushed to -0, and OMOD of a zero gives +0. On a gated target with
/// IEEE = 1 (MODE 0x200) div:2 is ignored: 1 x 2 = 2.0 (0x4000).
#[test]
fn omod_after_rounding() {
    assert_eq!(
        f16(&ALWAYS, 0xff, ArithOp::Add, Omod::Div2, [0x8400, 0, 0]),
        0x8000
    );
    assert_eq!(
        f16(&ALWAYS, 0, ArithOp::Add, Omod::Mul4, [0x8800, 0x0480, 0]),
        0x0000
    );
    assert_eq!(
        f16(
            &GATED_QUIET,
            IEEE,
            ArithOp::Mul,
            Omod::Div2,
            [0x3c00, 0x4000, 0]
        ),
        0x4000
    );
    // CLAMP after OMOD: (0.75 + 0) x 2 = 1.5, clamped to 1.0.
    let clamped = run(
        &ALWAYS,
        0xf0,
        FormatKind::F16,
        ArithInstr {
            omod: Omod::Mul2,
            clamp: true,
            ..ArithInstr::new(ArithOp::Add)
        },
        [0x3a00, 0, 0],
    );
    assert_eq!(clamped, 0x3c00);
}

/// Per-source ABS/NEG: |-1| + -(2) = -1 (0xbc00); SUB of NEG'd src1:
/// 1 - (-(1)) = 2 (0x4000).
#[test]
fn source_modifiers_per_operand() {
    let i = ArithInstr {
        sources: SourceModifiers {
            abs: [true, false, false],
            neg: [false, true, false],
        },
        ..ArithInstr::new(ArithOp::Add)
    };
    assert_eq!(
        run(&ALWAYS, 0xf0, FormatKind::F16, i, [0xbc00, 0x4000, 0]),
        0xbc00
    );
    let s = ArithInstr {
        op: ArithOp::Sub,
        ..i
    };
    assert_eq!(
        run(&ALWAYS, 0xf0, FormatKind::F16, s, [0x3c00, 0x3c00, 0]),
        0x4000
    );
}

/// The hook refuses lanes of unequal length and encodings wider than the
/// format, with an error rather than a panic.
#[test]
fn hook_refuses_bad_lanes() {
    let mut dst = [0u64; 2];
    let i = ArithInstr::new(ArithOp::Add);
    let short = arith_lanes(
        i,
        FormatKind::F16,
        &ALWAYS,
        Mode(0),
        [&[1], &[1, 2], &[]],
        &mut dst,
    );
    assert!(short.is_err());
    let wide = arith_lane(i, FormatKind::F16, &ALWAYS, Mode(0), [0x1_0000, 0, 0]);
    assert!(wide.is_err());
    // src2 is not read by ADD: any length.
    assert!(arith_lanes(
        i,
        FormatKind::F32,
        &ALWAYS,
        Mode(0),
        [&[1, 2], &[1, 2], &[]],
        &mut dst
    )
    .is_ok());
}

// ---------------------------------------------------------------------------
// (b) Against the reference model.

fn ref_op(op: ArithOp) -> RefOp {
    match op {
        ArithOp::Add => RefOp::Add,
        ArithOp::Sub => RefOp::Sub,
        ArithOp::Subrev => RefOp::Subrev,
        ArithOp::Mul => RefOp::Mul,
        ArithOp::Fma => RefOp::Fma,
    }
}

/// A target for both sides: the kernels' rules and the model's kind.
#[derive(Clone, Copy)]
struct Side {
    rules: FloatRules,
    kind: TargetKind,
    keep_when_ieee_off: bool,
}

const SIDES: [Side; 3] = [
    Side {
        rules: ALWAYS,
        kind: TargetKind::Always,
        keep_when_ieee_off: false,
    },
    Side {
        rules: GATED_KEEP,
        kind: TargetKind::Gated,
        keep_when_ieee_off: true,
    },
    Side {
        rules: GATED_QUIET,
        kind: TargetKind::Gated,
        keep_when_ieee_off: false,
    },
];

fn omod_of(field: u8) -> Omod {
    Omod::from_field(u32::from(field))
}

/// Kernel and model on the same lanes; returns the mismatch count and
/// prints the first few.
fn compare<F: ArithFormat>(
    format: FormatKind,
    side: Side,
    mode: u32,
    op: ArithOp,
    m: ArithRefMods,
    srcs: [&[u64]; 3],
) -> usize {
    let i = ArithInstr {
        op,
        sources: SourceModifiers {
            abs: m.abs,
            neg: m.neg,
        },
        omod: omod_of(m.omod),
        clamp: m.clamp,
    };
    let mut got = vec![0u64; srcs[0].len()];
    arith_lanes(i, format, &side.rules, Mode(mode), srcs, &mut got).expect("valid lanes");
    let mut bad = 0;
    for (l, &g) in got.iter().enumerate() {
        let s = [0, 1, 2].map(|k| srcs[k].get(l).copied().unwrap_or(0));
        let want = ref_arith::<F>(ref_op(op), s, mode, side.kind, side.keep_when_ieee_off, m);
        if g != want {
            if bad < 5 {
                eprintln!(
                    "{}_{:?} {s:x?} mode {mode:#x} {m:?} kind {:?}: kernel {g:#x}, model {want:#x}",
                    op.name(),
                    format,
                    side.kind
                );
            }
            bad += 1;
        }
    }
    bad
}

/// src1 values every F16 sweep meets: zeros, the smallest subnormal and
/// normal of each sign, 1, the largest finite value, infinity, a quiet
/// and a signalling NaN of each sign.
const F16_SPECIALS: [u64; 14] = [
    0x0000, 0x8000, 0x0001, 0x8001, 0x0400, 0x8400, 0x3c00, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e01,
    0xfd01, 0x03ff,
];

/// F16 ADD or MUL: every 16-bit src0 against each of `b` as src1, under
/// `mode` on an always-OMOD target with no modifiers.
fn f16_pairs(op: ArithOp, mode: u32, b: &[u64]) -> usize {
    let a: Vec<u64> = (0..=0xffff).collect();
    let mut bad = 0;
    for &y in b {
        let b = vec![y; a.len()];
        bad += compare::<F16>(
            FormatKind::F16,
            SIDES[0],
            mode,
            op,
            ArithRefMods::default(),
            [&a, &b, &[]],
        );
    }
    bad
}

/// Each (operation, MODE) of the F16 sweeps on its own thread.
fn f16_sweep(b: &[u64]) -> usize {
    std::thread::scope(|s| {
        let runs: Vec<_> = [ArithOp::Add, ArithOp::Mul]
            .into_iter()
            .flat_map(|op| [0xf0, 0x08].map(|mode| (op, mode)))
            .map(|(op, mode)| s.spawn(move || f16_pairs(op, mode, b)))
            .collect();
        runs.into_iter()
            .map(|r| r.join().unwrap_or(usize::MAX))
            .sum()
    })
}

/// Default suite: every F16 src0 against the specials and 16 src1 values
/// 4099 apart (one per 1/16 of the encodings), ADD and MUL, under MODE
/// 0xf0 (nearest, subnormals kept) and MODE 0x08 (F16 toward -inf, F16
/// subnormals flushed both ways).
#[test]
fn f16_add_mul_strided() {
    let mut b = F16_SPECIALS.to_vec();
    b.extend((0..16).map(|j| (j * 4099 + 0x1234) & 0xffff));
    assert_eq!(f16_sweep(&b), 0);
}

/// A value of format `F` aimed at the hard places: zeros, infinities, NaNs
/// (quiet and signalling), subnormals, the edges of the normal range, and
/// random bits.
fn value(rng: &mut Rng, width: u32, man: u32) -> u64 {
    let sign = (rng.next() & 1) << (width - 1);
    let exp_bits = width - 1 - man;
    let exp_max = (1u64 << exp_bits) - 1;
    let frac = rng.next() & ((1u64 << man) - 1);
    let field = match rng.below(10) {
        0 => 0,
        1 => exp_max,
        2 => 1 + rng.below(3),
        3 => exp_max - 1 - rng.below(3),
        4 => (exp_max >> 1) + rng.below(5) - 2,
        _ => rng.below(exp_max + 1),
    };
    let frac = match rng.below(8) {
        0 => 0,
        1 => (1u64 << man) - 1 - rng.below(4),
        2 => rng.below(4),
        _ => frac,
    };
    sign | field << man | frac
}

/// Generated cases of every operation in format `F`: random values, a
/// second operand that nearly cancels the first (ADD/SUB) and an addend
/// that nearly cancels the product (FMA, the model's own product rounded),
/// under random MODE, modifiers and target.
fn generated<F: ArithFormat>(format: FormatKind, width: u32, man: u32, batches: usize) -> usize {
    let mut rng = Rng(0x5eed_0000 + u64::from(width));
    let mut bad = 0;
    for batch in 0..batches {
        let op = ArithOp::ALL[batch % 5];
        let side = SIDES[rng.below(3) as usize];
        let mut mode = (rng.next() & 0xff) as u32;
        if rng.below(4) == 0 {
            mode |= IEEE;
        }
        if rng.below(4) == 0 {
            mode |= FP16_OVFL;
        }
        let bits = rng.next();
        let bit = |n: u32| bits >> n & 1 != 0;
        let m = ArithRefMods {
            abs: [bit(0) && bit(1), bit(2) && bit(3), bit(4) && bit(5)],
            neg: [bit(6), bit(7), bit(8)],
            omod: (bits >> 9 & 3) as u8 * u8::from(bit(11)),
            clamp: bit(12) && bit(13),
        };
        let n = 64;
        let mut srcs = [Vec::new(), Vec::new(), Vec::new()];
        for _ in 0..n {
            let a = value(&mut rng, width, man);
            let b = value(&mut rng, width, man);
            let c = value(&mut rng, width, man);
            // x (or -x, `flip`) nudged by up to 2 units in the last place.
            let near = |x: u64, flip: bool, rng: &mut Rng| {
                (x ^ (u64::from(flip) << (width - 1)))
                    .wrapping_add(rng.below(5))
                    .wrapping_sub(2)
                    & (u64::MAX >> (64 - width))
            };
            let (b, c) = match (op, rng.below(3)) {
                (ArithOp::Add, 0) => (near(a, true, &mut rng), c),
                (ArithOp::Sub | ArithOp::Subrev, 0) => (near(a, false, &mut rng), c),
                (ArithOp::Fma, 0) => {
                    // The product rounded by the model (MUL, nearest, no
                    // flush), negated and nudged: a near cancellation.
                    let p = ref_arith::<F>(
                        RefOp::Mul,
                        [a, b, 0],
                        0xf0,
                        TargetKind::Always,
                        false,
                        ArithRefMods::default(),
                    );
                    (b, near(p, true, &mut rng))
                }
                _ => (b, c),
            };
            for (v, x) in srcs.iter_mut().zip([a, b, c]) {
                v.push(x);
            }
        }
        // (ABS/NEG may undo a planned cancellation: a plain case then.)
        bad += compare::<F>(format, side, mode, op, m, [&srcs[0], &srcs[1], &srcs[2]]);
    }
    bad
}

/// Default suite: 6,000 batches of 64 generated F32 and F64 cases (and
/// 1,000 of F16 with modifiers).
#[test]
fn f32_f64_generated() {
    let bad = generated::<F32>(FormatKind::F32, 32, 23, 6000)
        + generated::<F64>(FormatKind::F64, 64, 52, 6000)
        + generated::<F16>(FormatKind::F16, 16, 10, 1000);
    assert_eq!(bad, 0);
}

/// SDWA F16 results round before OMOD (`sdwa_f16_output: rounded`); the
/// alternative order, `scaled_before_rounding`, scales the exact result
/// first. gfx1030 rules, MODE 0 (IEEE = 0, F16 output subnormals flushed:
/// OMOD effective), MUL_F16 0x3e00 x 0x7bff with div:2. Rounded first:
/// 1.5 x 65504 = 98256 overflows to +inf (0x7c00), which div:2 keeps.
/// Scaled first: 98256 / 2 = 49128, in [2^15, 2^16) where the F16 ulp is
/// 32: 49128 / 32 = 1535.25 rounds to 1535, 49120 = 0x79ff.
#[test]
fn sdwa_mul_f16_rounded_or_scaled_before_rounding() {
    use amdgpu_valu::__testing::kernels::modifiers::SourceMods;
    use amdgpu_valu::__testing::kernels::scaled::ScaledBeforeRounding;
    use amdgpu_valu::__testing::kernels::{Modifiers, Policy};
    let rounded = arith_lane(
        instr(ArithOp::Mul, Omod::Div2),
        FormatKind::F16,
        &GATED_KEEP,
        Mode(0),
        [0x3e00, 0x7bff, 0],
    );
    assert_eq!(rounded, Ok(0x7c00));
    let mods = Modifiers {
        omod: Omod::Div2,
        ..Modifiers::default()
    };
    let p = Policy::new::<F16>(&GATED_KEEP, Mode(0), mods);
    let plain = [SourceMods::new(false, false); 3];
    let scaled =
        ScaledBeforeRounding::<F16>::new(&p).arith_lane(ArithOp::Mul, [0x3e00, 0x7bff, 0], &plain);
    assert_eq!(scaled, 0x79ff);
}

/// The model itself gives the contract's examples (so agreeing with it
/// means something): a few of the rows above, through the model.
#[test]
fn reference_reproduces_examples() {
    let none = ArithRefMods::default();
    let div2 = ArithRefMods { omod: 3, ..none };
    let r16 = |op, s, mode, m| ref_arith::<F16>(op, s, mode, TargetKind::Always, false, m);
    assert_eq!(
        r16(RefOp::Fma, [0x0001, 0x0001, 0x7bff], 0xc4, none),
        0x7c00
    );
    assert_eq!(
        r16(RefOp::Fma, [0x0001, 0x3400, 0x8400], 0x40, div2),
        0x8000
    );
    assert_eq!(
        r16(RefOp::Fma, [0x0001, 0x3400, 0x8400], 0x44, div2),
        0x0000
    );
    assert_eq!(r16(RefOp::Fma, [0, 0x7c00, 0x7e01], 0xf0, none), 0xfe00);
    assert_eq!(r16(RefOp::Add, [0x8400, 0, 0], 0xff, div2), 0x8000);
    let r32 = |op, s, mode| ref_arith::<F32>(op, s, mode, TargetKind::Always, false, none);
    assert_eq!(r32(RefOp::Mul, [0x0080_0000, 0x3f7f_ffff, 0], 0x10), 0);
    assert_eq!(
        r32(RefOp::Mul, [0x0080_0000, 0x3f7f_ffff, 0], 0x30),
        0x0080_0000
    );
    assert_eq!(
        r32(RefOp::Mul, [0x0080_0000, 0x3f7f_ffff, 0], 0x33),
        0x007f_ffff
    );
    assert_eq!(r32(RefOp::Add, [0, 0x8000_0000, 0], 0xf2), 0x8000_0000);
    let gated = ref_arith::<F32>(
        RefOp::Add,
        [0x7f80_1abc, 0xffc0_0222, 0],
        0xf0,
        TargetKind::Gated,
        true,
        none,
    );
    assert_eq!(gated, 0x7f80_1abc);
    let ovfl = ref_arith::<F16>(
        RefOp::Mul,
        [0x3e00, 0x7bff, 0],
        FP16_OVFL,
        TargetKind::Gated,
        false,
        div2,
    );
    assert_eq!(ovfl, 0x77ff);
}
