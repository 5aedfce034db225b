//! The prepared instructions of the C API against the library's one-shot
//! lane functions (themselves checked against `execute` in the root
//! crate's tests/lanes.rs): random lanes, every operation and format,
//! every modifier, with and without EXEC, odd lengths, in place; and
//! hostile handles.

use std::ptr::{null, null_mut};

use amdgpu_valu::lanes::{self, ArithMods, ArithOp, LaneBits, LaneMods};
use amdgpu_valu::{Omod, Target};
use amdgpu_valu_capi::arith::AvaluArithMods;
use amdgpu_valu_capi::prepared::*;
use amdgpu_valu_capi::AvaluStatus;

use amdgpu_valu::__testing::Rng;

type RunFn<T> = unsafe extern "C" fn(
    *const AvaluPrepared,
    *const u64,
    *const T,
    *const T,
    *const T,
    *const i32,
    *mut T,
    usize,
) -> AvaluStatus;

trait Lane: LaneBits + PartialEq + core::fmt::Debug {
    const FMT: u32;
    const RUN: RunFn<Self>;
    fn from_u64(v: u64) -> Self;
}
impl Lane for u16 {
    const FMT: u32 = AvaluFormat::F16 as u32;
    const RUN: RunFn<u16> = avalu_prepared_run_f16;
    fn from_u64(v: u64) -> u16 {
        v as u16
    }
}
impl Lane for u32 {
    const FMT: u32 = AvaluFormat::F32 as u32;
    const RUN: RunFn<u32> = avalu_prepared_run_f32;
    fn from_u64(v: u64) -> u32 {
        v as u32
    }
}
impl Lane for u64 {
    const FMT: u32 = AvaluFormat::F64 as u32;
    const RUN: RunFn<u64> = avalu_prepared_run_f64;
    fn from_u64(v: u64) -> u64 {
        v
    }
}

const OPS: [AvaluOp; 7] = [
    AvaluOp::Fract,
    AvaluOp::Ldexp,
    AvaluOp::Add,
    AvaluOp::Sub,
    AvaluOp::Subrev,
    AvaluOp::Mul,
    AvaluOp::Fma,
];

fn arith_op(op: AvaluOp) -> Option<ArithOp> {
    match op {
        AvaluOp::Add => Some(ArithOp::Add),
        AvaluOp::Sub => Some(ArithOp::Sub),
        AvaluOp::Subrev => Some(ArithOp::Subrev),
        AvaluOp::Mul => Some(ArithOp::Mul),
        AvaluOp::Fma => Some(ArithOp::Fma),
        AvaluOp::Fract | AvaluOp::Ldexp => None,
    }
}

/// A source encoding: sign and fraction random, exponent field from the
/// bottom, around the bias or the top (any bits one time in four).
fn source<T: Lane>(rng: &mut Rng) -> T {
    let r = rng.next();
    T::from_u64(match (rng.below(4), T::FMT) {
        (0, _) => r,
        (_, 0) => (r & 0x83ff) | [0, 1, 14, 15, 16, 25, 30, 31][rng.below(8) as usize] << 10,
        (_, 1) => {
            (r & 0x807f_ffff) | [0, 1, 126, 127, 128, 150, 254, 255][rng.below(8) as usize] << 23
        }
        _ => {
            (r & 0x800f_ffff_ffff_ffff)
                | [0, 1, 1022, 1023, 1024, 1075, 2046, 2047][rng.below(8) as usize] << 52
        }
    })
}

/// The library's one-shot function for the same instruction.
#[allow(clippy::too_many_arguments)]
fn one_shot<T: Lane>(
    op: AvaluOp,
    target: Target,
    mode: u32,
    m: ArithMods,
    exec: Option<&[u64]>,
    srcs: &[&[T]],
    exp: &[i32],
    dst: &mut [T],
) {
    let lm = LaneMods {
        abs: m.abs[0],
        neg: m.neg[0],
        omod: m.omod,
        clamp: m.clamp,
    };
    let r = match (arith_op(op), exec) {
        (Some(a), None) => lanes::arith(a, target, mode, m, srcs, dst),
        (Some(a), Some(x)) => lanes::arith_exec(a, target, mode, m, x, srcs, dst),
        (None, None) if op == AvaluOp::Fract => lanes::fract(target, mode, lm, srcs[0], dst),
        (None, Some(x)) if op == AvaluOp::Fract => {
            lanes::fract_exec(target, mode, lm, x, srcs[0], dst)
        }
        (None, None) => lanes::ldexp(target, mode, lm, srcs[0], exp, dst),
        (None, Some(x)) => lanes::ldexp_exec(target, mode, lm, x, srcs[0], exp, dst),
    };
    r.expect("valid one-shot call");
}

