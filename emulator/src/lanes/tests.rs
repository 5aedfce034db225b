//! The lane API's paths against the previous one: [`Prepared`] and the
//! one-shot functions, which run the kernels on the caller's arrays in one
//! dispatched call, give the bits of the executor's container (`WaveIo`,
//! register words, 64 lanes per call, the path the lane API took before)
//! on the scalar path, for every format, operation and modifier, with and
//! without EXEC, at lengths around the 64-lane word.

use super::*;
use crate::kernels::arith::arith_slices_on;
use crate::kernels::dispatch::run;
use crate::kernels::{Format, KernelPath, Modifiers, Operation, WaveIo};
use crate::test_rng::Rng;

/// The format of an element type, for the references.
trait Fmt: LaneBits + PartialEq + core::fmt::Debug {
    type F: Format<Bits = Self>;
    fn from_u64(v: u64) -> Self;
}
impl Fmt for u16 {
    type F = F16;
    fn from_u64(v: u64) -> u16 {
        v as u16
    }
}
impl Fmt for u32 {
    type F = F32;
    fn from_u64(v: u64) -> u32 {
        v as u32
    }
}
impl Fmt for u64 {
    type F = F64;
    fn from_u64(v: u64) -> u64 {
        v
    }
}

const LENGTHS: [usize; 7] = [0, 1, 63, 64, 65, 130, 1000];

/// An encoding from the interesting exponents (zero and subnormal, around
/// 1, the integers, the top binade, infinity and NaN) or any bits.
fn source<T: Fmt>(rng: &mut Rng) -> T {
    let (w, man) = (T::F::WIDTH, T::F::MAN);
    let bias = T::F::BIAS as u64;
    let top = (1u64 << T::F::EXP) - 1;
    let field = rng.pick(&[
        0,
        1,
        bias - 2,
        bias - 1,
        bias,
        bias + 3,
        bias + u64::from(man),
        top - 1,
        top,
    ]);
    let bits = if rng.one_in(5) {
        rng.next()
    } else {
        (rng.next() & ((1 << (w - 1)) | ((1 << man) - 1))) | field << man
    };
    T::from_u64(bits)
}

/// An exponent word: small, near the format's range, or any 32 bits
/// (F16 reads bits 15:0 of it).
fn exponent(rng: &mut Rng) -> i32 {
    match rng.below(3) {
        0 => rng.range(-40, 40) as i32,
        1 => rng.range(-1100, 1100) as i32,
        _ => rng.next() as i32,
    }
}

fn mode(rng: &mut Rng) -> u32 {
    rng.next() as u32 & (0xff | Mode::DX10_CLAMP | Mode::IEEE | Mode::FP16_OVFL)
}

fn exec_words(rng: &mut Rng, n: usize) -> Vec<u64> {
    (0..n.div_ceil(64))
        .map(|_| match rng.below(4) {
            0 => u64::MAX,
            1 => 0,
            _ => rng.next(),
        })
        .collect()
}

fn active(exec: Option<&[u64]>, i: usize) -> bool {
    exec.is_none_or(|e| e[i / 64] >> (i % 64) & 1 != 0)
}

