//! The arithmetic kernels (ADD, SUB, SUBREV, MUL, FMA) run through the
//! same dispatcher as FRACT/LDEXP: every instruction-set variant this CPU
//! has, forced in turn, gives the bits of the scalar path (the same kernel
//! one lane at a time) on every operation and format under a spread of
//! policies, and `last_variant` names what ran. The executor's entry
//! (`run_arith` over register words) is checked on hand-derived lanes:
//! EXEC, 16-bit halves, F64 pairs and a DPP-gathered src0.

use amdgpu_valu::__testing::kernels::arith::{
    arith_slices_isa, arith_slices_on, run_arith_on, ArithIo, ArithOp, SourceModifiers,
};
use amdgpu_valu::__testing::kernels::dispatch::{self, Variant};
use amdgpu_valu::__testing::kernels::{
    last_variant, ClampNan, FloatRules, Format, KernelPath, Mode, Modifiers, Omod, OmodGate,
    Policy, SnanPolicy, SubNan, Tininess, F16, F32, F64,
};

use amdgpu_valu::__testing::Rng;

/// gfx1100-like rules: gated OMOD, DX10 clamp, sNaN kept with IEEE = 0.
const GATED: FloatRules = FloatRules {
    omod_gate: OmodGate::IeeeAndOutputDenorm,
    clamp_nan: ClampNan::Dx10Clamp,
    has_ieee_dx10_bits: true,
    snan: SnanPolicy::KeepWhenIeeeOff,
    sub_nan: SubNan::Ieee,
    tininess: Tininess::AfterRounding,
};

/// gfx1201-like rules, with the two arithmetic switches flipped.
const ALWAYS_FLIPPED: FloatRules = FloatRules {
    omod_gate: OmodGate::Always,
    clamp_nan: ClampNan::AlwaysZero,
    has_ieee_dx10_bits: false,
    snan: SnanPolicy::Quiet,
    sub_nan: SubNan::NegateSubtrahend,
    tininess: Tininess::BeforeRounding,
};

/// Policies covering each instantiation: the common one, directed rounding
/// with flushes, OMOD and CLAMP, FP16_OVFL, IEEE = 1, the flipped switches.
fn policies<F: Format>() -> Vec<(Policy, SourceModifiers)> {
    let plain = SourceModifiers::default();
    let mods = SourceModifiers {
        abs: [true, false, true],
        neg: [false, true, true],
    };
    let omod_clamp = Modifiers {
        omod: Omod::Div2,
        clamp: true,
        ..Modifiers::default()
    };
    let p = |rules: &FloatRules, mode: u32, m: Modifiers| Policy::new::<F>(rules, Mode(mode), m);
    vec![
        (p(&ALWAYS_FLIPPED, 0xf0, Modifiers::default()), plain),
        (p(&GATED, 0xf0, Modifiers::default()), plain),
        (p(&GATED, 0x0080_0005, omod_clamp), mods),
        (p(&GATED, 0x20a, Modifiers::default()), mods),
        (p(&ALWAYS_FLIPPED, 0x1f, omod_clamp), plain),
        (p(&ALWAYS_FLIPPED, 0x4c, Modifiers::default()), mods),
    ]
}

/// Lanes aimed at the hard cases: random bits, and values sharing an
/// exponent or near a cancellation with the lane before.
fn lanes<F: Format>(rng: &mut Rng, n: usize) -> Vec<F::Bits> {
    let mask = u64::MAX >> (64 - F::WIDTH);
    let mut v: Vec<u64> = Vec::with_capacity(n);
    for i in 0..n {
        let r = rng.next();
        let x = match (r % 4, v.last()) {
            (0, Some(&prev)) => (prev ^ F::SIGN).wrapping_add(r >> 60) & mask,
            (1, _) => r >> 32 & (F::MAN_MASK | F::SIGN) | (i as u64 % 4) << F::MAN,
            _ => r & mask,
        };
        v.push(x);
    }
    v.into_iter().map(F::narrow).collect()
}

