//! The operations in scope, as types, so the lane loops and the executor
//! are monomorphised per operation.

use super::format::Format;
use super::fract::fract_lane;
use super::ldexp::ldexp_lane;
use super::modifiers::LanePolicy;

/// An operation: its name, whether it takes LDEXP's exponent operand, and
/// its one lane kernel.
pub trait Operation: Copy + 'static {
    /// ISA name stem (`fract`, `ldexp`).
    const NAME: &'static str;
    /// Whether the instruction takes LDEXP's integer exponent operand.
    const HAS_EXPONENT: bool;
    /// One lane of the kernel on a lowered policy (`exp` ignored by FRACT;
    /// `OUT` as for [`fract_lane`]). The body of every lane loop, vectorised
    /// or one lane at a time.
    fn lane<F: Format, const OUT: bool>(src: F::Lane, exp: i32, p: &LanePolicy<F>) -> F::Lane;
}

/// V_FRACT_*.
#[derive(Clone, Copy, Debug, Default)]
pub struct Fract;
/// V_LDEXP_*.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ldexp;

impl Operation for Fract {
    const NAME: &'static str = "fract";
    const HAS_EXPONENT: bool = false;
    #[inline(always)]
    fn lane<F: Format, const OUT: bool>(src: F::Lane, _exp: i32, p: &LanePolicy<F>) -> F::Lane {
        fract_lane::<F, OUT>(src, p)
    }
}

impl Operation for Ldexp {
    const NAME: &'static str = "ldexp";
    const HAS_EXPONENT: bool = true;
    #[inline(always)]
    fn lane<F: Format, const OUT: bool>(src: F::Lane, exp: i32, p: &LanePolicy<F>) -> F::Lane {
        ldexp_lane::<F, OUT>(src, exp, p)
    }
}