/// FRACT/LDEXP the previous way: 64 lanes at a time through register-word
/// buffers and `WaveIo`, on the scalar path.
fn reference<O: Operation, T: Fmt>(
    target: Target,
    mode: u32,
    m: ArithMods,
    src: &[T],
    exp: &[i32],
    exec: Option<&[u64]>,
    dst: &mut [T],
) {
    let rules = target.spec().float_rules();
    let mods = Modifiers {
        abs: m.abs[0],
        neg: m.neg[0],
        omod: m.omod,
        clamp: m.clamp,
    };
    let p = Policy::new::<T::F>(&rules, Mode(mode), mods);
    for (c, (s, d)) in src.chunks(64).zip(dst.chunks_mut(64)).enumerate() {
        let n = s.len();
        let wide = |x: T| T::F::widen(x);
        let src_lo: Vec<u32> = s.iter().map(|&x| wide(x) as u32).collect();
        let src_hi: Vec<u32> = s.iter().map(|&x| (wide(x) >> 32) as u32).collect();
        let mut dst_lo: Vec<u32> = d.iter().map(|&x| wide(x) as u32).collect();
        let mut dst_hi: Vec<u32> = d.iter().map(|&x| (wide(x) >> 32) as u32).collect();
        let e: Vec<u32> = if O::HAS_EXPONENT {
            exp[c * 64..c * 64 + n].iter().map(|&e| e as u32).collect()
        } else {
            Vec::new()
        };
        let is64 = T::F::WIDTH == 64;
        let mut io = WaveIo {
            src_lo: &src_lo,
            src_hi: if is64 { &src_hi } else { &[] },
            src_shift: 0,
            exp: &e,
            exp_shift: 0,
            dst_lo: &mut dst_lo,
            dst_hi: if is64 { &mut dst_hi } else { &mut [] },
            dst_keep: 0,
            dst_shift: 0,
            exec: exec.map_or(u64::MAX, |w| w[c]),
        };
        run::<O, T::F, _>(KernelPath::Scalar, &mut io, &p);
        for ((x, &lo), &hi) in d.iter_mut().zip(&dst_lo).zip(&dst_hi) {
            let v = if is64 {
                u64::from(hi) << 32 | u64::from(lo)
            } else {
                u64::from(lo)
            };
            *x = T::from_u64(v);
        }
    }
}

/// Random FRACT/LDEXP calls of every length through `Prepared`, the
/// one-shot functions and the reference.
fn fract_ldexp_match<T: Fmt>(seed: u64) {
    let mut rng = Rng(seed);
    for round in 0..24 {
        for n in LENGTHS {
            let target = rng.pick(&Target::ALL);
            let mode = mode(&mut rng);
            let lm = LaneMods {
                abs: rng.one_in(2),
                neg: rng.one_in(2),
                omod: Omod::from_field(rng.below(4) as u32),
                clamp: rng.one_in(2),
            };
            let m = ArithMods::from(lm);
            let src: Vec<T> = (0..n).map(|_| source::<T>(&mut rng)).collect();
            let exp: Vec<i32> = (0..n).map(|_| exponent(&mut rng)).collect();
            let old: Vec<T> = (0..n).map(|_| source::<T>(&mut rng)).collect();
            let words = exec_words(&mut rng, n);
            let exec = (round % 2 == 1).then_some(&words[..]);
            for op in [LaneOp::Fract, LaneOp::Ldexp] {
                let e: &[i32] = if op == LaneOp::Ldexp { &exp } else { &[] };
                let mut want = old.clone();
                if op == LaneOp::Ldexp {
                    reference::<Ldexp, T>(target, mode, m, &src, e, exec, &mut want);
                } else {
                    reference::<Fract, T>(target, mode, m, &src, e, exec, &mut want);
                }
                let p = Prepared::<T>::new(target, op, mode, m).expect("valid instruction");
                let mut got = old.clone();
                match exec {
                    None => p.run(&[&src], e, &mut got),
                    Some(x) => p.run_exec(x, &[&src], e, &mut got),
                }
                .expect("valid lanes");
                let what = format!(
                    "{op:?} {:?} {target} mode {mode:#x} {lm:?} n {n} exec {exec:?}",
                    T::FORMAT
                );
                assert_eq!(got, want, "prepared: {what}");
                let mut got = old.clone();
                match (op, exec) {
                    (LaneOp::Fract, None) => fract(target, mode, lm, &src, &mut got),
                    (LaneOp::Fract, Some(x)) => fract_exec(target, mode, lm, x, &src, &mut got),
                    (_, None) => ldexp(target, mode, lm, &src, e, &mut got),
                    (_, Some(x)) => ldexp_exec(target, mode, lm, x, &src, e, &mut got),
                }
                .expect("valid lanes");
                assert_eq!(got, want, "one-shot: {what}");
            }
        }
    }
}

#[test]
fn f16_fract_ldexp_give_the_previous_paths_bits() {
    fract_ldexp_match::<u16>(0x16);
}

