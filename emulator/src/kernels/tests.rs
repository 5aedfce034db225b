//! The vectorised lane loops, on every instruction-set variant this CPU
//! has (SSE2 baseline, x86-64-v2, AVX2, AVX-512: `Isa::ALL`) and on both
//! lane containers, against the scalar path (the same kernel, one lane at a
//! time).
//!
//! The default run is short (a few seconds at the test profile's opt-level):
//! every F16 encoding under a sample of policies, and seeded random hard
//! cases for F32/F64. The `#[ignore]`d tests are the full versions, meant
//! for release builds:
//! `cargo test --release --lib kernels::tests -- --ignored`
//! (every F16 encoding under every policy; >= 1M cases per F32/F64 test).

use super::dispatch::{self, Isa, KernelPath};
use super::format::{Format, F16, F32, F64};
use super::lane_loop::{Slices, WaveIo};
use super::operation::{Fract, Ldexp, Operation};
use super::policy::{Omod, OmodDecision, Policy, Round, SubNan, Tininess};
use crate::test_rng::Rng;

/// Number of distinct kernel policies [`policy`] enumerates.
const POLICIES: u32 = 1 << 12;

/// The kernel policy with index `i` in `0..POLICIES`: every combination of
/// rounding (4), input and output denormal bits, FP16_OVFL, OMOD (4; `None`
/// also stands for a gated-off OMOD), CLAMP, clamp_nan, quiet_snan, ABS and
/// NEG.
fn policy(i: u32) -> Policy {
    let bit = |n: u32| i >> n & 1 != 0;
    let omod = Omod::from_field(i >> 5);
    Policy {
        round: Round::from_field(i),
        keep_input_denorm: bit(2),
        keep_output_denorm: bit(3),
        saturate_overflow: bit(4),
        omod,
        omod_decision: if omod == Omod::None {
            OmodDecision::Absent
        } else {
            OmodDecision::EffectiveAlways
        },
        clamp: bit(7),
        clamp_nan_to_zero: bit(8),
        quiet_snan: bit(9),
        abs: bit(10),
        neg: bit(11),
        sub_nan: SubNan::Ieee,
        tininess: Tininess::AfterRounding,
    }
}

/// A sample of policy indices: the common ones plus seeded random ones.
fn policy_sample(n: usize, seed: u64) -> Vec<u32> {
    // MODE 0xf0-like defaults: nearest, keep subnormals; then each rounding
    // mode with OMOD and CLAMP, and everything flushed.
    let mut v = vec![
        0b0010_0000_1100,
        0b0000_0000_1100,
        0b0011_1010_0001,
        0b0011_0110_0010,
        0b0010_1110_0011,
        0,
    ];
    let mut rng = Rng(seed);
    while v.len() < n {
        v.push(rng.below(u64::from(POLICIES)) as u32);
    }
    v
}

/// Run `O` on every available variant and compare with the scalar path.
fn check<O: Operation, F: Format>(src: &[F::Bits], exp: &[i32], p: &Policy) {
    let mut want = vec![F::Bits::default(); src.len()];
    let mut lanes = Slices::<F> {
        src,
        exp,
        dst: &mut want,
    };
    dispatch::run::<O, F, _>(KernelPath::Scalar, &mut lanes, p);
    assert_eq!(dispatch::last_variant(), Some(dispatch::Variant::Scalar));
    let mut got = vec![F::Bits::default(); src.len()];
    let mut ran = 0;
    for isa in Isa::ALL {
        got.fill(F::Bits::default());
        let mut lanes = Slices::<F> {
            src,
            exp,
            dst: &mut got,
        };
        if !dispatch::run_on::<O, F, _>(isa, &mut lanes, p) {
            continue;
        }
        ran += 1;
        assert_eq!(dispatch::last_variant(), Some(dispatch::Variant::Simd(isa)));
        if let Some(i) = (0..src.len()).find(|&i| got[i] != want[i]) {
            panic!(
                "{} {} on {}: src {:#x} exp {} under {p:?}: scalar {:#x}, simd {:#x}",
                O::NAME,
                F::KIND.name(),
                isa.name(),
                F::widen(src[i]),
                exp[i],
                F::widen(want[i]),
                F::widen(got[i]),
            );
        }
    }
    // Every level this CPU has ran (baseline, x86-64-v2, AVX2, AVX-512).
    assert_eq!(ran, dispatch::available().count());
    assert!(ran >= 1, "the baseline variant always runs");
    check_io::<O, F>(src, exp, p);
}

