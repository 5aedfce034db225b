//! The arithmetic instructions (ADD, SUB, SUBREV, MUL, FMA) as the
//! project's arithmetic contract states them, written on APFloat
//! (`rustc_apfloat`) and apart from the kernels: nothing here calls them or
//! reads the crate's format constants.
//!
//! APFloat gives the IEEE 754 sum, product and fused multiply-add of two or
//! three values rounded once under an explicit direction, with subnormal
//! results rounded on the subnormal grid and overflow giving +-inf or +-max
//! by direction: that is the hardware's result whenever no AMD rule
//! intervenes. The AMD rules are written here around it:
//!
//! - input flush, ABS/NEG (the parent module's `prepare_source`);
//! - invalid operations give the negative canonical quiet NaN, FMA's
//!   0 x inf winning over a NaN addend; otherwise the first NaN in
//!   encoding order, quieted per the target;
//! - exact zeros take their sign from the table of the contract (§1.2),
//!   decided here, not taken from APFloat;
//! - **tininess after rounding**: APFloat in the result format rounds with
//!   the format's bounded exponent, so its result cannot say whether the
//!   value rounded to 11/24/53 bits with an *unbounded* exponent is below
//!   the smallest normal. The operation is therefore done a second time in
//!   a twin format of the same precision and a 15-bit exponent
//!   ([`Unbounded`]): every exact result of these operations (at most
//!   2^(2*1024) and at least 2^(-2*1074)) lies in its normal range, so its
//!   one rounding is exactly the rounding to the precision with an
//!   unbounded exponent. Tiny = that result is nonzero and its exponent is
//!   below the format's minimum; overflow = its exponent is above the
//!   format's maximum (IEEE's own definition);
//! - a tiny result becomes the zero of its sign when the output flush or
//!   an effective OMOD says so (the parent's `flush_tiny`); FP16_OVFL turns
//!   an F16 overflow of finite sources into +-max;
//! - OMOD and CLAMP as for FRACT/LDEXP (the parent's `output_modifiers`).

use rustc_apfloat::ieee::{IeeeFloat, Semantics};
use rustc_apfloat::{Float, FloatConvert, Round};

use super::{
    flush_tiny, fp16_ovfl, output_modifiers, prepare_source, rounding, RefFormat, TargetKind,
};
use amdgpu_valu::__testing::kernels::{F16, F32, F64};

/// A binary format of `P` significant bits and a 15-bit exponent: the
/// "unbounded exponent" twin of F16 (P = 11), F32 (24) and F64 (53).
pub struct Unbounded<const P: usize>;

impl<const P: usize> Semantics for Unbounded<P> {
    const BITS: usize = 15 + P;
    const EXP_BITS: usize = 15;
}

/// A result format with its unbounded-exponent twin.
pub trait ArithFormat: RefFormat {
    /// The twin: same precision, exponent range wider than any exact result.
    type Wide: Float;
    /// A value of the format, exactly, in the twin.
    fn to_wide(x: Self::Ap) -> Self::Wide;
}

impl ArithFormat for F16 {
    type Wide = IeeeFloat<Unbounded<11>>;
    fn to_wide(x: Self::Ap) -> Self::Wide {
        x.convert(&mut false).value
    }
}
impl ArithFormat for F32 {
    type Wide = IeeeFloat<Unbounded<24>>;
    fn to_wide(x: Self::Ap) -> Self::Wide {
        x.convert(&mut false).value
    }
}
impl ArithFormat for F64 {
    type Wide = IeeeFloat<Unbounded<53>>;
    fn to_wide(x: Self::Ap) -> Self::Wide {
        x.convert(&mut false).value
    }
}

/// The operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RefOp {
    /// src0 + src1.
    Add,
    /// src0 - src1.
    Sub,
    /// src1 - src0.
    Subrev,
    /// src0 x src1.
    Mul,
    /// src0 x src1 + src2, one rounding.
    Fma,
}

/// The encoded modifiers of an arithmetic instruction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ArithRefMods {
    /// ABS of src0, src1, src2.
    pub abs: [bool; 3],
    /// NEG of src0, src1, src2.
    pub neg: [bool; 3],
    /// OMOD field: 0 none, 1 mul:2, 2 mul:4, 3 div:2.
    pub omod: u8,
    /// CLAMP bit.
    pub clamp: bool,
}

/// Whether a NaN result gets its quiet bit: always, or (the target's
/// `keep_when_ieee_off` choice, only on targets with MODE.IEEE) only when
/// MODE.IEEE = 1.
pub fn quiets(kind: TargetKind, mode: u32, keep_when_ieee_off: bool) -> bool {
    !keep_when_ieee_off || (kind == TargetKind::Gated && mode & (1 << 9) != 0)
}

fn is_nan<F: RefFormat>(x: u64) -> bool {
    x & F::ABS_MASK > F::INF
}
fn is_inf<F: RefFormat>(x: u64) -> bool {
    x & F::ABS_MASK == F::INF
}
fn is_zero<F: RefFormat>(x: u64) -> bool {
    x & F::ABS_MASK == 0
}
fn negative<F: RefFormat>(x: u64) -> bool {
    x & F::SIGN != 0
}
fn signed_zero<F: RefFormat>(neg: bool) -> u64 {
    if neg {
        F::SIGN
    } else {
        0
    }
}
fn ap<F: RefFormat>(x: u64) -> F::Ap {
    F::Ap::from_bits(u128::from(x))
}