/// Every variant of this CPU against the scalar path for every operation
/// and policy of format `F`.
fn variants_agree<F: Format>(seed: u64) {
    let mut rng = Rng(seed);
    let n = 4096;
    let (a, b, c) = (
        lanes::<F>(&mut rng, n),
        lanes::<F>(&mut rng, n),
        lanes::<F>(&mut rng, n),
    );
    let mut want = vec![F::Bits::default(); n];
    let mut got = vec![F::Bits::default(); n];
    let mut isas = 0;
    for (p, m) in policies::<F>() {
        for op in ArithOp::ALL {
            arith_slices_on::<F>(KernelPath::Scalar, op, &p, m, [&a, &b, &c], &mut want);
            assert_eq!(last_variant(), Some(Variant::Scalar));
            for isa in dispatch::available() {
                got.fill(F::Bits::default());
                assert!(arith_slices_isa::<F>(
                    isa,
                    op,
                    &p,
                    m,
                    [&a, &b, &c],
                    &mut got
                ));
                assert_eq!(last_variant(), Some(Variant::Simd(isa)));
                assert!(
                    got == want,
                    "{:?} {op:?} {isa:?} {p:?} differs from scalar",
                    F::KIND
                );
                isas += 1;
            }
        }
    }
    assert!(isas > 0, "at least the baseline variant runs");
}

#[test]
fn every_variant_gives_the_scalar_bits_f16() {
    variants_agree::<F16>(16);
}

#[test]
fn every_variant_gives_the_scalar_bits_f32() {
    variants_agree::<F32>(32);
}

#[test]
fn every_variant_gives_the_scalar_bits_f64() {
    variants_agree::<F64>(64);
}

/// A gfx1201 MODE 0xf0 policy for `F`.
fn plain<F: Format>() -> Policy {
    Policy::new::<F>(&ALWAYS_FLIPPED, Mode(0xf0), Modifiers::default())
}

/// Run `op` over `io` on every path and variant, each on a fresh copy of
/// the destination `dst` (and `dst_hi`); every run must give `want`.
#[allow(clippy::too_many_arguments)]
fn check_io<F: Format>(
    op: ArithOp,
    src_lo: [&[u32]; 3],
    src_hi: [&[u32]; 3],
    src_shift: [u32; 3],
    src0_lane: Option<&[u8; 64]>,
    dst: (&[u32], &[u32]),
    keep_shift_exec: (u32, u32, u64),
    want: (&[u32], &[u32]),
) {
    let mut runs: Vec<(KernelPath, Option<dispatch::Isa>)> = vec![(KernelPath::Scalar, None)];
    runs.extend(dispatch::available().map(|i| (KernelPath::Simd, Some(i))));
    for (path, isa) in runs {
        let (mut lo, mut hi) = (dst.0.to_vec(), dst.1.to_vec());
        let mut io = ArithIo {
            src_lo,
            src_hi,
            src_shift,
            src0_lane,
            dst_lo: &mut lo,
            dst_hi: &mut hi,
            dst_keep: keep_shift_exec.0,
            dst_shift: keep_shift_exec.1,
            exec: keep_shift_exec.2,
        };
        let none = SourceModifiers::default();
        assert!(run_arith_on::<F>(
            path,
            isa,
            op,
            &mut io,
            &plain::<F>(),
            none
        ));
        assert_eq!((&lo[..], &hi[..]), want, "{path:?} {isa:?}");
    }
}

