//! Exact values and their one rounding (ARITH §1 and §3): unpacking a
//! finite encoding, the exact product and the exact aligned sum of two
//! exact values, narrowing an exact value to the lane with a sticky bit,
//! and the rounding of an exact value to format `F` with tininess judged
//! after rounding, the output flush and overflow. Written once for the
//! arithmetic kernels (`add`, `mul`, `fma`).
//!
//! An exact value is `(-1)^negative x sig x 2^exp` with `sig` an integer in
//! a lane `W`: the format's lane (`u32` for F16 and F32, `u64` for F64) for
//! sums of two encodings and for rounding, its wide lane `F::Wide` (`u32`,
//! `u64`, `W128`) for exact products (22, 48 or 106 bits) and the sums of
//! FMA. Bits shifted out below the lane are folded into a sticky last bit.
//! A wide value keeps its exponent in the format lane's signed type, so
//! F32's exponents take 32-bit vector lanes beside 64-bit significands.
//! Everything is total integer work and selects, as in `modifiers`, so the
//! loops over it vectorise; the narrowest lane that holds a step is used
//! because a vector holds twice as many of them.

use super::format::Format;
use super::lane::{sel, Exponent, Lane};
use super::modifiers::LanePolicy;

/// A constant in lane `W`.
#[inline(always)]
fn kw<W: Lane>(v: u64) -> W {
    W::from_u64(v)
}

/// An exponent constant in lane `W`'s signed type.
#[inline(always)]
fn kwe<W: Lane>(v: i32) -> W::Exp {
    W::Exp::from(v)
}

/// An exact finite value `(-1)^negative x sig x 2^exp`; `sig` 0 is a zero
/// of that sign. The exponent type `E` is `W`'s signed type, or for the
/// wide lane the format lane's ([`WideExact`]).
#[derive(Clone, Copy, Debug)]
pub struct Exact<W: Lane, E: Exponent = <W as Lane>::Exp> {
    /// The sign.
    pub negative: bool,
    /// The integer significand.
    pub sig: W,
    /// The weight of `sig`'s last bit.
    pub exp: E,
}

/// An exact value of format `F`'s wide lane (a product, FMA's sum) with
/// its exponent in the format lane's signed type.
pub type WideExact<F> = Exact<<F as Format>::Wide, <<F as Format>::Lane as Lane>::Exp>;

/// The exact value of a finite encoding of `F` in lane `W`: a subnormal
/// has the smallest normal's exponent and no hidden bit. Total: an
/// infinity or NaN gives some value the caller discards.
#[inline(always)]
pub fn unpack<F: Format, W: Lane>(x: F::Lane) -> Exact<W> {
    let x = W::from_u64(x.to_u64());
    let mag = x & kw::<W>(F::ABS_MASK);
    let field = mag.shr(kwe::<W>(F::MAN as i32)).to_exp();
    let hidden = sel(field == kwe::<W>(0), W::ZERO, kw::<W>(F::HIDDEN));
    Exact {
        negative: x & kw::<W>(F::SIGN) != W::ZERO,
        sig: (mag & kw::<W>(F::MAN_MASK)) | hidden,
        exp: field.max(kwe::<W>(1)) - kwe::<W>(F::BIAS + F::MAN as i32),
    }
}

/// The exact product of two finite values unpacked in the format's lane,
/// in its wide lane (22, 48 or 106 bits).
#[inline(always)]
pub fn product<F: Format>(x: Exact<F::Lane>, y: Exact<F::Lane>) -> WideExact<F> {
    Exact {
        negative: x.negative != y.negative,
        sig: F::wide_product(x.sig, y.sig),
        exp: x.exp + y.exp,
    }
}