#[test]
fn f32_fract_ldexp_give_the_previous_paths_bits() {
    fract_ldexp_match::<u32>(0x32);
}

#[test]
fn f64_fract_ldexp_give_the_previous_paths_bits() {
    fract_ldexp_match::<u64>(0x64);
}

/// Random arithmetic calls through `Prepared`, `arith`/`arith_exec` and
/// the slice kernel on the scalar path merged under EXEC by hand.
fn arith_match<T: Fmt>(seed: u64) {
    let mut rng = Rng(seed);
    for round in 0..12 {
        for n in LENGTHS {
            for op in ArithOp::ALL {
                if !has_format(op, T::FORMAT) {
                    continue;
                }
                let k = op.sources();
                let target = rng.pick(&Target::ALL);
                let mode = mode(&mut rng);
                let bits = |rng: &mut Rng| [0, 1, 2].map(|i| i < k && rng.one_in(2));
                let m = ArithMods {
                    abs: bits(&mut rng),
                    neg: bits(&mut rng),
                    omod: Omod::from_field(rng.below(4) as u32),
                    clamp: rng.one_in(2),
                };
                let srcs: Vec<Vec<T>> = (0..k)
                    .map(|_| (0..n).map(|_| source::<T>(&mut rng)).collect())
                    .collect();
                let srcs: Vec<&[T]> = srcs.iter().map(Vec::as_slice).collect();
                let old: Vec<T> = (0..n).map(|_| source::<T>(&mut rng)).collect();
                let words = exec_words(&mut rng, n);
                let exec = (round % 2 == 1).then_some(&words[..]);

                let rules = target.spec().float_rules();
                let none = Modifiers {
                    omod: m.omod,
                    clamp: m.clamp,
                    ..Modifiers::default()
                };
                let p = Policy::new::<T::F>(&rules, Mode(mode), none);
                let sources = SourceModifiers {
                    abs: m.abs,
                    neg: m.neg,
                };
                let c = srcs.get(2).copied().unwrap_or(&[]);
                let mut all = vec![T::default(); n];
                arith_slices_on::<T::F>(
                    KernelPath::Scalar,
                    op,
                    &p,
                    sources,
                    [srcs[0], srcs[1], c],
                    &mut all,
                );
                let want: Vec<T> = (0..n)
                    .map(|i| if active(exec, i) { all[i] } else { old[i] })
                    .collect();

                let what = format!(
                    "{op:?} {:?} {target} mode {mode:#x} {m:?} n {n} exec {exec:?}",
                    T::FORMAT
                );
                let prepared =
                    Prepared::<T>::new(target, op.into(), mode, m).expect("valid instruction");
                let mut got = old.clone();
                match exec {
                    None => prepared.run(&srcs, &[], &mut got),
                    Some(x) => prepared.run_exec(x, &srcs, &[], &mut got),
                }
                .expect("valid lanes");
                assert_eq!(got, want, "prepared: {what}");
                let mut got = old.clone();
                match exec {
                    None => arith(op, target, mode, m, &srcs, &mut got),
                    Some(x) => arith_exec(op, target, mode, m, x, &srcs, &mut got),
                }
                .expect("valid lanes");
                assert_eq!(got, want, "one-shot: {what}");
            }
        }
    }
}

#[test]
fn f16_arith_gives_the_slice_kernels_bits() {
    arith_match::<u16>(0x160);
}

#[test]
fn f32_arith_gives_the_slice_kernels_bits() {
    arith_match::<u32>(0x320);
}

#[test]
fn f64_arith_gives_the_slice_kernels_bits() {
    arith_match::<u64>(0x640);
}

