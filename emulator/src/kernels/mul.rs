//! V_MUL: the exact product rounded once (ARITH §1, §5). Branch-free, as
//! `fract.rs`.

use super::format::Format;
use super::lane::{sel, Lane};
use super::modifiers::{k, output_modifiers, prepare_operand, LanePolicy, SourceMods};
use super::round::{product, round_wide, scaled, unpack};

/// MUL of one lane, steps 2 to 7 of ARITH §9. `OUT` as for
/// [`super::fract::fract_lane`].
#[inline(always)]
pub fn mul_lane<F: Format, const OUT: bool>(
    src0: F::Lane,
    src1: F::Lane,
    mods: &[SourceMods<F>; 2],
    p: &LanePolicy<F>,
) -> F::Lane {
    let a = prepare_operand::<F>(src0, &mods[0], p);
    let b = prepare_operand::<F>(src1, &mods[1], p);
    let r = mul_rounded::<F>(a, b, p, 0);
    if OUT {
        output_modifiers::<F>(r, p)
    } else {
        r
    }
}

/// Steps 4 to 6 on prepared sources: the rounded, output-flushed product
/// (times 2^`scale`, as for [`super::add::add_rounded`]). A zero product
/// has the sign src0 XOR src1 (ARITH §1.2).
#[inline(always)]
pub fn mul_rounded<F: Format>(a: F::Lane, b: F::Lane, p: &LanePolicy<F>, scale: i32) -> F::Lane {
    let zero = F::Lane::ZERO;
    let inf = k::<F>(F::INF);
    let (ma, mb) = (a & k::<F>(F::ABS_MASK), b & k::<F>(F::ABS_MASK));
    let sign = (a ^ b) & k::<F>(F::SIGN);
    // The exact product of the significands as unpacked (a subnormal's
    // without its leading zeros removed) in the wide lane, normalised and
    // narrowed there with one leading-zero count, and rounded in the
    // format's lane.
    let x = unpack::<F, F::Lane>(a);
    let y = unpack::<F, F::Lane>(b);
    let r = round_wide::<F>(scaled(product::<F>(x, y), scale), p);
    // The special cases apart, chosen once at the end (as in `fma.rs`).
    // 0 x inf is invalid: the negative canonical NaN (ARITH §5.1).
    let invalid = ((ma == inf) & (mb == zero)) | ((ma == zero) & (mb == inf));
    let s = sel(invalid, k::<F>(F::NEG_QUIET_NAN), sign | inf);
    let s = sel(mb > inf, b | p.nan_or, s);
    let s = sel(ma > inf, a | p.nan_or, s);
    sel((ma >= inf) | (mb >= inf), s, r)
}