/// A finite unpacked value with its significand's leading bit at `top`
/// (at least `MAN`; a subnormal shifted up, its exponent lowered to
/// match; a zero stays 0). FMA places its sources so their product lands
/// at the top of the wide lane.
#[inline(always)]
pub fn normalised_to<F: Format>(v: Exact<F::Lane>, top: i32) -> Exact<F::Lane> {
    let shift = v.sig.lz() - kwe::<F::Lane>(F::Lane::BITS as i32 - 1 - top);
    // Only a subnormal shifts (up); a zero's shift is harmless.
    let shift = shift.max(kwe::<F::Lane>(0));
    Exact {
        negative: v.negative,
        sig: v.sig.shl(shift),
        exp: v.exp - shift,
    }
}

/// `v` times 2^k, exactly (OMOD's scale in SDWA's `scaled_before_rounding`
/// order; 0 elsewhere, which folds away).
#[inline(always)]
pub fn scaled<W: Lane, E: Exponent>(v: Exact<W, E>, k: i32) -> Exact<W, E> {
    Exact {
        exp: v.exp + E::from(k),
        ..v
    }
}

/// `sig` shifted so its leading bit is the lane's second-highest (one bit
/// of headroom for the carry of a sum), and the weight of its last bit. A
/// zero gets an exponent below every other, so it is never the larger term.
///
/// With `unpacked` (a value straight from `unpack`: its hidden bit at `man`
/// or a subnormal or zero on the smallest normal's exponent) a fixed shift
/// does: magnitudes then still order by exponent, then significand.
#[inline(always)]
fn normalise<W: Lane>(v: Exact<W>, unpacked: Option<u32>) -> (W, W::Exp) {
    if let Some(man) = unpacked {
        let shift = kwe::<W>(W::BITS as i32 - 2 - man as i32);
        return (v.sig.shl(shift), v.exp - shift);
    }
    let shift = v.sig.lz() - kwe::<W>(1);
    let zero = v.sig == W::ZERO;
    (
        v.sig.shl(shift),
        sel(zero, kwe::<W>(i32::MIN / 2), v.exp - shift),
    )
}

/// A value of the format's lane in its wide lane, shifted by the two
/// lanes' difference in width (none for F16), so a leading bit at the
/// format lane's second- or third-highest lands on the wide lane's.
#[inline(always)]
pub fn widened<F: Format>(v: Exact<F::Lane>) -> WideExact<F> {
    let shift = F::Wide::BITS as i32 - F::Lane::BITS as i32;
    Exact {
        negative: v.negative,
        sig: F::Wide::from_u64(v.sig.to_u64()).shl(kwe::<F::Wide>(shift)),
        exp: v.exp - kwe::<F::Lane>(shift),
    }
}

/// The exact sum `x + y`, its last bit a sticky bit when the smaller term
/// reaches below the lane (ARITH §1). A zero sum takes the sign of §1.2:
/// two zeros give -0 only for (-0) + (-0), or toward -inf (`down`) for
/// mixed signs; nonzero terms that cancel give +0, or -0 toward -inf.
///
/// `unpacked`: both terms come straight from `unpack` of a format with
/// `man` fraction bits and `x` is not smaller than `y` in magnitude (ADD
/// orders the encodings, whose magnitudes compare as integers), so they
/// align by a fixed shift and need no comparison.
///
/// Exact up to the sticky bit when both terms have at least two zero bits
/// below their significand once normalised (an encoding's 11, 24 or 53
/// bits, or a product's 22, 48 or 106 bits, in `u32`, `u64` or `W128`
/// leave at least 9): a shift that loses a bit is then by 2 or more, so
/// the difference cancels at most one leading bit and the rounding
/// position stays above the sticky bit.
#[inline(always)]
pub fn sum<W: Lane>(x: Exact<W>, y: Exact<W>, down: bool, unpacked: Option<u32>) -> Exact<W> {
    let (nx, ex) = normalise::<W>(x, unpacked);
    let (ny, ey) = normalise::<W>(y, unpacked);
    let x = Exact {
        sig: nx,
        exp: ex,
        ..x
    };
    let y = Exact {
        sig: ny,
        exp: ey,
        ..y
    };
    let (v, zero_negative) = aligned_sum(x, y, down, unpacked.is_some(), false);
    Exact {
        negative: sel(v.sig == W::ZERO, zero_negative, v.negative),
        ..v
    }
}