#[test]
fn run_arith_writes_active_lanes_halves_and_pairs() {
    // F32 ADD, 4 lanes, EXEC 0b1011: 1.0 + 2.0 = 3.0 (0x40400000), 1.0 +
    // -1.0 = +0, lane 2 inactive (keeps 0xdead), 0.5 + 0.25 = 0.75
    // (0x3f400000).
    let a = [0x3f80_0000, 0x3f80_0000, 0x3f80_0000, 0x3f00_0000];
    let b = [0x4000_0000, 0xbf80_0000, 0x4000_0000, 0x3e80_0000];
    let old = [0xdead; 4];
    check_io::<F32>(
        ArithOp::Add,
        [&a, &b, &[]],
        [&[], &[], &[]],
        [0; 3],
        None,
        (&old, &[]),
        (0, 0, 0b1011),
        (&[0x4040_0000, 0, 0xdead, 0x3f40_0000], &[]),
    );
    // F16 MUL into the high half (true16 `.h`): src0 from the high halves
    // (shift 16), src1 from the low ones; 2.0 (0x4000) x 3.0 (0x4200) = 6.0
    // (0x4600), written to bits 31:16, bits 15:0 kept.
    let a = [0x4000_1234u32, 0x3c00_0000];
    let b = [0x0000_4200u32, 0x0000_3c00];
    check_io::<F16>(
        ArithOp::Mul,
        [&a, &b, &[]],
        [&[], &[], &[]],
        [16, 0, 0],
        None,
        (&[0x1111_2222, 0x3333_4444], &[]),
        (0xffff, 16, u64::MAX),
        (&[0x4600_2222, 0x3c00_4444], &[]),
    );
    // F64 FMA on pairs, FMAC style (src2 = the old destination): 2 x 3 + 1
    // = 7 (0x401c000000000000) in lane 0; lane 1 inactive.
    let (two, three, one) = (0x4000_0000u32, 0x4008_0000u32, 0x3ff0_0000u32);
    check_io::<F64>(
        ArithOp::Fma,
        [&[0, 0], &[0, 0], &[0, 0]],
        [&[two, two], &[three, three], &[one, one]],
        [0; 3],
        None,
        (&[0, 5], &[one, 6]),
        (0, 0, 0b01),
        (&[0, 5], &[0x401c_0000, 6]),
    );
    // DPP: lane i reads src0 of lane 3 - i (lane 0 of a 64-or-more index
    // reads 0): F32 SUB, src0 [1, 2, 4, 8] reversed minus 1.0 each:
    // 8 - 1 = 7 (0x40e00000), 4 - 1 = 3, 2 - 1 = 1, and lane 3 reads index
    // 64: 0 - 1 = -1 (0xbf800000).
    let mut index = [0u8; 64];
    for (i, x) in index.iter_mut().enumerate() {
        *x = if i < 3 { 3 - i as u8 } else { 64 };
    }
    let a = [0x3f80_0000, 0x4000_0000, 0x4080_0000, 0x4100_0000];
    let b = [0x3f80_0000; 4];
    check_io::<F32>(
        ArithOp::Sub,
        [&a, &b, &[]],
        [&[], &[], &[]],
        [0; 3],
        Some(&index),
        (&[0; 4], &[]),
        (0, 0, u64::MAX),
        (&[0x40e0_0000, 0x4040_0000, 0x3f80_0000, 0xbf80_0000], &[]),
    );
}

#[test]
fn short_slices_cut_the_lanes_instead_of_panicking() {
    // src1 has 2 lanes for 4 destination words: only 2 lanes are written
    // (1 + 1 = 2.0, 0x40000000); the rest keep their words.
    let a = [0x3f80_0000u32; 4];
    let b = [0x3f80_0000u32; 2];
    check_io::<F32>(
        ArithOp::Add,
        [&a, &b, &[]],
        [&[], &[], &[]],
        [0; 3],
        None,
        (&[9; 4], &[]),
        (0, 0, u64::MAX),
        (&[0x4000_0000, 0x4000_0000, 9, 9], &[]),
    );
}