/// The register-file loop (`WaveIo`) on every variant and on the scalar
/// path, 64 lanes at a time: F16 sources and exponents in the high halves
/// over junk low halves (the result goes to the high half, the low half is
/// kept), every third lane inactive.
fn check_io<O: Operation, F: Format>(src: &[F::Bits], exp: &[i32], p: &Policy) {
    let f16 = F::WIDTH == 16;
    let shift = if f16 { 16 } else { 0 };
    let n = src.len().min(exp.len());
    for start in (0..n).step_by(64) {
        let m = (n - start).min(64);
        let junk = |i: usize| (i as u32).wrapping_mul(0x9e37_79b9);
        let words: Vec<u64> = (0..m).map(|i| F::widen(src[start + i])).collect();
        let src_lo: Vec<u32> = (0..m)
            .map(|i| (words[i] as u32) << shift | if f16 { junk(i) & 0xffff } else { 0 })
            .collect();
        let src_hi: Vec<u32> = words.iter().map(|&w| (w >> 32) as u32).collect();
        let exp_words: Vec<u32> = (0..m)
            .map(|i| (exp[start + i] as u32) << shift | if f16 { junk(i + 7) & 0xffff } else { 0 })
            .collect();
        let exec = 0xb6db_6db6_db6d_b6db_u64; // lanes 2, 5, 8, ... inactive
        let old: Vec<u32> = (0..m).map(|i| junk(i + 13)).collect();
        let want = |lane: usize| -> (u32, u32) {
            if exec >> lane & 1 == 0 {
                return (old[lane], old[lane]);
            }
            let e = if f16 {
                i32::from(exp[start + lane] as i16)
            } else {
                exp[start + lane]
            };
            let r = one_lane::<O, F>(words[lane], e, p);
            if f16 {
                ((old[lane] & 0xffff) | (r as u32) << 16, 0)
            } else {
                (r as u32, (r >> 32) as u32)
            }
        };
        for isa in Isa::ALL.into_iter().map(Some).chain([None]) {
            let mut dst_lo = old.clone();
            let mut dst_hi = old.clone();
            let mut io = WaveIo {
                src_lo: &src_lo,
                src_hi: &src_hi,
                src_shift: shift,
                exp: &exp_words,
                exp_shift: shift,
                dst_lo: &mut dst_lo,
                dst_hi: &mut dst_hi,
                dst_keep: if f16 { 0xffff } else { 0 },
                dst_shift: shift,
                exec,
            };
            match isa {
                Some(isa) => {
                    if !dispatch::run_on::<O, F, _>(isa, &mut io, p) {
                        continue;
                    }
                }
                None => dispatch::run::<O, F, _>(KernelPath::Scalar, &mut io, p),
            }
            for lane in 0..m {
                let (lo, hi) = want(lane);
                let got = (dst_lo[lane], if F::WIDTH == 64 { dst_hi[lane] } else { hi });
                assert!(
                    got == (lo, hi),
                    "{} {} io on {isa:?}: src {:#x} exp {} under {p:?}: want {lo:#x}:{hi:#x}, got {:#x}:{:#x}",
                    O::NAME,
                    F::KIND.name(),
                    words[lane],
                    exp[start + lane],
                    got.0,
                    got.1,
                );
            }
        }
    }
}

/// One lane on the scalar path, on widened encodings.
fn one_lane<O: Operation, F: Format>(src: u64, exp: i32, p: &Policy) -> u64 {
    let mut dst = [F::Bits::default()];
    let mut lanes = Slices::<F> {
        src: &[F::narrow(src)],
        exp: &[exp],
        dst: &mut dst,
    };
    dispatch::run::<O, F, _>(KernelPath::Scalar, &mut lanes, p);
    F::widen(dst[0])
}