fn compare<T: Lane>(seed: u64) {
    let mut rng = Rng(seed);
    for round in 0..8 {
        for n in [0usize, 1, 63, 64, 65, 1000] {
            for op in OPS {
                let k = match op {
                    AvaluOp::Fract | AvaluOp::Ldexp => 1,
                    AvaluOp::Fma => 3,
                    _ => 2,
                };
                let target_id = rng.below(10) as u32;
                let target = Target::ALL[target_id as usize];
                let mode = rng.next() as u32 & 0x80_03ff;
                let mask = (1u8 << k) - 1;
                let cm = AvaluArithMods {
                    abs: rng.next() as u8 & mask,
                    neg: rng.next() as u8 & mask,
                    clamp: rng.below(2) as u8,
                    omod: rng.below(4) as u8,
                };
                let m = ArithMods {
                    abs: [0, 1, 2].map(|i| cm.abs >> i & 1 != 0),
                    neg: [0, 1, 2].map(|i| cm.neg >> i & 1 != 0),
                    omod: Omod::from_field(u32::from(cm.omod)),
                    clamp: cm.clamp != 0,
                };
                let mut p = null_mut();
                // SAFETY: a valid out pointer.
                let status =
                    unsafe { avalu_prepared_new(target_id, op as u32, T::FMT, mode, cm, &mut p) };
                let has =
                    arith_op(op).is_none_or(|a| lanes::has_format(a, <T as LaneBits>::FORMAT));
                if !has {
                    assert_eq!(status, AvaluStatus::Execute, "{op:?}");
                    assert!(p.is_null());
                    continue;
                }
                assert_eq!(status, AvaluStatus::Ok, "{op:?}");
                let srcs: Vec<Vec<T>> = (0..k)
                    .map(|_| (0..n).map(|_| source::<T>(&mut rng)).collect())
                    .collect();
                let views: Vec<&[T]> = srcs.iter().map(Vec::as_slice).collect();
                let exp: Vec<i32> = (0..n).map(|_| rng.next() as i32 >> rng.below(32)).collect();
                let e: &[i32] = if op == AvaluOp::Ldexp { &exp } else { &[] };
                let old: Vec<T> = (0..n).map(|_| source::<T>(&mut rng)).collect();
                let words: Vec<u64> = (0..n.div_ceil(64)).map(|_| rng.next()).collect();
                let exec = (round % 2 == 1).then_some(&words[..]);
                let mut want = old.clone();
                one_shot(op, target, mode, m, exec, &views, e, &mut want);
                let ptr = |i: usize| srcs.get(i).map_or(null(), |s| s.as_ptr());
                let exp_ptr = if op == AvaluOp::Ldexp {
                    exp.as_ptr()
                } else {
                    null()
                };
                let exec_ptr = exec.map_or(null(), |x| x.as_ptr());
                let mut got = old.clone();
                // SAFETY: every array holds n elements (EXEC ceil(n/64)).
                let status = unsafe {
                    T::RUN(
                        p,
                        exec_ptr,
                        ptr(0),
                        ptr(1),
                        ptr(2),
                        exp_ptr,
                        got.as_mut_ptr(),
                        n,
                    )
                };
                assert_eq!(status, AvaluStatus::Ok);
                let what = format!(
                    "{op:?} format {} {target} mode {mode:#x} {cm:?} n {n} exec {}",
                    T::FMT,
                    exec.is_some()
                );
                assert_eq!(got, want, "{what}");
                // In place: dst is src0 (inactive lanes keep src0's value).
                let mut in_place = srcs[0].clone();
                let mut want = srcs[0].clone();
                one_shot(op, target, mode, m, exec, &views, e, &mut want);
                let d = in_place.as_mut_ptr();
                // SAFETY: as above; dst is exactly src0.
                let status = unsafe { T::RUN(p, exec_ptr, d, ptr(1), ptr(2), exp_ptr, d, n) };
                assert_eq!(status, AvaluStatus::Ok);
                assert_eq!(in_place, want, "in place: {what}");
                // SAFETY: a live handle, freed once.
                unsafe { avalu_prepared_free(p) };
            }
        }
    }
}