/// [`sum`] of two terms already normalised as `normalise` leaves them
/// (the leading bit the lane's second-highest, or for one of them possibly
/// the bit below; a zero on an exponent below every other), or both one
/// bit lower (`top_clear`: then no sum reaches the top bit, and a value
/// with it set is a negative difference). `x_larger`: `x` is known not
/// smaller than `y`. Returns the sum with the sign it has when nonzero,
/// and the sign of a zero sum apart (chosen where the rounding tests the
/// narrowed value for zero, rather than by a test of the wide lane).
#[inline(always)]
pub fn aligned_sum<W: Lane, E: Exponent>(
    x: Exact<W, E>,
    y: Exact<W, E>,
    down: bool,
    x_larger: bool,
    top_clear: bool,
) -> (Exact<W, E>, bool) {
    let (nx, ex, ny, ey) = (x.sig, x.exp, y.sig, y.exp);
    let known = x_larger;
    // Ordered by exponent alone, so the order waits for no significand.
    // The term taken as `big` is smaller only when the exponents are equal,
    // or differ by one with the larger-exponent term's leading bit one
    // below: then the other is shifted by at most one bit, losing nothing
    // (terms end in zero bits), and the difference is exact and negative
    // (fixed below).
    let x_larger = x_larger | (ex >= ey);
    let (big, big_exp) = (sel(x_larger, nx, ny), sel(x_larger, ex, ey));
    let small = sel(x_larger, ny, nx);
    // Align the smaller term; the bits shifted out make a sticky bit. A
    // shift by `BITS - 1` already clears it (its top bit is 0), and the
    // bounds tell the compiler that no shift reaches the width.
    let d = (big_exp - sel(x_larger, ey, ex))
        .max(E::from(0))
        .min(E::from(W::BITS as i32 - 1));
    let (shifted, sticky) = small.shr_sticky(W::Exp::from_i64(d.to_i64()));
    // big + small lies in (big + shifted, big + shifted + 1) units when
    // sticky; big - small in (big - shifted - 1, big - shifted).
    let subtract = x.negative != y.negative;
    let s = sel(subtract, big.sub(shifted).sub(sticky), big.add(shifted)) | sticky;
    // Both terms lie below the lane's top bit, so a difference with it set
    // is negative: negated, with the other term's sign. With `top_clear`
    // only a difference can set it (the negation is then an absolute
    // value, no select on `subtract`).
    let swapped = !known & (subtract | top_clear) & s.top_bit();
    let s = sel(swapped, W::ZERO.sub(s), s);
    // The sign of `big` (the other term's when it was taken as `small`,
    // which differs only in a subtraction), flipped when swapped; as
    // exclusive-ors of masks rather than a select of two signs.
    let negative = x.negative ^ (subtract & !x_larger) ^ swapped;
    // A zero sum: a sum of like signs is zero only for two zeros, which
    // keep their sign; a difference gives -0 only toward -inf, for two
    // zeros ((+0) + (-0)) and for terms that cancel alike.
    let zero_negative = sel(subtract, down, x.negative);
    let v = Exact {
        negative,
        sig: s,
        exp: big_exp,
    };
    (v, zero_negative)
}