fn all_f16() -> Vec<u16> {
    (0..=u16::MAX).collect()
}

/// Exponents that reach every F16 LDEXP case: all of [-45, 45] (beyond,
/// every source saturates) and the extremes of the i16 operand.
fn f16_exponents() -> Vec<i32> {
    let mut v: Vec<i32> = (-45..=45).collect();
    v.extend([
        -32768, -32767, -113, -112, -111, 111, 112, 113, 32766, 32767,
    ]);
    v
}

#[test]
fn fract_f16_every_input_sampled_policies() {
    let src = all_f16();
    let exp = vec![0; src.len()];
    for i in policy_sample(24, 1) {
        check::<Fract, F16>(&src, &exp, &policy(i));
    }
}

#[test]
#[ignore = "exhaustive: every F16 input x every policy (release: a minute)"]
fn fract_f16_every_input_every_policy() {
    let src = all_f16();
    let exp = vec![0; src.len()];
    for i in 0..POLICIES {
        check::<Fract, F16>(&src, &exp, &policy(i));
    }
}

#[test]
fn ldexp_f16_every_input_sampled_exponents_and_policies() {
    // Every source with a few exponents each, all from the reaching set.
    let exps = f16_exponents();
    let mut rng = Rng(2);
    let src: Vec<u16> = (0..4).flat_map(|_| all_f16()).collect();
    let exp: Vec<i32> = src
        .iter()
        .map(|_| exps[rng.below(exps.len() as u64) as usize])
        .collect();
    for i in policy_sample(12, 3) {
        check::<Ldexp, F16>(&src, &exp, &policy(i));
    }
}

#[test]
#[ignore = "exhaustive: every F16 input x every reaching exponent x 256 policies (release: minutes)"]
fn ldexp_f16_every_input_every_exponent() {
    let exps = f16_exponents();
    let src: Vec<u16> = exps.iter().flat_map(|_| all_f16()).collect();
    let exp: Vec<i32> = exps
        .iter()
        .flat_map(|&e| std::iter::repeat_n(e, 1 << 16))
        .collect();
    // Every rounding, denormal, FP16_OVFL and OMOD combination (the fields
    // LDEXP's rounding reads), the rest drawn at random per policy.
    let mut rng = Rng(4);
    for low in 0..1u32 << 7 {
        for high in [0, 1] {
            let rest = rng.below(1 << 5) as u32;
            let i = low | high << 7 | rest << 8;
            check::<Ldexp, F16>(&src, &exp, &policy(i));
        }
    }
}

/// An encoding of format `F` from the hard places: random bits, values near
/// 0.5 and 1.0 and their negatives, subnormals, exponents around the
/// fraction boundary and the range ends, signed zeros, infinities and NaNs
/// with random payloads.
fn hard_bits<F: Format>(rng: &mut Rng) -> u64 {
    let sign = if rng.next() & 1 != 0 { F::SIGN } else { 0 };
    let man = rng.next() & F::MAN_MASK;
    let with_exp = |e: i32| ((e + F::BIAS) as u64) << F::MAN;
    let near = |rng: &mut Rng, x: u64| x.wrapping_add(rng.range(-8, 8) as u64) & F::ABS_MASK;
    let mag = match rng.below(12) {
        0 | 1 => rng.next() & F::ABS_MASK,
        2 => near(rng, with_exp(-1)),
        3 => near(rng, F::ONE),
        4 => man >> rng.below(u64::from(F::MAN)),
        5 => near(rng, F::MIN_NORMAL).min(F::MIN_NORMAL + 8),
        6 => with_exp(rng.range(-2, i64::from(F::MAN) + 1) as i32) | man,
        7 => with_exp(rng.range(i64::from(F::EMIN), -2) as i32) | man,
        8 => near(rng, F::MAX).min(F::MAX),
        9 => [0, 1, F::INF, F::MAX, F::MIN_NORMAL, F::ONE_MINUS_ULP][rng.below(6) as usize],
        10 => F::INF | (man | 1) & !F::QUIET_BIT,
        _ => F::INF | F::QUIET_BIT | man,
    };
    sign | mag
}