/// The common instantiation (every policy field a constant) runs exactly
/// the policies equal to `Policy::COMMON` in every field that changes a
/// lane: each such field alone changed makes a policy uncommon, and only
/// `omod_decision` (which explains, not computes) and `clamp_nan_to_zero`
/// (which matters only with CLAMP) may differ.
#[test]
fn only_the_common_policy_runs_the_common_instantiation() {
    use amdgpu_valu::__testing::kernels::{LanePolicy, OmodDecision, Round};
    let c = Policy::COMMON;
    let uncommon = [
        (
            "round",
            Policy {
                round: Round::TowardZero,
                ..c
            },
        ),
        (
            "keep_input_denorm",
            Policy {
                keep_input_denorm: false,
                ..c
            },
        ),
        (
            "keep_output_denorm",
            Policy {
                keep_output_denorm: false,
                ..c
            },
        ),
        (
            "saturate_overflow",
            Policy {
                saturate_overflow: true,
                ..c
            },
        ),
        (
            "omod",
            Policy {
                omod: Omod::Mul2,
                ..c
            },
        ),
        ("clamp", Policy { clamp: true, ..c }),
        (
            "quiet_snan",
            Policy {
                quiet_snan: false,
                ..c
            },
        ),
        ("abs", Policy { abs: true, ..c }),
        ("neg", Policy { neg: true, ..c }),
        (
            "sub_nan",
            Policy {
                sub_nan: SubNan::NegateSubtrahend,
                ..c
            },
        ),
        (
            "tininess",
            Policy {
                tininess: Tininess::BeforeRounding,
                ..c
            },
        ),
    ];
    for (field, p) in uncommon {
        assert!(
            !LanePolicy::<F32>::is_common(&p),
            "{field} changed: still common"
        );
        assert!(
            !LanePolicy::<F64>::is_common(&p),
            "{field} changed: still common"
        );
    }
    let same_lanes = [
        Policy {
            omod_decision: OmodDecision::IgnoredIeee,
            ..c
        },
        Policy {
            clamp_nan_to_zero: true,
            ..c
        },
    ];
    for p in std::iter::once(c).chain(same_lanes) {
        assert!(LanePolicy::<F16>::is_common(&p), "{p:?} is common");
    }
}

/// A policy off the common one in `sub_nan` alone runs its own rule on the
/// vectorised path: F32 1.0 - qNaN 0x7fc00000 gives the NaN as it is under
/// IEEE subtraction, and with its sign flipped (0xffc00000) when the
/// subtrahend is negated first (docs/semantics.md §10.9).
#[test]
fn a_nan_subtrahend_follows_sub_nan_on_the_vectorised_path() {
    let one = 0x3f80_0000u32;
    let nan = 0x7fc0_0000u32;
    for (rule, want) in [(SubNan::Ieee, nan), (SubNan::NegateSubtrahend, 0xffc0_0000)] {
        let p = Policy {
            sub_nan: rule,
            ..Policy::COMMON
        };
        let (a, b) = (vec![one; 20], vec![nan; 20]);
        let mut dst = vec![0u32; 20];
        let none = SourceModifiers::default();
        arith_slices_on::<F32>(
            KernelPath::Simd,
            ArithOp::Sub,
            &p,
            none,
            [&a, &b, &[]],
            &mut dst,
        );
        assert!(dst.iter().all(|&d| d == want), "{rule:?}: {dst:08x?}");
    }
}

/// The packed byte of the sources' ABS/NEG: bit `i` ABS of source `i`,
/// bit `3 + i` NEG of source `i`. ABS of src1 and NEG of src0 and src2 is
/// 0b10_1010 = 0x2a; every byte of bits 5:0 unpacks and packs back to
/// itself.
#[test]
fn source_modifiers_pack_into_one_byte_and_back() {
    let m = SourceModifiers {
        abs: [false, true, false],
        neg: [true, false, true],
    };
    assert_eq!(m.bits(), 0x2a);
    assert_eq!(SourceModifiers::from_bits(0x2a), m);
    for b in 0..64u8 {
        assert_eq!(SourceModifiers::from_bits(b).bits(), b, "{b:#04x}");
    }
}
