//! Shared by the criterion bench (`kernels.rs`) and the table (`table.rs`):
//! the input mix, the policies of each case, and the two comparison
//! baselines (a naive host-float loop and a rustc_apfloat reference).
//!
//! Host floating point appears here ONLY in the naive baseline, which is a
//! speed yardstick and never a source of emulated results.

#![allow(dead_code)]

pub mod arith;

use amdgpu_valu::__testing::kernels::policy::{
    ClampNan, FloatRules, Modifiers, OmodGate, SnanPolicy, SubNan, Tininess,
};
use amdgpu_valu::__testing::kernels::{Format, FormatKind, Mode, Omod, Policy};
use amdgpu_valu::__testing::kernels::{Fract, Ldexp, Operation};

/// The crate's seeded generator (SplitMix64): the same inputs on every run.
pub use amdgpu_valu::__testing::Rng;

/// One lane of the standard mix, in per-mille: 400 random bit patterns,
/// 250 normals with |x| in [2^-(m+2), 2^(m+3)), 100 subnormals, 200 within
/// 8 ulps of +-0.5 and +-1.0, 30 signed zeros, 20 infinities and NaNs
/// (quiet and signalling).
pub fn mixed_lane<F: Format>(rng: &mut Rng) -> u64 {
    let sign = if rng.next() & 1 != 0 { F::SIGN } else { 0 };
    let man = rng.next() & F::MAN_MASK;
    let m = i64::from(F::MAN);
    let pick = rng.below(1000);
    let mag = if pick < 400 {
        return rng.next() & (F::SIGN | F::ABS_MASK);
    } else if pick < 650 {
        let e = rng.range(-(m + 2), m + 2);
        ((e + i64::from(F::BIAS)) as u64) << F::MAN | man
    } else if pick < 750 {
        man.max(1)
    } else if pick < 950 {
        let centre = if rng.next() & 1 != 0 {
            F::ONE
        } else {
            F::ONE - F::HIDDEN
        };
        centre.wrapping_add(rng.range(-8, 8) as u64)
    } else if pick < 980 {
        0
    } else {
        match rng.below(3) {
            0 => F::INF,
            1 => F::INF | F::QUIET_BIT | man,
            _ => F::INF | (man | 1) & !F::QUIET_BIT,
        }
    };
    sign | mag
}

/// A lane of the mostly-subnormal mix: 90% subnormals, 10% the standard mix.
pub fn subnormal_lane<F: Format>(rng: &mut Rng) -> u64 {
    if rng.below(10) == 0 {
        return mixed_lane::<F>(rng);
    }
    let sign = if rng.next() & 1 != 0 { F::SIGN } else { 0 };
    sign | (rng.next() & F::MAN_MASK).max(1)
}

/// The benchmark cases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Case {
    /// MODE round-to-nearest-even, all subnormals kept, no modifiers.
    Default,
    /// MODE 0xfa (toward -inf in both FP_ROUND fields, subnormals kept),
    /// mul:2 and CLAMP, gfx1201 rules (OMOD always effective).
    DirectedOmodClamp,
    /// Default MODE, 90% subnormal inputs.
    MostlySubnormal,
}

impl Case {
    pub const ALL: [Case; 3] = [
        Case::Default,
        Case::DirectedOmodClamp,
        Case::MostlySubnormal,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Case::Default => "nearest, denorm kept",
            Case::DirectedOmodClamp => "toward -inf, mul:2, clamp",
            Case::MostlySubnormal => "90% subnormal inputs",
        }
    }

    /// The policy of the case for format `F` (gfx1201 rules).
    pub fn policy<F: Format>(self) -> Policy {
        let rules = FloatRules {
            omod_gate: OmodGate::Always,
            clamp_nan: ClampNan::AlwaysZero,
            has_ieee_dx10_bits: false,
            snan: SnanPolicy::Quiet,
            sub_nan: SubNan::Ieee,
            tininess: Tininess::AfterRounding,
        };
        match self {
            Case::Default | Case::MostlySubnormal => {
                Policy::new::<F>(&rules, Mode(0xf0), Modifiers::default())
            }
            Case::DirectedOmodClamp => {
                let mods = Modifiers {
                    abs: false,
                    neg: false,
                    omod: Omod::Mul2,
                    clamp: true,
                };
                // FP_ROUND = 2 (toward -inf) in both the F32 and F16/F64 fields.
                Policy::new::<F>(&rules, Mode(0xf0 | 0b1010), mods)
            }
        }
    }

    /// `n` source lanes and LDEXP exponents (uniform in [-40, 40]).
    pub fn inputs<F: Format>(self, n: usize, seed: u64) -> (Vec<F::Bits>, Vec<i32>) {
        let mut rng = Rng(seed);
        let src = (0..n)
            .map(|_| {
                F::narrow(match self {
                    Case::MostlySubnormal => subnormal_lane::<F>(&mut rng),
                    _ => mixed_lane::<F>(&mut rng),
                })
            })
            .collect();
        let exp = (0..n).map(|_| rng.range(-40, 40) as i32).collect();
        (src, exp)
    }
}