/// An LDEXP exponent from the hard places: small, near the ranges where a
/// source of any exponent lands at the subnormal or overflow boundary, at
/// the internal clamp, and at the operand's extremes.
fn hard_exponent<F: Format>(rng: &mut Rng) -> i32 {
    let limit = F::EMAX + F::MAN as i32 + 3;
    let span = i64::from(2 * limit);
    match rng.below(6) {
        0 | 1 => rng.range(-40, 40) as i32,
        2 => rng.range(-span, span) as i32,
        3 => (4 * limit + rng.range(-2, 2) as i32) * if rng.next() & 1 != 0 { -1 } else { 1 },
        4 => [
            i32::MIN,
            i32::MIN + 1,
            i32::MAX,
            i32::MAX - 1,
            -1 << 16,
            1 << 16,
        ][rng.below(6) as usize],
        _ => rng.next() as i32,
    }
}

fn random_cases<F: Format>(n: usize, seed: u64) -> (Vec<F::Bits>, Vec<i32>) {
    let mut rng = Rng(seed);
    let src = (0..n)
        .map(|_| F::narrow(hard_bits::<F>(&mut rng)))
        .collect();
    let exp = (0..n).map(|_| hard_exponent::<F>(&mut rng)).collect();
    (src, exp)
}

/// `lanes` random cases for each of `policies` sampled policies.
fn random_check<O: Operation, F: Format>(lanes: usize, policies: usize, seed: u64) {
    for (k, i) in policy_sample(policies, seed).into_iter().enumerate() {
        let (src, exp) = random_cases::<F>(lanes, seed ^ (k as u64) << 32);
        check::<O, F>(&src, &exp, &policy(i));
    }
}

#[test]
fn f32_f64_random_hard_cases() {
    random_check::<Fract, F32>(20_000, 8, 10);
    random_check::<Fract, F64>(20_000, 8, 11);
    random_check::<Ldexp, F32>(20_000, 8, 12);
    random_check::<Ldexp, F64>(20_000, 8, 13);
}

#[test]
#[ignore = "1M+ random cases per format and operation (release)"]
fn f32_f64_random_hard_cases_full() {
    // 64 policies x 32768 lanes = 2M cases each.
    random_check::<Fract, F32>(1 << 15, 64, 20);
    random_check::<Fract, F64>(1 << 15, 64, 21);
    random_check::<Ldexp, F32>(1 << 15, 64, 22);
    random_check::<Ldexp, F64>(1 << 15, 64, 23);
}

#[test]
fn odd_lengths_and_short_slices() {
    // Lane counts that are not a multiple of any vector width; the shortest
    // slice bounds the lanes, the rest of `dst` is untouched.
    let mut rng = Rng(30);
    for n in [0usize, 1, 3, 7, 15, 17, 31, 32, 33, 63, 64, 65] {
        let src: Vec<u32> = (0..n).map(|_| hard_bits::<F32>(&mut rng) as u32).collect();
        let exp: Vec<i32> = (0..n).map(|_| hard_exponent::<F32>(&mut rng)).collect();
        check::<Fract, F32>(&src, &exp, &policy(0b1100));
        check::<Ldexp, F32>(&src, &exp, &policy(0b1100));
        let mut dst = vec![0xdead_beef_u32; n + 2];
        let short = n.saturating_sub(1);
        let mut lanes = Slices::<F32> {
            src: &src,
            exp: &exp[..short],
            dst: &mut dst,
        };
        dispatch::run_on::<Ldexp, F32, _>(dispatch::selected(), &mut lanes, &policy(0));
        assert!(dst[short..].iter().all(|&d| d == 0xdead_beef));
    }
}