/// An exact value of lane `W` in the lane `L` (as wide or narrower),
/// normalised: its leading bit at `L`'s second-highest (a bit of headroom
/// for the rounding increment), the bits of `W` below `L`'s width less one
/// folded into a sticky last bit (a zero stays 0). `L` keeps 31 or 63
/// bits, more than the 11, 24 or 53 bits plus a guard bit above the
/// sticky bit that the rounding reads; normalising first, in `W`, takes
/// one leading-zero count for both the narrowing and the rounding.
#[inline(always)]
pub fn normalised_top<W: Lane, E: Exponent, L: Lane>(v: Exact<W, E>) -> Exact<L> {
    // A zero stays 0.
    let (sig, lz) = v.sig.shl_leading();
    let exp = L::Exp::from_i64(v.exp.to_i64()) - L::Exp::from_i64(lz.to_i64());
    let drop = W::BITS as i32 - L::BITS as i32 + 1;
    let sig = if W::BITS > 64 {
        // Two `u64` halves: narrowed by whole halves (the low one, if
        // nonzero, a sticky bit), then one bit lower in `L`, its last bit
        // into the sticky bit; one shift by `drop` would cross the halves.
        let lost = sig.shl(kwe::<W>(L::BITS as i32)) != W::ZERO;
        let top = L::from_u64(sig.shr(kwe::<W>(drop - 1)).to_u64());
        let t = top.shr(kwe::<L>(1)) | (top & L::ONE);
        sel(lost, t | L::ONE, t)
    } else {
        // One shift; the `drop` low bits, moved to the top, a sticky bit.
        let lost = sig.shl(kwe::<W>(W::BITS as i32 - drop)) != W::ZERO;
        let t = L::from_u64(sig.shr(kwe::<W>(drop)).to_u64());
        sel(lost, t | L::ONE, t)
    };
    Exact {
        negative: v.negative,
        sig,
        exp: exp + kwe::<L>(drop),
    }
}

/// The one rounding of an exact value to format `F` (ARITH §1, §3, §4),
/// in the format's lane: rounded under FP_ROUND to 11, 24 or 53 bits or to
/// the subnormal grid, whichever is coarser. The value is **tiny** when
/// rounding it to the format's precision with an unbounded exponent gives
/// a nonzero magnitude below the smallest normal (tininess after rounding
/// [hw gfx1100, gfx1201]; the policy can judge it before rounding
/// instead, on the exact value); a tiny value becomes the zero of its sign when
/// the output flush or OMOD says so (`LanePolicy::flush_tiny`). Overflow
/// gives infinity or the largest finite value by FP_ROUND, or always the
/// largest with FP16_OVFL (`LanePolicy::overflow`). A zero `sig` gives the
/// zero of `v.negative`.
#[inline(always)]
pub fn round<F: Format>(v: Exact<F::Lane>, p: &LanePolicy<F>) -> F::Lane {
    round_top::<F>(normalised_top::<F::Lane, _, F::Lane>(v), p)
}

/// [`round`] of an exact value of the wide lane (FMA's sum).
#[inline(always)]
pub fn round_wide<F: Format>(v: WideExact<F>, p: &LanePolicy<F>) -> F::Lane {
    round_top::<F>(normalised_top::<F::Wide, _, F::Lane>(v), p)
}

/// [`round_wide`] of a sum from [`aligned_sum`]: `v` has the sign of a
/// nonzero sum, `zero_negative` is the sign of a zero one.
#[inline(always)]
pub fn round_wide_sum<F: Format>(
    v: WideExact<F>,
    zero_negative: bool,
    p: &LanePolicy<F>,
) -> F::Lane {
    round_signed::<F>(normalised_top::<F::Wide, _, F::Lane>(v), zero_negative, p)
}

/// [`round`] of a [`normalised_top`] value.
#[inline(always)]
fn round_top<F: Format>(v: Exact<F::Lane>, p: &LanePolicy<F>) -> F::Lane {
    round_signed::<F>(v, v.negative, p)
}