/// A few lanes worked by hand.
#[test]
fn hand_worked_lanes() {
    let none = ArithMods::default();
    // F64 FRACT on gfx942, MODE 0xf0: 2.75 (0x4006_0000_0000_0000, 1.011b
    // x 2^1) - 2 = 0.75 (0x3fe8_0000_0000_0000, 1.1b x 2^-1); -0.25 - floor
    // = 0.75 too. EXEC 0b101: lane 1 keeps its old value.
    let p = Prepared::<u64>::new(Target::Gfx942, LaneOp::Fract, 0xf0, none).unwrap();
    let src = [
        0x4006_0000_0000_0000,
        0x4006_0000_0000_0000,
        0xbfd0_0000_0000_0000,
    ];
    let mut dst = [7u64; 3];
    p.run_exec(&[0b101], &[&src], &[], &mut dst).unwrap();
    assert_eq!(dst, [0x3fe8_0000_0000_0000, 7, 0x3fe8_0000_0000_0000]);

    // F16 LDEXP on gfx1100: 1.0 (0x3c00) x 2^3 = 8.0 (exponent 15 + 3 = 18:
    // 0x4800), the word 0x0001_0003 read as its low 16 bits, 3; x 2^-1 =
    // 0.5 (0x3800); 0xffff is -1 as well.
    let p = Prepared::<u16>::new(Target::Gfx1100, LaneOp::Ldexp, 0xf0, none).unwrap();
    let mut h = [0u16; 3];
    p.run(&[&[0x3c00; 3]], &[0x0001_0003, -1, 0xffff], &mut h)
        .unwrap();
    assert_eq!(h, [0x4800, 0x3800, 0x3800]);

    // F32 FMA on gfx1201 with NEG on src2: 2 x 3 - 1 = 5 (0x40a0_0000).
    let neg2 = ArithMods {
        neg: [false, false, true],
        ..none
    };
    let p = Prepared::<u32>::new(Target::Gfx1201, LaneOp::Fma, 0xf0, neg2).unwrap();
    let mut d = [0u32; 1];
    p.run(
        &[&[0x4000_0000], &[0x4040_0000], &[0x3f80_0000]],
        &[],
        &mut d,
    )
    .unwrap();
    assert_eq!(d, [0x40a0_0000]);
}

/// Every refused call names what is wrong and leaves `dst` alone.
#[test]
fn prepared_checks_counts_lengths_and_modifiers() {
    let t = Target::Gfx1201;
    let none = ArithMods::default();
    let msg = |r: Result<(), ExecError>| r.expect_err("refused").to_string();
    let fract = Prepared::<u32>::new(t, LaneOp::Fract, 0, none).unwrap();
    let mut d = [9u32; 4];
    let x = [0x3fc0_0000u32; 4];
    assert_eq!(
        msg(fract.run(&[&x[..3]], &[], &mut d)),
        "dst: 4 destination lanes for 3 source lanes"
    );
    assert_eq!(
        msg(fract.run(&[&x, &x], &[], &mut d)),
        "src1: v_fract takes 1 sources, 2 given"
    );
    assert_eq!(
        msg(fract.run(&[&x], &[1; 4], &mut d)),
        "src1: v_fract takes no exponent operand"
    );
    assert_eq!(
        msg(fract.run_exec(&[], &[&x], &[], &mut d)),
        "exec: 0 EXEC words for 4 source lanes"
    );
    let ldexp = Prepared::<u32>::new(t, LaneOp::Ldexp, 0, none).unwrap();
    assert_eq!(
        msg(ldexp.run(&[&x], &[1; 3], &mut d)),
        "src1: 3 exponents for 4 source lanes"
    );
    let add = Prepared::<u32>::new(t, LaneOp::Add, 0, none).unwrap();
    assert_eq!(
        msg(add.run(&[&x, &x], &[1; 4], &mut d)),
        "src1: v_add takes no exponent operand"
    );
    assert_eq!(
        msg(add.run(&[&x], &[], &mut d)),
        "src1: v_add takes 2 sources, 1 given"
    );
    assert_eq!(d, [9; 4]);
    let abs1 = ArithMods {
        abs: [false, true, false],
        ..none
    };
    let e = Prepared::<u32>::new(t, LaneOp::Ldexp, 0, abs1).expect_err("refused");
    assert_eq!(
        e.to_string(),
        "ABS or NEG on src1: v_ldexp has 1 float source"
    );
    assert!(Prepared::<u64>::new(t, LaneOp::Subrev, 0, none).is_err());
    // Zero lanes are fine.
    fract.run(&[&[]], &[], &mut []).unwrap();
}

