//! Source modifiers, denormal flushing, overflow, OMOD and CLAMP: the steps
//! shared by every operation (docs/semantics.md §3, §5.4 and §6).

use super::format::{exp_field, is_nan, is_subnormal, Format};
use super::policy::{Omod, Policy, Round};

/// Step 2: ABS clears the sign, then NEG flips it. Sign-bit operations only,
/// so a NaN payload is untouched.
#[inline(always)]
pub fn source_modifiers<F: Format>(x: u64, p: &Policy) -> u64 {
    let x = if p.abs { x & F::ABS_MASK } else { x };
    if p.neg {
        x ^ F::SIGN
    } else {
        x
    }
}

/// Step 3: a subnormal source becomes a zero of the same sign when input
/// denormals are not kept.
#[inline(always)]
pub fn flush_input<F: Format>(x: u64, p: &Policy) -> u64 {
    if !p.keep_input_denorm && is_subnormal::<F>(x) {
        x & F::SIGN
    } else {
        x
    }
}

/// Steps 2 and 3 together: the source value an operation sees.
#[inline(always)]
pub fn prepare_source<F: Format>(x: u64, p: &Policy) -> u64 {
    flush_input::<F>(source_modifiers::<F>(x, p), p)
}

/// A NaN result from a NaN source: the quiet bit set (sign and payload kept)
/// unless the policy keeps signalling NaNs.
#[inline(always)]
pub fn propagate_nan<F: Format>(x: u64, p: &Policy) -> u64 {
    if p.quiet_snan {
        x | F::QUIET_BIT
    } else {
        x
    }
}

/// The result of an overflowing magnitude with sign `negative`
/// (docs/semantics.md §5.4): infinity or the largest finite value by FP_ROUND, or
/// always the largest finite value when F16 overflow saturates.
#[inline(always)]
pub fn overflow<F: Format>(negative: bool, p: &Policy) -> u64 {
    let sign = if negative { F::SIGN } else { 0 };
    let to_inf = !p.saturate_overflow
        && match p.round {
            Round::NearestEven => true,
            Round::TowardPositive => !negative,
            Round::TowardNegative => negative,
            Round::TowardZero => false,
        };
    sign | if to_inf { F::INF } else { F::MAX }
}

/// Step 5: OMOD on the rounded result (docs/semantics.md §6). The policy's
/// `omod` is already `None` where the target's gate keeps it off.
#[inline(always)]
pub fn apply_omod<F: Format>(x: u64, p: &Policy) -> u64 {
    let steps: u64 = match p.omod {
        Omod::None => return x,
        Omod::Mul2 => 1,
        Omod::Mul4 => 2,
        Omod::Div2 => 0,
    };
    let mag = x & F::ABS_MASK;
    if mag >= F::INF {
        // NaN or infinity: unchanged, not quieted here.
        return x;
    }
    if mag < F::MIN_NORMAL {
        // Zero or subnormal: +0, for negative inputs too.
        return 0;
    }
    let sign = x & F::SIGN;
    let e = exp_field::<F>(x);
    if p.omod == Omod::Div2 {
        if e == 1 {
            // The smallest normals halve to a zero of the input's sign [hw].
            return sign;
        }
        return x - (1 << F::MAN);
    }
    if e + steps >= exp_field::<F>(F::INF) {
        return overflow::<F>(sign != 0, p);
    }
    x + (steps << F::MAN)
}

/// Step 6: CLAMP to [+0, 1.0]; NaN becomes +0 when the policy says so.
#[inline(always)]
pub fn apply_clamp<F: Format>(x: u64, p: &Policy) -> u64 {
    if !p.clamp {
        return x;
    }
    if is_nan::<F>(x) {
        return if p.clamp_nan_to_zero { 0 } else { x };
    }
    if x & F::SIGN != 0 {
        return 0;
    }
    if x > F::ONE {
        return F::ONE;
    }
    x
}

/// Steps 5 and 6.
#[inline(always)]
pub fn output_modifiers<F: Format>(x: u64, p: &Policy) -> u64 {
    apply_clamp::<F>(apply_omod::<F>(x, p), p)
}
