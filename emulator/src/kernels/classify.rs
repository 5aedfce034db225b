//! Which rule of docs/semantics.md §4/§5 a lane falls under, and what
//! rounding did: the words `explain` gives. This only describes a case; the
//! result bits always come from the one kernel (`fract.rs`, `ldexp.rs`).

use super::format::{exp_field, Format};
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

/// Which rule of docs/semantics.md §5 a prepared source falls under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LdexpCase {
    /// NaN: quieted (per the target's policy), sign and payload kept.
    Nan,
    /// +-infinity or +-0: unchanged.
    PassThrough,
    /// The result is in the normal range: exact.
    Normal,
    /// The result overflows: infinity or the largest finite value.
    Overflow,
    /// The exact result is below the smallest normal (tiny).
    Tiny,
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

/// Unbiased exponent and significand of a finite nonzero encoding (a
/// subnormal has the smallest normal's exponent and no hidden bit).
fn parts<F: Format>(s: u64) -> (i32, u64) {
    let mag = s & F::ABS_MASK;
    match exp_field::<F>(s) {
        0 => (F::EMIN, mag),
        field => (field as i32 - F::BIAS, F::HIDDEN | (mag & F::MAN_MASK)),
    }
}

/// The case and rounding of FRACT (step 4) on the prepared source `s`.
pub fn classify_fract<F: Format>(s: u64, p: &Policy) -> (FractCase, Rounding) {
    let none = Rounding::default();
    let mag = s & F::ABS_MASK;
    let negative = s & F::SIGN != 0;
    if mag > F::INF {
        return (FractCase::Nan, none);
    }
    if mag == F::INF {
        return (FractCase::Infinity, none);
    }
    if mag == 0 {
        return (FractCase::ZeroOrInteger, none);
    }
    let (e, sig) = parts::<F>(s);
    if e >= F::MAN as i32 {
        return (FractCase::ZeroOrInteger, none);
    }
    if e >= -1 {
        let frac = sig & ((1u64 << (F::MAN as i32 - e)) - 1);
        let case = if frac == 0 {
            FractCase::ZeroOrInteger
        } else if !negative && e == -1 {
            FractCase::BelowOne
        } else {
            FractCase::ExactFraction
        };
        return (case, none);
    }
    if !negative {
        let flushed = exp_field::<F>(s) == 0 && !p.keep_output_denorm;
        return (FractCase::BelowOne, Rounding { flushed, ..none });
    }
    // 1 - |x| in units of 2^-(MAN+1): |x| * 2^(MAN+1) = sig / 2^shift.
    let shift = ((-1 - e) as u32).min(F::MAN + 3);
    let rest = sig & ((1u64 << shift) - 1);
    let half = 1u64 << (shift - 1);
    let discarded = ((1u64 << shift) - rest) & ((1u64 << shift) - 1);
    let kept = (1u64 << (F::MAN + 1)) - (sig >> shift) - u64::from(rest != 0);
    let (guard, sticky) = (discarded & half != 0, discarded & (half - 1) != 0);
    let up = p.round.rounds_up(false, kept & 1 != 0, guard, sticky);
    let rounding = Rounding {
        inexact: rest != 0,
        rounded_up: up,
        capped: (kept + u64::from(up)) >> (F::MAN + 1) != 0,
        flushed: false,
    };
    (FractCase::OneMinusSmall, rounding)
}

/// The case and rounding of LDEXP (step 4) on the prepared source `s` and
/// the exponent operand `exp`.
pub fn classify_ldexp<F: Format>(s: u64, exp: i32, p: &Policy) -> (LdexpCase, Rounding) {
    let none = Rounding::default();
    let mag = s & F::ABS_MASK;
    if mag > F::INF {
        return (LdexpCase::Nan, none);
    }
    if mag == F::INF || mag == 0 {
        return (LdexpCase::PassThrough, none);
    }
    let (e, sig) = parts::<F>(s);
    // Normalise a subnormal: sig in [2^MAN, 2^(MAN+1)).
    let norm = sig.leading_zeros() as i32 - (63 - F::MAN as i32);
    let (e, sig) = (e - norm, sig << norm);
    let limit = F::EMAX + F::MAN as i32 + 3;
    let n = e + exp.clamp(-4 * limit, 4 * limit);
    if n > F::EMAX {
        let inexact = Rounding {
            inexact: true,
            ..none
        };
        return (LdexpCase::Overflow, inexact);
    }
    if n >= F::EMIN {
        return (LdexpCase::Normal, none);
    }
    if p.flush_tiny() {
        let flushed = Rounding {
            inexact: true,
            flushed: true,
            ..none
        };
        return (LdexpCase::Tiny, flushed);
    }
    let shift = ((F::EMIN - n) as u32).min(F::MAN + 3);
    let kept = sig >> shift;
    let guard = sig >> (shift - 1) & 1 != 0;
    let sticky = sig & ((1u64 << (shift - 1)) - 1) != 0;
    let up = p
        .round
        .rounds_up(s & F::SIGN != 0, kept & 1 != 0, guard, sticky);
    let rounding = Rounding {
        inexact: guard || sticky,
        rounded_up: up,
        ..none
    };
    (LdexpCase::Tiny, rounding)
}
