//! Exact values in the wide lane and their one rounding (ARITH §1 and §3):
//! unpacking a finite encoding, the exact aligned sum of two exact values,
//! and the rounding of an exact value to format `F` with tininess judged
//! after rounding, the output flush and overflow. Written once for the
//! arithmetic kernels (`add`, `mul`, `fma`).
//!
//! An exact value is `(-1)^negative x sig x 2^exp` with `sig` an integer in
//! the wide lane `F::Wide` (`u64` for F16 and F32, `u128` for F64): wide
//! enough for an exact product (22, 48 or 106 bits) and for an aligned sum
//! with guard bits, where the bits shifted out below the lane are folded
//! into a sticky last bit. Everything is total integer work and selects, as
//! in `modifiers`.

use super::format::Format;
use super::lane::{sel, Lane};
use super::modifiers::LanePolicy;

/// The signed exponent type of the wide lane.
type WExp<F> = <<F as Format>::Wide as Lane>::Exp;

/// A constant in the wide lane.
#[inline(always)]
fn kw<F: Format>(v: u64) -> F::Wide {
    F::Wide::from_u64(v)
}

/// An exponent constant in the wide lane's signed type.
#[inline(always)]
fn kwe<F: Format>(v: i32) -> WExp<F> {
    WExp::<F>::from(v)
}

/// An encoding widened to the wide lane.
#[inline(always)]
pub fn widen<F: Format>(x: F::Lane) -> F::Wide {
    F::Wide::from_u64(x.to_u64())
}

/// A wide lane holding an encoding of `F`, narrowed to the lane.
#[inline(always)]
pub fn narrow<F: Format>(x: F::Wide) -> F::Lane {
    F::Lane::from_u64(x.to_u64())
}

/// An exact finite value `(-1)^negative x sig x 2^exp`; `sig` 0 is a zero
/// of that sign.
#[derive(Clone, Copy, Debug)]
pub struct Exact<F: Format> {
    /// The sign.
    pub negative: bool,
    /// The integer significand.
    pub sig: F::Wide,
    /// The weight of `sig`'s last bit.
    pub exp: WExp<F>,
}

/// The exact value of a finite encoding of `F` (held in the wide lane): a
/// subnormal has the smallest normal's exponent and no hidden bit. Total:
/// an infinity or NaN gives some value the caller discards.
#[inline(always)]
pub fn unpack<F: Format>(x: F::Wide) -> Exact<F> {
    let mag = x & kw::<F>(F::ABS_MASK);
    let field = mag.shr(kwe::<F>(F::MAN as i32)).to_exp();
    let hidden = sel(field == kwe::<F>(0), F::Wide::ZERO, kw::<F>(F::HIDDEN));
    Exact {
        negative: x & kw::<F>(F::SIGN) != F::Wide::ZERO,
        sig: (mag & kw::<F>(F::MAN_MASK)) | hidden,
        exp: field.max(kwe::<F>(1)) - kwe::<F>(F::BIAS + F::MAN as i32),
    }
}

/// The exact product of two finite values.
#[inline(always)]
pub fn product<F: Format>(x: Exact<F>, y: Exact<F>) -> Exact<F> {
    Exact {
        negative: x.negative != y.negative,
        sig: x.sig.mul(y.sig),
        exp: x.exp + y.exp,
    }
}

/// `sig` shifted so its leading bit is the lane's second-highest (one bit
/// of headroom for the carry of a sum), and the weight of its last bit. A
/// zero gets an exponent below every other, so it is never the larger term.
#[inline(always)]
fn normalise<F: Format>(v: Exact<F>) -> (F::Wide, WExp<F>) {
    let shift = v.sig.lz() - kwe::<F>(1);
    let zero = v.sig == F::Wide::ZERO;
    (
        v.sig.shl(shift),
        sel(zero, kwe::<F>(i32::MIN / 2), v.exp - shift),
    )
}

/// The exact sum `x + y`, its last bit a sticky bit when the smaller term
/// reaches below the lane (ARITH §1). A zero sum takes the sign of §1.2:
/// two zeros give -0 only for (-0) + (-0), or toward -inf for mixed signs;
/// nonzero terms that cancel give +0, or -0 toward -inf.
#[inline(always)]
pub fn sum<F: Format>(x: Exact<F>, y: Exact<F>, p: &LanePolicy<F>) -> Exact<F> {
    let one = F::Wide::ONE;
    let (nx, ex) = normalise::<F>(x);
    let (ny, ey) = normalise::<F>(y);
    let x_larger = (ex > ey) | ((ex == ey) & (nx >= ny));
    let (big, big_exp, big_negative) = (
        sel(x_larger, nx, ny),
        sel(x_larger, ex, ey),
        sel(x_larger, x.negative, y.negative),
    );
    let (small, small_exp, small_negative) = (
        sel(x_larger, ny, nx),
        sel(x_larger, ey, ex),
        sel(x_larger, y.negative, x.negative),
    );
    // Align the smaller term; the bits shifted out make a sticky bit. Both
    // terms have at least 15 zero bits below their significand (the widest
    // is F32's 48-bit product in 62 bits), so no shift that loses a bit
    // can be followed by a cancellation reaching the rounding position.
    let d = (big_exp - small_exp).min(kwe::<F>(F::Wide::BITS as i32));
    let shifted = small.shr(d);
    let sticky = F::Wide::from_bool(small & one.shl(d).sub(one) != F::Wide::ZERO);
    // big + small lies in (big + shifted, big + shifted + 1) units when
    // sticky; big - small in (big - shifted - 1, big - shifted).
    let subtract = big_negative != small_negative;
    let s = sel(subtract, big.sub(shifted).sub(sticky), big.add(shifted)) | sticky;
    let both_zero = (x.sig == F::Wide::ZERO) & (y.sig == F::Wide::ZERO);
    let down = p.toward_negative();
    let zero_negative = sel(
        both_zero,
        sel(down, x.negative | y.negative, x.negative & y.negative),
        down,
    );
    Exact {
        negative: sel(s == F::Wide::ZERO, zero_negative, big_negative),
        sig: s,
        exp: big_exp,
    }
}

