//! V_FRACT: x - floor(x), always in [+0, 1) (docs/semantics.md §4).

use super::format::{exp_field, Format};
use super::modifiers::{output_modifiers, prepare_source, propagate_nan};
use super::policy::Policy;

/// Which rule of docs/semantics.md §4 a prepared source falls under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FractCase {
    /// NaN: quieted (per the target's policy), sign and payload kept.
    Nan,
    /// +-infinity: the negative quiet NaN.
    Infinity,
    /// +-0 or an integer: +0 in every rounding mode.
    ZeroOrInteger,
    /// Positive, below 1: x itself (then the output flush).
    BelowOne,
    /// |x| >= 0.5 and not an integer: the exact fraction (or 1 - it).
    ExactFraction,
    /// Negative, |x| < 0.5: 1 - |x|, rounded, capped at 1 - ulp.
    OneMinusSmall,
}

/// What rounding did to a result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rounding {
    /// The exact result was not representable.
    pub inexact: bool,
    /// The magnitude was rounded up.
    pub rounded_up: bool,
    /// FRACT: the result rounded to 1.0 and was capped at 1 - ulp.
    pub capped: bool,
    /// A subnormal result was flushed to zero.
    pub flushed: bool,
}

/// FRACT of one encoding of format `F` (steps 2 to 6 of docs/semantics.md
/// §3), on the widened raw bits.
#[inline]
pub fn fract<F: Format>(src: u64, p: &Policy) -> u64 {
    output_modifiers::<F>(fract_rounded::<F>(prepare_source::<F>(src, p), p), p)
}

/// Step 4 for FRACT: the rounded, output-flushed result of a prepared source.
#[inline]
pub fn fract_rounded<F: Format>(s: u64, p: &Policy) -> u64 {
    fract_detail::<F>(s, p).0
}

/// Step 4 for FRACT, with the rule applied and what rounding did.
#[inline(always)]
pub fn fract_detail<F: Format>(s: u64, p: &Policy) -> (u64, FractCase, Rounding) {
    let exact = Rounding::default();
    let mag = s & F::ABS_MASK;
    let negative = s & F::SIGN != 0;
    if mag > F::INF {
        return (propagate_nan::<F>(s, p), FractCase::Nan, exact);
    }
    if mag == F::INF {
        // Either infinity gives the negative quiet NaN [gfx1201 capture].
        return (F::NEG_QUIET_NAN, FractCase::Infinity, exact);
    }
    if mag == 0 {
        // +-0 gives +0 in every rounding mode [gfx1201 capture].
        return (0, FractCase::ZeroOrInteger, exact);
    }
    let field = exp_field::<F>(s);
    // Unbiased exponent; a subnormal has the smallest normal's exponent and
    // no hidden bit.
    let (e, sig) = if field == 0 {
        (F::EMIN, mag)
    } else {
        (field as i32 - F::BIAS, F::HIDDEN | (mag & F::MAN_MASK))
    };
    if e >= F::MAN as i32 {
        // Every such value is an integer: +0 in every mode [gfx1201 capture].
        return (0, FractCase::ZeroOrInteger, exact);
    }
    if e >= -1 {
        // |x| >= 0.5: the fraction bits are exact; value = frac * 2^(e - MAN).
        let frac_bits = (F::MAN as i32 - e) as u32; // 1..=MAN+1
        let frac = sig & ((1u64 << frac_bits) - 1);
        if frac == 0 {
            return (0, FractCase::ZeroOrInteger, exact);
        }
        let r = if negative {
            (1u64 << frac_bits) - frac
        } else {
            frac
        };
        if !negative && e == -1 {
            return (s, FractCase::BelowOne, exact);
        }
        return (
            normalize_exact::<F>(r, e - F::MAN as i32),
            FractCase::ExactFraction,
            exact,
        );
    }
    if !negative {
        // 0 < x < 0.5: x itself; only a subnormal x can need the output flush.
        if field == 0 && !p.keep_output_denorm {
            return (
                0,
                FractCase::BelowOne,
                Rounding {
                    flushed: true,
                    ..exact
                },
            );
        }
        return (s, FractCase::BelowOne, exact);
    }
    // Negative, |x| < 0.5: 1 - |x| in (0.5, 1), rounded once in units of
    // 2^-(MAN+1). |x| * 2^(MAN+1) = sig / 2^shift; shifts past MAN+3 round
    // the same way, so they are clamped.
    let shift = ((-1 - e) as u32).min(F::MAN + 3);
    let int_part = sig >> shift;
    let rest = sig & ((1u64 << shift) - 1);
    let half = 1u64 << (shift - 1);
    // 1 - |x| = (2^(MAN+1) - int_part - 1) + (2^shift - rest) / 2^shift
    // when rest != 0, exactly 2^(MAN+1) - int_part otherwise.
    let (mut kept, guard, sticky) = if rest == 0 {
        ((1u64 << (F::MAN + 1)) - int_part, false, false)
    } else {
        let discarded = (1u64 << shift) - rest;
        (
            (1u64 << (F::MAN + 1)) - int_part - 1,
            discarded & half != 0,
            discarded & (half - 1) != 0,
        )
    };
    // The result is positive: toward zero acts as toward -inf.
    let up = p.round.rounds_up(false, kept & 1 != 0, guard, sticky);
    kept += u64::from(up);
    let rounding = Rounding {
        inexact: guard || sticky,
        rounded_up: up,
        ..exact
    };
    if kept >> (F::MAN + 1) != 0 {
        // Rounded to 1.0: the result is capped at 1 - ulp [gfx1201, all formats].
        return (
            F::ONE_MINUS_ULP,
            FractCase::OneMinusSmall,
            Rounding {
                capped: true,
                ..rounding
            },
        );
    }
    // kept is in [2^MAN, 2^(MAN+1)): exponent -1.
    let bits = (((F::BIAS - 1) as u64) << F::MAN) | (kept & F::MAN_MASK);
    (bits, FractCase::OneMinusSmall, rounding)
}

/// Encode the exact positive value `r * 2^q` (r nonzero, at most MAN+1 bits),
/// known to be a normal number.
#[inline(always)]
fn normalize_exact<F: Format>(r: u64, q: i32) -> u64 {
    let top = 63 - r.leading_zeros(); // position of the leading 1
    let sig = r << (F::MAN - top);
    let e = q + top as i32;
    (((e + F::BIAS) as u64) << F::MAN) | (sig & F::MAN_MASK)
}
