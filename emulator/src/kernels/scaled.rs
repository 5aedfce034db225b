//! The "scaled before rounding" order of OMOD for SDWA F16 results
//! (`sdwa_f16_output: scaled_before_rounding`, docs/semantics.md §10): OMOD
//! scales the exact result by 2, 4 or 1/2 and the scaled value is rounded
//! to the format once, instead of OMOD acting on the rounded result
//! ([`super::modifiers::output_modifiers`], the measured "rounded" order).
//!
//! One lane at a time, built from the scalar rules: LDEXP is
//! [`ldexp_rounded`] with OMOD's power of two added to the exponent; FRACT
//! is [`fract_rounded`] without the output flush (the exact fraction, or a
//! normal result in (0.5, 1) rounded once, where scaling by a power of two
//! commutes with rounding) then [`ldexp_rounded`] by OMOD's power, which
//! rounds the scaled value once and flushes. OMOD's
//! tiny-result flush ([`Policy::flush_tiny`]) still holds; CLAMP follows.

use super::add::{add_rounded, AddSign};
use super::arith_kernel::ArithOp;
use super::fma::fma_rounded;
use super::format::Format;
use super::fract::fract_rounded;
use super::lane::Lane;
use super::ldexp::ldexp_rounded;
use super::modifiers::{output_modifiers, prepare_operand, prepare_source, LanePolicy, SourceMods};
use super::mul::mul_rounded;
use super::policy::{Omod, Policy};

/// OMOD as a power of two.
fn omod_power(omod: Omod) -> i32 {
    match omod {
        Omod::None => 0,
        Omod::Mul2 => 1,
        Omod::Mul4 => 2,
        Omod::Div2 => -1,
    }
}

/// The policy of the scaled order, lowered once per instruction: the
/// instruction's own lane policy, the same with output subnormals kept (the
/// fraction before OMOD), and CLAMP alone (OMOD already applied).
#[derive(Clone, Copy, Debug)]
pub struct ScaledBeforeRounding<F: Format> {
    omod_power: i32,
    own: LanePolicy<F>,
    keep_subnormals: LanePolicy<F>,
    clamp_only: LanePolicy<F>,
}

impl<F: Format> ScaledBeforeRounding<F> {
    /// Lower `p` for the scaled order.
    pub fn new(p: &Policy) -> ScaledBeforeRounding<F> {
        ScaledBeforeRounding {
            omod_power: omod_power(p.omod),
            own: LanePolicy::new(p),
            keep_subnormals: LanePolicy::new(&Policy {
                keep_output_denorm: true,
                ..*p
            }),
            clamp_only: LanePolicy::new(&Policy {
                omod: Omod::None,
                ..*p
            }),
        }
    }

    /// One lane's result of LDEXP (`exp` is `Some`) or FRACT on the raw
    /// source `src`, with OMOD scaling before the one rounding, then CLAMP.
    /// The same branch-free steps as the kernels (`fract_rounded`,
    /// `ldexp_rounded`), in another order, one lane at a time.
    pub fn lane(&self, src: u64, exp: Option<i32>) -> u64 {
        let k = self.omod_power;
        let s = prepare_source::<F>(F::Lane::from_u64(src), &self.own);
        let scaled = match exp {
            // A huge exponent saturates inside the kernel; the sum only has
            // to stay an i32.
            Some(e) => ldexp_rounded::<F>(s, e.saturating_add(k), &self.own),
            None if k == 0 => fract_rounded::<F>(s, &self.own),
            // The fraction before any output flush, scaled and rounded once
            // (with the output flush and OMOD's tiny-result flush).
            None => ldexp_rounded::<F>(fract_rounded::<F>(s, &self.keep_subnormals), k, &self.own),
        };
        output_modifiers::<F>(scaled, &self.clamp_only).to_u64()
    }
}

impl<F: Format> ScaledBeforeRounding<F> {
    /// One lane of the arithmetic operation `op` (ADD, SUB, SUBREV, MUL,
    /// FMA) on the raw sources `src` (encoding order; `src[2]` read by FMA
    /// only) with each source's ABS/NEG `mods`: the kernel's own steps
    /// (`add_rounded`, `mul_rounded`, `fma_rounded`) with OMOD's power added
    /// to the exact result's exponent before its one rounding (with the
    /// output flush and OMOD's tiny-result flush), then CLAMP. NaN, infinite
    /// and invalid lanes are as in the kernel (OMOD leaves them alone).
    pub fn arith_lane(&self, op: ArithOp, src: [u64; 3], mods: &[SourceMods<F>; 3]) -> u64 {
        let k = self.omod_power;
        let p = &self.own;
        let [a, b, c] =
            [0, 1, 2].map(|i| prepare_operand::<F>(F::Lane::from_u64(src[i]), &mods[i], p));
        let r = match op {
            ArithOp::Add => add_rounded::<F>(AddSign::Add, a, b, p, k),
            ArithOp::Sub => add_rounded::<F>(AddSign::Sub, a, b, p, k),
            ArithOp::Subrev => add_rounded::<F>(AddSign::Subrev, a, b, p, k),
            ArithOp::Mul => mul_rounded::<F>(a, b, p, k),
            ArithOp::Fma => fma_rounded::<F>(a, b, c, p, k),
        };
        output_modifiers::<F>(r, &self.clamp_only).to_u64()
    }
}
