//! V_LDEXP: src0 * 2^src1 with one rounding (docs/semantics.md §5).
//!
//! The one implementation, branch-free, as for FRACT (see `fract.rs`).

use super::format::Format;
use super::lane::{sel, Lane};
use super::modifiers::{k, ke, output_modifiers, prepare_source, LanePolicy};

/// LDEXP of one lane by `exp` (already read as the instruction's integer
/// operand: i16 for F16, i32 otherwise), steps 2 to 6. `OUT` as for
/// [`super::fract::fract_lane`].
#[inline(always)]
pub fn ldexp_lane<F: Format, const OUT: bool>(
    src: F::Lane,
    exp: i32,
    p: &LanePolicy<F>,
) -> F::Lane {
    let r = ldexp_rounded::<F>(prepare_source::<F>(src, p), exp, p);
    if OUT {
        output_modifiers::<F>(r, p)
    } else {
        r
    }
}

/// Step 4 of LDEXP on a prepared source: the rounded, output-flushed result.
#[inline(always)]
pub fn ldexp_rounded<F: Format>(s: F::Lane, exp: i32, p: &LanePolicy<F>) -> F::Lane {
    let zero = F::Lane::ZERO;
    let one = F::Lane::ONE;
    let man = ke::<F>(F::MAN as i32);
    let mag = s & k::<F>(F::ABS_MASK);
    let sign = s & k::<F>(F::SIGN);
    let negative = sign != zero;
    let field = mag.shr(man).to_exp();
    // Normalise: |s| = sig * 2^(e - MAN), sig in [2^MAN, 2^(MAN+1)). The
    // shift is 0 for a normal source.
    let norm = (mag.lz() - ke::<F>((F::Lane::BITS - 1 - F::MAN) as i32)).max(ke::<F>(0));
    let hidden = sel(field == ke::<F>(0), zero, k::<F>(F::HIDDEN));
    let sig = ((mag & k::<F>(F::MAN_MASK)) | hidden).shl(norm);
    let e = field.max(ke::<F>(1)) - ke::<F>(F::BIAS) - norm;
    // Shifts beyond +-(EMAX + MAN + 3) all saturate to full overflow or
    // underflow, so clamping the operand first changes no result.
    let limit = F::EMAX + F::MAN as i32 + 3;
    let n = e + <F::Lane as Lane>::Exp::from(exp.clamp(-4 * limit, 4 * limit));

    // In the normal range the result is exact.
    let normal =
        sign | F::Lane::from_exp(n + ke::<F>(F::BIAS)).shl(man) | (sig & k::<F>(F::MAN_MASK));
    // Tiny, judged at full precision: flushed to a signed zero (even where
    // rounding would reach the smallest normal, in every mode [gfx1201
    // capture]), or rounded to a subnormal in units of 2^(EMIN - MAN) (a
    // carry out of the largest subnormal gives the smallest normal).
    let shift = (ke::<F>(F::EMIN) - n).min(ke::<F>(F::MAN as i32 + 3));
    let kept = sig.shr(shift);
    let guard = sig.shr(shift - ke::<F>(1)) & one != zero;
    let sticky = sig & one.shl(shift - ke::<F>(1)).sub(one) != zero;
    let up = p.rounds_up(negative, kept & one != zero, guard, sticky);
    let tiny = sel(p.flush_tiny, sign, sign | kept.add(F::Lane::from_bool(up)));

    let r = sel(
        n > ke::<F>(F::EMAX),
        p.overflow(negative),
        sel(n >= ke::<F>(F::EMIN), normal, tiny),
    );
    // Infinities and zeros (also from the input flush) pass through; a NaN
    // is quieted (per the target's policy), sign and payload kept.
    let r = sel((mag == zero) | (mag == k::<F>(F::INF)), s, r);
    sel(mag > k::<F>(F::INF), s | p.nan_or, r)
}