#[test]
fn lane_ops_round_trip_their_names_and_opcodes() {
    for op in LaneOp::ALL {
        assert_eq!(op.name().parse::<LaneOp>().ok(), Some(op));
        for f in [FormatKind::F16, FormatKind::F32, FormatKind::F64] {
            let opcode = op.opcode(f);
            let absent = matches!(op, LaneOp::Sub | LaneOp::Subrev) && f == FormatKind::F64;
            assert_eq!(opcode.is_none(), absent, "{op:?} {f:?}");
            if let Some(o) = opcode {
                assert_eq!(o.format(), f);
                assert_eq!(o.info().operation.name(), op.name());
            }
        }
    }
}

/// The one-shot functions keep the last instruction's policy per thread:
/// calls that alternate MODE, target, format and modifiers on one thread
/// each get their own instruction's bits, and a refused instruction stays
/// refused after an accepted one of the same operation.
#[test]
fn one_shot_calls_alternating_instructions_keep_their_own_policy() {
    let m = ArithMods::default();
    let (a, b) = ([0x3f80_0000u32], [0x3380_0000u32]);
    let mut d = [0u32];
    for _ in 0..3 {
        // 1.0 + 2^-24 lies half way between 1.0 and 1.0 + 2^-23: to
        // nearest even (MODE 0xf0) it is 1.0, toward +inf (0xf1) 1.0 +
        // 2^-23 (the doc example of `add`).
        add(Target::Gfx1100, 0xf0, m, &a, &b, &mut d).unwrap();
        assert_eq!(d, [0x3f80_0000]);
        add(Target::Gfx1100, 0xf1, m, &a, &b, &mut d).unwrap();
        assert_eq!(d, [0x3f80_0001]);
        // FRACT(1.75) = 0.75 (0x3f40_0000) with mul:2: gfx1100 gates OMOD
        // off while F32 subnormal outputs are kept (MODE 0xf0); gfx1201
        // always applies it: 1.5 (0x3fc0_0000).
        let x2 = LaneMods {
            omod: Omod::Mul2,
            ..LaneMods::default()
        };
        fract(Target::Gfx1100, 0xf0, x2, &[0x3fe0_0000u32], &mut d).unwrap();
        assert_eq!(d, [0x3f40_0000]);
        fract(Target::Gfx1201, 0xf0, x2, &[0x3fe0_0000u32], &mut d).unwrap();
        assert_eq!(d, [0x3fc0_0000]);
        // Without the modifier: 0.75 on gfx1201 too.
        fract(
            Target::Gfx1201,
            0xf0,
            LaneMods::default(),
            &[0x3fe0_0000u32],
            &mut d,
        )
        .unwrap();
        assert_eq!(d, [0x3f40_0000]);
        // F16 FRACT(1.75 = 0x3f00) = 0.75 = 0x3a00 under the same MODE.
        let mut h = [0u16];
        fract(
            Target::Gfx1201,
            0xf0,
            LaneMods::default(),
            &[0x3f00u16],
            &mut h,
        )
        .unwrap();
        assert_eq!(h, [0x3a00]);
        // SUB exists in F32, not in F64, whatever ran before.
        sub(Target::Gfx1201, 0xf0, m, &a, &b, &mut d).unwrap();
        assert!(sub(Target::Gfx1201, 0xf0, m, &[0u64], &[0], &mut [0]).is_err());
        // ABS on src1 of FRACT is refused after an accepted FRACT.
        let bad = ArithMods {
            abs: [false, true, false],
            ..ArithMods::default()
        };
        let p = Prepared::<u32>::new(Target::Gfx1201, LaneOp::Fract, 0xf0, bad);
        assert!(p.is_err());
        assert!(arith(
            ArithOp::Add,
            Target::Gfx1201,
            0xf0,
            bad,
            &[&a[..], &b[..]],
            &mut d
        )
        .is_ok());
    }
}
