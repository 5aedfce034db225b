//! V_ADD, V_SUB, V_SUBREV: one signed-magnitude addition, rounded once
//! (ARITH §1, §5).
//!
//! SUB is src0 + (-src1) and SUBREV (-src0) + src1, as IEEE subtraction:
//! the sign flip applies to a number, not to a NaN (`sub_nan: ieee`, the
//! default; `negate_subtrahend` flips a NaN subtrahend too;
//! docs/semantics.md §10.9), and the NaN priority stays src0 then src1
//! (the encoding's order, SUBREV included). Branch-free, as `fract.rs`.

use super::format::Format;
use super::lane::{sel, Lane};
use super::modifiers::{k, output_modifiers, prepare_operand, LanePolicy, SourceMods};
use super::round::{round, scaled, sum, unpack};

/// Which operand the sum negates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AddSign {
    /// V_ADD: src0 + src1.
    Add,
    /// V_SUB: src0 - src1.
    Sub,
    /// V_SUBREV: src1 - src0.
    Subrev,
}

impl AddSign {
    /// The sign masks of src0 and src1 (`SIGN` where negated, else 0).
    #[inline(always)]
    fn flips<F: Format>(self) -> (F::Lane, F::Lane) {
        let sign = k::<F>(F::SIGN);
        let zero = F::Lane::ZERO;
        match self {
            AddSign::Add => (zero, zero),
            AddSign::Sub => (zero, sign),
            AddSign::Subrev => (sign, zero),
        }
    }
}

/// ADD/SUB/SUBREV of one lane, steps 2 to 7 of ARITH §9. `OUT` instantiates
/// the output-modifier step (as for [`super::fract::fract_lane`]).
#[inline(always)]
pub fn add_lane<F: Format, const OUT: bool>(
    op: AddSign,
    src0: F::Lane,
    src1: F::Lane,
    mods: &[SourceMods<F>; 2],
    p: &LanePolicy<F>,
) -> F::Lane {
    let a = prepare_operand::<F>(src0, &mods[0], p);
    let b = prepare_operand::<F>(src1, &mods[1], p);
    let r = add_rounded::<F>(op, a, b, p, 0);
    if OUT {
        output_modifiers::<F>(r, p)
    } else {
        r
    }
}

/// Steps 4 to 6 on prepared sources: the rounded, output-flushed sum (of
/// the exact sum times 2^`scale`: 0 but in SDWA's `scaled_before_rounding`
/// order, `scaled.rs`).
#[inline(always)]
pub fn add_rounded<F: Format>(
    op: AddSign,
    a: F::Lane,
    b: F::Lane,
    p: &LanePolicy<F>,
    scale: i32,
) -> F::Lane {
    let inf = k::<F>(F::INF);
    let (ma, mb) = (a & k::<F>(F::ABS_MASK), b & k::<F>(F::ABS_MASK));
    let (nan_a, nan_b) = (ma > inf, mb > inf);
    let (flip_a, flip_b) = op.flips::<F>();
    // IEEE subtraction negates a number, not a NaN (`sub_nan: ieee`);
    // `negate_subtrahend` negates a NaN subtrahend too, as NEG would.
    let keep = !p.negate_nan_subtrahend;
    let a = sel(nan_a & keep, a, a ^ flip_a);
    let b = sel(nan_b & keep, b, b ^ flip_b);
    // In the format's lane: two encodings' significands leave room for the
    // aligned sum (`round::sum`), the larger magnitude first.
    let a_larger = (a & k::<F>(F::ABS_MASK)) >= (b & k::<F>(F::ABS_MASK));
    let exact = sum::<F::Lane>(
        unpack::<F, F::Lane>(sel(a_larger, a, b)),
        unpack::<F, F::Lane>(sel(a_larger, b, a)),
        p.toward_negative(),
        Some(F::MAN),
    );
    let r = round::<F>(scaled(exact, scale), p);
    // The special cases apart, chosen once at the end (as in `fma.rs`).
    // An infinite term gives itself; inf - inf is invalid.
    let s = sel(ma == inf, a, b);
    let invalid = (ma == inf) & (mb == inf) & (a != b);
    let s = sel(invalid, k::<F>(F::NEG_QUIET_NAN), s);
    // The first NaN in encoding order, quieted per the target (ARITH §5.2).
    let s = sel(nan_b, b | p.nan_or, s);
    let s = sel(nan_a, a | p.nan_or, s);
    sel((ma >= inf) | (mb >= inf), s, r)
}