/// The naive host loop for one operation and format: `x - x.floor()` and
/// `x * 2^e` in host floating point (F16 through f32). A yardstick only.
pub trait Naive: Operation {
    fn naive<F: Format>(src: &[F::Bits], exp: &[i32], dst: &mut [F::Bits]);
    fn reference<F: Format>(src: &[F::Bits], exp: &[i32], dst: &mut [F::Bits]);
}

fn host<F: Format>(
    src: &[F::Bits],
    exp: &[i32],
    dst: &mut [F::Bits],
    f32op: fn(f32, i32) -> f32,
    f64op: fn(f64, i32) -> f64,
) {
    for ((d, &s), &e) in dst.iter_mut().zip(src).zip(exp) {
        let x = F::widen(s);
        let r = match F::KIND {
            FormatKind::F16 => u64::from(
                half::f16::from_f32(f32op(half::f16::from_bits(x as u16).to_f32(), e)).to_bits(),
            ),
            FormatKind::F32 => u64::from(f32op(f32::from_bits(x as u32), e).to_bits()),
            FormatKind::F64 => f64op(f64::from_bits(x), e).to_bits(),
        };
        *d = F::narrow(r);
    }
}

/// The rustc_apfloat reference in `F`'s IEEE type: `x - floor(x)` and
/// `scalbn(x, e)`, both nearest-even.
fn apfloat<F: Format>(src: &[F::Bits], exp: &[i32], dst: &mut [F::Bits], ldexp: bool) {
    use rustc_apfloat::ieee::{Double, Half, Single};
    use rustc_apfloat::{Float, Round};
    fn one<T: Float>(x: u64, e: i32, ldexp: bool) -> u64 {
        let x = T::from_bits(u128::from(x));
        let r = if ldexp {
            x.scalbn_r(e, Round::NearestTiesToEven)
        } else {
            let floor = x.round_to_integral(Round::TowardNegative).value;
            x.sub_r(floor, Round::NearestTiesToEven).value
        };
        r.to_bits() as u64
    }
    for ((d, &s), &e) in dst.iter_mut().zip(src).zip(exp) {
        let x = F::widen(s);
        *d = F::narrow(match F::KIND {
            FormatKind::F16 => one::<Half>(x, e, ldexp),
            FormatKind::F32 => one::<Single>(x, e, ldexp),
            FormatKind::F64 => one::<Double>(x, e, ldexp),
        });
    }
}

impl Naive for Fract {
    fn naive<F: Format>(src: &[F::Bits], exp: &[i32], dst: &mut [F::Bits]) {
        host::<F>(src, exp, dst, |x, _| x - x.floor(), |x, _| x - x.floor());
    }
    fn reference<F: Format>(src: &[F::Bits], exp: &[i32], dst: &mut [F::Bits]) {
        apfloat::<F>(src, exp, dst, false);
    }
}

impl Naive for Ldexp {
    fn naive<F: Format>(src: &[F::Bits], exp: &[i32], dst: &mut [F::Bits]) {
        host::<F>(
            src,
            exp,
            dst,
            |x, e| x * 2f32.powi(e),
            |x, e| x * 2f64.powi(e),
        );
    }
    fn reference<F: Format>(src: &[F::Bits], exp: &[i32], dst: &mut [F::Bits]) {
        apfloat::<F>(src, exp, dst, true);
    }
}