/// [`round_top`] with the sign of a zero `v.sig` given apart.
#[inline(always)]
fn round_signed<F: Format>(v: Exact<F::Lane>, zero_negative: bool, p: &LanePolicy<F>) -> F::Lane {
    type E<F> = <<F as Format>::Lane as Lane>::Exp;
    let k = |x: u64| kw::<F::Lane>(x);
    let ke = |x: i32| -> E<F> { kwe::<F::Lane>(x) };
    let zero = F::Lane::ZERO;
    let one = F::Lane::ONE;
    let bits = F::Lane::BITS as i32;
    let man = ke(F::MAN as i32);
    // Normalised: the leading bit one below the top, so rounding to the
    // precision drops a constant number of bits, and a rounding increment
    // added below the kept bits never carries out of the lane. (A zero
    // stays 0.)
    let (sig, exp) = (v.sig, v.exp);
    let precision_shift = bits - 2 - F::MAN as i32;
    // The value's binary exponent.
    let e = exp + ke(bits - 2);
    // Bits discarded, `s`: the precision's, or more down to the subnormal
    // grid 2^(EMIN - MAN); at most BITS (the leading bit then lies below
    // half a unit, as it does for any larger count). `guard_at` is the
    // guard bit's position, `s - 1`, at most BITS - 1 (written so that
    // the compiler sees the bound and needs no select for a shift by the
    // width).
    let guard_at = ke(precision_shift - 1)
        .max(ke(F::EMIN - F::MAN as i32 - 1) - exp)
        .min(ke(bits - 1));
    // The rounded kept bits as (sig + increment) >> s, in two shifts (by
    // `s - 1`, then by one), with the increment of
    // `LanePolicy::round_increment`: no compare of the guard and sticky
    // bits, so the rounding is a few additions and shifts.
    let half = one.shl(guard_at);
    let odd = sig.shr(guard_at).shr(ke(1)) & one;
    let (add, bump) = p.round_increment(v.negative, half.sub(one), odd);
    let kept = sig.add(add).shr(guard_at).add(bump).shr(ke(1));
    // A normal value: its exponent field minus one above the significand
    // with its hidden bit, so a carry out of the significand steps the
    // exponent. A subnormal: the kept units of 2^(EMIN - MAN) themselves (a
    // carry out of the largest gives the smallest normal).
    let field = F::Lane::from_exp((e - ke(F::EMIN)).max(ke(0))).shl(man);
    let magnitude = field.add(kept);
    // Overflow, by the magnitude alone: a value above EMAX has a field of
    // at least EMAX - EMIN + 1 and a hidden bit, so the infinity's
    // encoding or more. No wrap: a sum, product or FMA of the format, with
    // OMOD's scale, has `e` at most 2 EMAX + 4, whose field (3 EMAX + 5:
    // 50, 386, 3074) fits the lane's bits above MAN.
    let overflow = magnitude >= k(F::INF);

    // Tininess after rounding: the value rounded to MAN + 1 bits with an
    // unbounded exponent (a constant shift here) is below 2^EMIN unless it
    // carries from just below into it.
    let kept_p = sig.shr(ke(precision_shift));
    let guard_p = sig.shr(ke(precision_shift - 1)) & one != zero;
    let sticky_p = sig & k((1u64 << (precision_shift - 1)) - 1) != zero;
    let up_p = p.rounds_up(v.negative, kept_p & one != zero, guard_p, sticky_p);
    let carries = kept_p.add(F::Lane::from_bool(up_p)).shr(man + ke(1)) != zero;
    let below = (e < ke(F::EMIN - 1)) | ((e == ke(F::EMIN - 1)) & !carries);
    // Before rounding (`tininess: before_rounding`): the exact value below.
    let below = sel(p.tiny_before_rounding, e < ke(F::EMIN), below);
    let tiny = (v.sig != zero) & below;

    let sign = sel(v.negative, k(F::SIGN), zero);
    let r = sel(overflow, p.overflow(v.negative), sign | magnitude);
    let r = sel(tiny & p.flush_tiny, sign, r);
    sel(v.sig == zero, sel(zero_negative, k(F::SIGN), zero), r)
}