#[test]
fn f16_prepared_gives_the_one_shot_bits() {
    compare::<u16>(16);
}

#[test]
fn f32_prepared_gives_the_one_shot_bits() {
    compare::<u32>(32);
}

#[test]
fn f64_prepared_gives_the_one_shot_bits() {
    compare::<u64>(64);
}

/// NULL, misaligned and foreign handles, the wrong format's function,
/// overlapping arrays: each a status, none a crash.
#[test]
fn hostile_handles_and_arrays() {
    let none = AvaluArithMods::default();
    let mut p = null_mut();
    // SAFETY: valid out pointer.
    let s = unsafe {
        avalu_prepared_new(
            0,
            AvaluOp::Add as u32,
            AvaluFormat::F32 as u32,
            0,
            none,
            &mut p,
        )
    };
    assert_eq!(s, AvaluStatus::Ok);
    let x = [0u32; 8];
    let mut d = [0u32; 8];
    // SAFETY (every call below): arrays valid for the lengths given; the
    // handles are NULL, live, or memory of the right size and alignment.
    unsafe {
        let run = avalu_prepared_run_f32;
        assert_eq!(
            run(
                null(),
                null(),
                x.as_ptr(),
                x.as_ptr(),
                null(),
                null(),
                d.as_mut_ptr(),
                8
            ),
            AvaluStatus::NullPointer
        );
        let misaligned = (p as *const u8).wrapping_add(1).cast::<AvaluPrepared>();
        assert_eq!(
            run(
                misaligned,
                null(),
                x.as_ptr(),
                x.as_ptr(),
                null(),
                null(),
                d.as_mut_ptr(),
                8
            ),
            AvaluStatus::InvalidArgument
        );
        // Zeroed memory the size of any handle: no magic.
        let fake = [0u64; 64];
        let fake = fake.as_ptr().cast::<AvaluPrepared>();
        assert_eq!(
            run(
                fake,
                null(),
                x.as_ptr(),
                x.as_ptr(),
                null(),
                null(),
                d.as_mut_ptr(),
                8
            ),
            AvaluStatus::InvalidArgument
        );
        assert_eq!(avalu_prepared_format(fake), u32::MAX);
        let h = [0u16; 8];
        let mut hd = [0u16; 8];
        assert_eq!(
            avalu_prepared_run_f16(
                p,
                null(),
                h.as_ptr(),
                h.as_ptr(),
                null(),
                null(),
                hd.as_mut_ptr(),
                8
            ),
            AvaluStatus::InvalidArgument
        );
        // dst overlapping src1 by half: refused; src2 given to ADD: refused.
        let mut buf = [0u32; 16];
        let b = buf.as_mut_ptr();
        assert_eq!(
            run(p, null(), x.as_ptr(), b, null(), null(), b.add(4), 8),
            AvaluStatus::InvalidArgument
        );
        assert_eq!(
            run(
                p,
                null(),
                x.as_ptr(),
                x.as_ptr(),
                x.as_ptr(),
                null(),
                d.as_mut_ptr(),
                8
            ),
            AvaluStatus::InvalidArgument
        );
        // A length that overflows the address space.
        assert_eq!(
            run(
                p,
                null(),
                x.as_ptr(),
                x.as_ptr(),
                null(),
                null(),
                d.as_mut_ptr(),
                usize::MAX
            ),
            AvaluStatus::InvalidArgument
        );
        // EXEC overlapping dst.
        let exec = d.as_ptr().cast::<u64>();
        assert_eq!(
            run(
                p,
                exec,
                x.as_ptr(),
                x.as_ptr(),
                null(),
                null(),
                d.as_mut_ptr(),
                8
            ),
            AvaluStatus::InvalidArgument
        );
        avalu_prepared_free(p);
        avalu_prepared_free(null_mut());
    }
}
