//! V_LDEXP: src0 * 2^src1 with one rounding (docs/semantics.md §5).

use super::format::{exp_field, Format};
use super::fract::Rounding;
use super::modifiers::{output_modifiers, overflow, prepare_source, propagate_nan};
use super::policy::Policy;

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

/// LDEXP of one encoding of format `F` by the exponent `exp` (already read
/// as the instruction's integer operand: i16 for F16, i32 otherwise).
#[inline]
pub fn ldexp<F: Format>(src: u64, exp: i32, p: &Policy) -> u64 {
    output_modifiers::<F>(ldexp_rounded::<F>(prepare_source::<F>(src, p), exp, p), p)
}

/// Step 4 for LDEXP: the rounded, output-flushed result of a prepared source.
#[inline]
pub fn ldexp_rounded<F: Format>(s: u64, exp: i32, p: &Policy) -> u64 {
    ldexp_detail::<F>(s, exp, p).0
}

/// Step 4 for LDEXP, with the rule applied and what rounding did.
#[inline(always)]
pub fn ldexp_detail<F: Format>(s: u64, exp: i32, p: &Policy) -> (u64, LdexpCase, Rounding) {
    let exact = Rounding::default();
    let mag = s & F::ABS_MASK;
    let sign = s & F::SIGN;
    if mag > F::INF {
        return (propagate_nan::<F>(s, p), LdexpCase::Nan, exact);
    }
    if mag == F::INF || mag == 0 {
        // Infinities and zeros (also from the input flush) pass through.
        return (s, LdexpCase::PassThrough, exact);
    }
    let field = exp_field::<F>(s);
    // Normalise: |s| = sig * 2^(e - MAN) with sig in [2^MAN, 2^(MAN+1)).
    let (e, sig) = if field == 0 {
        let lead = 63 - mag.leading_zeros(); // < MAN
        (F::EMIN - (F::MAN - lead) as i32, mag << (F::MAN - lead))
    } else {
        (field as i32 - F::BIAS, F::HIDDEN | (mag & F::MAN_MASK))
    };
    // Shifts beyond +-(EMAX + MAN + 3) all saturate to full overflow or
    // underflow, so clamping the operand first changes no result.
    let limit = F::EMAX + F::MAN as i32 + 3;
    let n = e + exp.clamp(-4 * limit, 4 * limit);
    if n > F::EMAX {
        let inexact = Rounding {
            inexact: true,
            ..exact
        };
        return (overflow::<F>(sign != 0, p), LdexpCase::Overflow, inexact);
    }
    if n >= F::EMIN {
        // In the normal range the result is exact.
        let bits = sign | (((n + F::BIAS) as u64) << F::MAN) | (sig & F::MAN_MASK);
        return (bits, LdexpCase::Normal, exact);
    }
    // Tiny, judged on the exact value: below the smallest normal.
    if p.flush_tiny() {
        // Flushed to a signed zero even where rounding would reach the
        // smallest normal, in every mode [gfx1201 capture].
        return (
            sign,
            LdexpCase::Tiny,
            Rounding {
                inexact: true,
                flushed: true,
                ..exact
            },
        );
    }
    // Round to a subnormal: units of 2^(EMIN - MAN).
    let shift = ((F::EMIN - n) as u32).min(F::MAN + 3); // >= 1
    let kept = sig >> shift;
    let guard = sig >> (shift - 1) & 1 != 0;
    let sticky = sig & ((1u64 << (shift - 1)) - 1) != 0;
    let up = p.round.rounds_up(sign != 0, kept & 1 != 0, guard, sticky);
    // A carry out of the largest subnormal gives the smallest normal.
    let rounding = Rounding {
        inexact: guard || sticky,
        rounded_up: up,
        ..exact
    };
    (sign | (kept + u64::from(up)), LdexpCase::Tiny, rounding)
}
