//! V_FRACT: x - floor(x), always in [+0, 1) (docs/semantics.md §4).
//!
//! The one implementation, branch-free: every lane evaluates every case and
//! the result is chosen by selects, so the same code serves a vectorised
//! loop over a wave and the scalar path's one lane at a time.

use super::format::Format;
use super::lane::{sel, Lane};
use super::modifiers::{k, ke, output_modifiers, prepare_source, LanePolicy};

/// FRACT of one lane (steps 2 to 6 of docs/semantics.md §3). `OUT`
/// instantiates the output-modifier step; it must be true whenever `p` has
/// OMOD or CLAMP.
#[inline(always)]
pub fn fract_lane<F: Format, const OUT: bool>(src: F::Lane, p: &LanePolicy<F>) -> F::Lane {
    let r = fract_rounded::<F>(prepare_source::<F>(src, p), p);
    if OUT {
        output_modifiers::<F>(r, p)
    } else {
        r
    }
}

/// Step 4 of FRACT on a prepared source: the rounded, output-flushed result.
#[inline(always)]
pub fn fract_rounded<F: Format>(s: F::Lane, p: &LanePolicy<F>) -> F::Lane {
    let zero = F::Lane::ZERO;
    let one = F::Lane::ONE;
    let man = ke::<F>(F::MAN as i32);
    let bias = ke::<F>(F::BIAS);
    let mag = s & k::<F>(F::ABS_MASK);
    // Negative and nonzero: -0 takes the positive path, whose result for
    // a zero magnitude is +0 (as for +0).
    let negative = s > k::<F>(F::SIGN);
    let field = mag.shr(man).to_exp();
    let subnormal_field = field == ke::<F>(0);
    // Unbiased exponent; a subnormal has the smallest normal's exponent and
    // no hidden bit.
    let e = field.max(ke::<F>(1)) - bias;
    let sig = (mag & k::<F>(F::MAN_MASK)) | sel(subnormal_field, zero, k::<F>(F::HIDDEN));

    // |x| >= 0.5: the exact fraction bits, renormalised. An integer
    // (e >= MAN) has no fraction bits, so frac is 0 and the result +0 in
    // every rounding mode [gfx1201 capture].
    let frac_bits = (man - e).max(ke::<F>(0));
    let unit = one.shl(frac_bits);
    let frac = sig & unit.sub(one);
    let r = sel(negative, unit.sub(frac), frac);
    let top = ke::<F>(F::Lane::BITS as i32 - 1) - r.lz();
    let exact =
        r.shl(man - top) & k::<F>(F::MAN_MASK) | F::Lane::from_exp(e - man + top + bias).shl(man);
    let exact = sel(frac == zero, zero, exact);

    // Positive, |x| < 0.5: x itself; a subnormal x meets the output flush.
    // +-0 gives +0 [gfx1201 capture].
    let small_positive = sel(subnormal_field & !p.keep_output_denorm, zero, mag);

    // Negative, |x| < 0.5: 1 - |x| rounded once in units of 2^-(MAN+1).
    // |x| * 2^(MAN+1) = sig / 2^shift, so 1 - |x| keeps
    // 2^(MAN+1) - ceil(sig / 2^shift) units and discards the low `shift`
    // bits of -sig, left-aligned here so that the top bit is the guard bit.
    let shift = (ke::<F>(-1) - e).min(ke::<F>(F::MAN as i32 + 3));
    let discarded = zero.sub(sig).shl(ke::<F>(F::Lane::BITS as i32) - shift);
    let top_bit = k::<F>(1 << (F::Lane::BITS - 1));
    let inexact = discarded != zero;
    let guard = discarded >= top_bit;
    let sticky = discarded & !top_bit != zero;
    let kept = k::<F>(1 << (F::MAN + 1))
        .sub(sig.shr(shift))
        .sub(F::Lane::from_bool(inexact));
    // The result is positive: toward zero acts as toward -inf.
    let up = p.rounds_up(false, kept & one != zero, guard, sticky);
    // kept + up is in [2^MAN, 2^(MAN+1)]: exponent -1 with its hidden bit,
    // or exactly 1.0, which is capped at 1 - ulp [gfx1201, all formats].
    let small_negative = kept
        .add(F::Lane::from_bool(up))
        .add(k::<F>(((F::BIAS - 2) as u64) << F::MAN))
        .min(k::<F>(F::ONE_MINUS_ULP));

    let r = sel(
        e >= ke::<F>(-1),
        exact,
        sel(negative, small_negative, small_positive),
    );
    // NaN keeps sign and payload (quieted); either infinity gives the
    // negative quiet NaN [gfx1201 capture].
    let special = sel(
        mag == k::<F>(F::INF),
        k::<F>(F::NEG_QUIET_NAN),
        s | p.nan_or,
    );
    sel(mag >= k::<F>(F::INF), special, r)
}