/// The operation on prepared sources: screened, rounded once, flushed.
fn core<F: ArithFormat>(
    op: RefOp,
    [a, b, c]: [u64; 3],
    mode: u32,
    quiet: bool,
    flush: bool,
) -> u64 {
    let neg_nan = F::SIGN | F::INF | F::QUIET_BIT;
    let toward_negative = rounding::<F>(mode) == Round::TowardNegative;
    // SUB/SUBREV negate the subtrahend when it is a number (IEEE
    // subtraction; a NaN keeps its sign).
    let flip = |x: u64| if is_nan::<F>(x) { x } else { x ^ F::SIGN };
    let (a, b) = match op {
        RefOp::Sub => (a, flip(b)),
        RefOp::Subrev => (flip(a), b),
        _ => (a, b),
    };
    // Invalid operations, before any NaN for FMA's 0 x inf.
    let zero_times_inf =
        |x: u64, y: u64| (is_zero::<F>(x) && is_inf::<F>(y)) || (is_inf::<F>(x) && is_zero::<F>(y));
    if matches!(op, RefOp::Mul | RefOp::Fma) && zero_times_inf(a, b) {
        return neg_nan;
    }
    let sources: &[u64] = if op == RefOp::Fma {
        &[a, b, c]
    } else {
        &[a, b]
    };
    if let Some(&n) = sources.iter().find(|&&x| is_nan::<F>(x)) {
        return if quiet { n | F::QUIET_BIT } else { n };
    }
    let round = rounding::<F>(mode);
    let (x, y, z) = (ap::<F>(a), ap::<F>(b), ap::<F>(c));
    // The terms of the final sum (ADD/SUB/SUBREV: a and b; FMA: a x b and c).
    match op {
        RefOp::Add | RefOp::Sub | RefOp::Subrev => {
            if is_inf::<F>(a) && is_inf::<F>(b) && negative::<F>(a) != negative::<F>(b) {
                return neg_nan;
            }
        }
        RefOp::Fma => {
            let product_inf = is_inf::<F>(a) || is_inf::<F>(b);
            let product_negative = negative::<F>(a) != negative::<F>(b);
            if product_inf && is_inf::<F>(c) && product_negative != negative::<F>(c) {
                return neg_nan;
            }
        }
        RefOp::Mul => {}
    }
    let finite_sources = sources.iter().all(|&s| !is_inf::<F>(s));
    // The result in the format (IEEE: subnormal grid, overflow by
    // direction) and in the unbounded twin.
    let (in_format, unbounded) = match op {
        RefOp::Mul => (
            x.mul_r(y, round).value,
            F::to_wide(x).mul_r(F::to_wide(y), round).value,
        ),
        RefOp::Fma => (
            x.mul_add_r(y, z, round).value,
            F::to_wide(x)
                .mul_add_r(F::to_wide(y), F::to_wide(z), round)
                .value,
        ),
        _ => (
            x.add_r(y, round).value,
            F::to_wide(x).add_r(F::to_wide(y), round).value,
        ),
    };
    if !finite_sources {
        // An infinite term: IEEE gives the infinity (never FP16_OVFL).
        return in_format.to_bits() as u64;
    }
    if unbounded.is_zero() {
        // An exact zero (the twin never underflows): the sign table.
        let sum_of_zeros = |p: bool, q: bool| {
            if toward_negative {
                p || q
            } else {
                p && q
            }
        };
        let neg = match op {
            RefOp::Mul => negative::<F>(a) != negative::<F>(b),
            RefOp::Fma if is_zero::<F>(c) && (is_zero::<F>(a) || is_zero::<F>(b)) => {
                sum_of_zeros(negative::<F>(a) != negative::<F>(b), negative::<F>(c))
            }
            RefOp::Add | RefOp::Sub | RefOp::Subrev if is_zero::<F>(a) && is_zero::<F>(b) => {
                sum_of_zeros(negative::<F>(a), negative::<F>(b))
            }
            // Nonzero terms that cancel.
            _ => toward_negative,
        };
        return signed_zero::<F>(neg);
    }
    let neg = unbounded.is_negative();
    let e = unbounded.ilogb();
    if e < F::Ap::MIN_EXP && flush {
        // Tiny after rounding, flushed to the zero of the exact sign.
        return signed_zero::<F>(neg);
    }
    if e > F::Ap::MAX_EXP && fp16_ovfl::<F>(mode) {
        return signed_zero::<F>(neg) | F::MAX;
    }
    in_format.to_bits() as u64
}

/// An arithmetic instruction on raw sources (`c` read only by FMA) on a
/// target of `kind` under `mode`; `keep_when_ieee_off` is the target's
/// signalling-NaN choice (see [`quiets`]).
pub fn ref_arith<F: ArithFormat>(
    op: RefOp,
    srcs: [u64; 3],
    mode: u32,
    kind: TargetKind,
    keep_when_ieee_off: bool,
    m: ArithRefMods,
) -> u64 {
    let prepared = [0, 1, 2].map(|i| prepare_source::<F>(srcs[i], mode, m.abs[i], m.neg[i]));
    let r = core::<F>(
        op,
        prepared,
        mode,
        quiets(kind, mode, keep_when_ieee_off),
        flush_tiny::<F>(kind, mode, m.omod),
    );
    output_modifiers::<F>(r, kind, mode, m.omod, m.clamp)
}