#[test]
fn captured_examples() {
    // docs/semantics.md §4/§5 examples, on the SIMD path.
    let nearest_keep = policy(0b1100);
    let run_f16 = |o: &str, x: u16, e: i32, p: &Policy| -> u16 {
        let mut d = [0u16];
        let mut lanes = Slices::<F16> {
            src: &[x],
            exp: &[e],
            dst: &mut d,
        };
        match o {
            "fract" => dispatch::run_on::<Fract, F16, _>(dispatch::selected(), &mut lanes, p),
            _ => dispatch::run_on::<Ldexp, F16, _>(dispatch::selected(), &mut lanes, p),
        };
        d[0]
    };
    assert_eq!(run_f16("fract", 0xb58d, 0, &nearest_keep), 0x393a);
    assert_eq!(run_f16("fract", 0xb58d, 0, &policy(0b1111)), 0x3939);
    assert_eq!(run_f16("fract", 0x8001, 0, &nearest_keep), 0x3bff);
    assert_eq!(run_f16("fract", 0x7c00, 0, &nearest_keep), 0xfe00);
    assert_eq!(run_f16("ldexp", 0x0401, -1, &nearest_keep), 0x0200);
    assert_eq!(run_f16("ldexp", 0x0401, -1, &policy(0b1101)), 0x0201);
    assert_eq!(run_f16("ldexp", 0x3c00, 32767, &nearest_keep), 0x7c00);
    assert_eq!(run_f16("ldexp", 0x3c00, 32767, &policy(0b1110)), 0x7bff);
    assert_eq!(run_f16("ldexp", 0x3c00, -32768, &policy(0b1101)), 0x0001);
}

#[test]
fn classify_describes_what_the_kernel_did() {
    // `explain`'s words come from `classify`, its bits from the kernel: on
    // every F16 input (and exponents reaching every LDEXP case) under a
    // sample of policies, each case and rounding flag agrees with the
    // kernel's own result.
    use super::classify::{classify_fract, classify_ldexp, FractCase, LdexpCase};
    use super::fract::fract_rounded;
    use super::ldexp::ldexp_rounded;
    use super::modifiers::{prepare_source, LanePolicy};
    type F = F16;
    for i in policy_sample(24, 40) {
        let p = policy(i);
        let lp = LanePolicy::<F>::new(&p);
        for x in all_f16() {
            let s = prepare_source::<F>(u32::from(x), &lp);
            let r = u64::from(fract_rounded::<F>(s, &lp));
            let s = u64::from(s);
            let (case, rd) = classify_fract::<F>(s, &p);
            let ok = match case {
                FractCase::Nan => r & F::ABS_MASK > F::INF,
                FractCase::Infinity => r == F::NEG_QUIET_NAN,
                FractCase::ZeroOrInteger => r == 0,
                FractCase::BelowOne => r == if rd.flushed { 0 } else { s },
                FractCase::ExactFraction => r != 0 && r < F::ONE,
                FractCase::OneMinusSmall => {
                    (!rd.capped || r == F::ONE_MINUS_ULP)
                        && (rd.inexact || !rd.rounded_up)
                        && r > F::ONE >> 1
                        && r < F::ONE
                }
            };
            assert!(ok, "fract {s:#x} under {p:?}: {case:?} {rd:?} but {r:#x}");
            for e in f16_exponents() {
                let r = u64::from(ldexp_rounded::<F>(s as u32, e, &lp));
                let (case, rd) = classify_ldexp::<F>(s, e, &p);
                let mag = r & F::ABS_MASK;
                let ok = match case {
                    LdexpCase::Nan => mag > F::INF,
                    LdexpCase::PassThrough => r == s,
                    LdexpCase::Normal => (F::MIN_NORMAL..F::INF).contains(&mag),
                    LdexpCase::Overflow => mag == F::INF || mag == F::MAX,
                    LdexpCase::Tiny if rd.flushed => mag == 0,
                    LdexpCase::Tiny => mag <= F::MIN_NORMAL && (rd.inexact || !rd.rounded_up),
                };
                assert!(
                    ok,
                    "ldexp {s:#x} {e} under {p:?}: {case:?} {rd:?} but {r:#x}"
                );
            }
        }
    }
}