/// `sig` rounded at bit `shift` (which may be negative: exact, shifted
/// up): the kept bits, the first discarded bit (guard) and whether any
/// lower bit is set (sticky). `shift` must be at most `BITS + 1`.
#[inline(always)]
fn split<F: Format>(sig: F::Wide, shift: WExp<F>) -> (F::Wide, bool, bool) {
    let zero = F::Wide::ZERO;
    let kept = sig.shr(shift) | sig.shl(kwe::<F>(0) - shift);
    let guard = sig.shr(shift - kwe::<F>(1)) & F::Wide::ONE != zero;
    // The `shift - 1` bits below the guard bit, moved to the top; a
    // nonpositive count shifts by the width or more, giving 0.
    let sticky = sig.shl(kwe::<F>(F::Wide::BITS as i32 + 1) - shift) != zero;
    (kept, guard, sticky)
}

/// The one rounding of an exact value to format `F` (ARITH §1, §3, §4):
/// rounded under FP_ROUND to 11, 24 or 53 bits or to the subnormal grid,
/// whichever is coarser. The value is **tiny** when rounding it to the
/// format's precision with an unbounded exponent gives a nonzero magnitude
/// below the smallest normal (tininess after rounding [hw gfx1100,
/// gfx1201]); a tiny value becomes the zero of its sign when the output
/// flush or OMOD says so (`LanePolicy::flush_tiny`). Overflow gives
/// infinity or the largest finite value by FP_ROUND, or always the largest
/// with FP16_OVFL (`LanePolicy::overflow`). A zero `sig` gives the zero of
/// `v.negative`.
#[inline(always)]
pub fn round<F: Format>(v: Exact<F>, p: &LanePolicy<F>) -> F::Lane {
    let zero = F::Wide::ZERO;
    let man = kwe::<F>(F::MAN as i32);
    // The leading bit's index (-1 for 0) and the value's binary exponent.
    let top = kwe::<F>(F::Wide::BITS as i32 - 1) - v.sig.lz();
    let e = v.exp + top;
    // Bits discarded: enough to keep MAN + 1 bits, and at least down to
    // the subnormal grid 2^(EMIN - MAN); never more than up to two past the
    // leading bit (the same result, and `split` stays within the width).
    let shift_precision = top - man;
    let shift = shift_precision
        .max(kwe::<F>(F::EMIN - F::MAN as i32) - v.exp)
        .min(top + kwe::<F>(2));
    let (kept, guard, sticky) = split::<F>(v.sig, shift);
    let up = p.rounds_up(v.negative, kept & F::Wide::ONE != zero, guard, sticky);
    // A normal value: its exponent field minus one above the significand
    // with its hidden bit, so a carry out of the significand steps the
    // exponent. A subnormal: the kept units of 2^(EMIN - MAN) themselves (a
    // carry out of the largest gives the smallest normal).
    let field = F::Wide::from_exp((e - kwe::<F>(F::EMIN)).max(kwe::<F>(0))).shl(man);
    let magnitude = field.add(kept).add(F::Wide::from_bool(up));
    let overflow = (e > kwe::<F>(F::EMAX)) | (magnitude >= kw::<F>(F::INF));

    // Tininess after rounding: the value rounded to MAN + 1 bits with an
    // unbounded exponent is below 2^EMIN unless it carries from just below
    // into it.
    let (kept_p, guard_p, sticky_p) = split::<F>(v.sig, shift_precision);
    let up_p = p.rounds_up(v.negative, kept_p & F::Wide::ONE != zero, guard_p, sticky_p);
    let carries = kept_p.add(F::Wide::from_bool(up_p)).shr(man + kwe::<F>(1)) != zero;
    let below = (e < kwe::<F>(F::EMIN - 1)) | ((e == kwe::<F>(F::EMIN - 1)) & !carries);
    let tiny = (v.sig != zero) & below;

    let sign = sel(v.negative, kw::<F>(F::SIGN), zero);
    let r = sel(
        overflow,
        widen::<F>(p.overflow(v.negative)),
        sign | magnitude,
    );
    let r = sel((tiny & p.flush_tiny) | (v.sig == zero), sign, r);
    narrow::<F>(r)
}
