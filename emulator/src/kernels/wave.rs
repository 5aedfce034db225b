//! The lane kernels instantiated over a container of lanes (a whole wave).
//!
//! The policy is decided once; each lane runs the same per-lane kernel. EXEC
//! is not seen here: the executor only writes back active lanes.

use super::format::Format;
use super::policy::Policy;
use super::{fract, ldexp};

/// An operation in scope, as a type so executors can be monomorphised.
pub trait Operation: Copy + 'static {
    /// ISA name stem (`fract`, `ldexp`).
    const NAME: &'static str;
    /// Whether the instruction takes LDEXP's integer exponent operand.
    const HAS_EXPONENT: bool;
    /// One lane, on the widened encoding.
    fn lane<F: Format>(src: u64, exp: i32, p: &Policy) -> u64;
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
    fn lane<F: Format>(src: u64, _exp: i32, p: &Policy) -> u64 {
        fract::<F>(src, p)
    }
}

impl Operation for Ldexp {
    const NAME: &'static str = "ldexp";
    const HAS_EXPONENT: bool = true;
    #[inline(always)]
    fn lane<F: Format>(src: u64, exp: i32, p: &Policy) -> u64 {
        ldexp::<F>(src, exp, p)
    }
}

/// Run operation `O` over every lane of `src` (with `exp` the per-lane
/// exponents; ignored by FRACT), writing `dst`. The slices are zipped: the
/// shortest bounds the lanes processed.
pub fn run_lanes<O: Operation, F: Format>(
    src: &[F::Bits],
    exp: &[i32],
    dst: &mut [F::Bits],
    p: &Policy,
) {
    for ((d, &s), &e) in dst.iter_mut().zip(src).zip(exp) {
        *d = F::narrow(O::lane::<F>(F::widen(s), e, p));
    }
}

/// Which implementation runs the lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KernelPath {
    /// The per-lane kernel in a loop (always available; the reference path).
    Scalar,
    /// The whole-wave kernel chosen at run time for this CPU.
    Simd,
}

/// Run operation `O` over the lanes on the chosen path. Both paths give
/// identical bits for every input.
pub fn run_lanes_on<O: Operation, F: Format>(
    path: KernelPath,
    src: &[F::Bits],
    exp: &[i32],
    dst: &mut [F::Bits],
    p: &Policy,
) {
    match path {
        // The SIMD path is not written yet; it falls back to the scalar loop.
        KernelPath::Scalar | KernelPath::Simd => run_lanes::<O, F>(src, exp, dst, p),
    }
}
