//! The lane kernels instantiated over a container of lanes (a whole wave).
//!
//! The policy is decided once; each lane runs the same per-lane kernel. EXEC
//! is not seen here: the executor only writes back active lanes.

use super::format::Format;
use super::policy::Policy;
use super::{dispatch, fract, ldexp, simd};

/// An operation in scope, as a type so executors can be monomorphised.
pub trait Operation: Copy + 'static {
    /// ISA name stem (`fract`, `ldexp`).
    const NAME: &'static str;
    /// Whether the instruction takes LDEXP's integer exponent operand.
    const HAS_EXPONENT: bool;
    /// One lane, on the widened encoding (the scalar reference path).
    fn lane<F: Format>(src: u64, exp: i32, p: &Policy) -> u64;
    /// Every lane at once, branch-free (the SIMD path; `exp` ignored by
    /// FRACT). Inlined into each instruction-set variant of `dispatch`.
    fn wave<F: Format>(src: &[F::Bits], exp: &[i32], dst: &mut [F::Bits], p: &Policy);
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
    #[inline(always)]
    fn wave<F: Format>(src: &[F::Bits], exp: &[i32], dst: &mut [F::Bits], p: &Policy) {
        // The lane count is the shortest slice, as in `run_lanes`.
        let n = src.len().min(exp.len()).min(dst.len());
        simd::fract_wave::<F>(&src[..n], &mut dst[..n], p);
    }
}

impl Operation for Ldexp {
    const NAME: &'static str = "ldexp";
    const HAS_EXPONENT: bool = true;
    #[inline(always)]
    fn lane<F: Format>(src: u64, exp: i32, p: &Policy) -> u64 {
        ldexp::<F>(src, exp, p)
    }
    #[inline(always)]
    fn wave<F: Format>(src: &[F::Bits], exp: &[i32], dst: &mut [F::Bits], p: &Policy) {
        simd::ldexp_wave::<F>(src, exp, dst, p);
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
    /// The whole-wave kernel, in the instruction-set variant chosen at run
    /// time for this CPU ([`dispatch::selected`]).
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
        KernelPath::Scalar => {
            dispatch::record(dispatch::Variant::Scalar);
            run_lanes::<O, F>(src, exp, dst, p);
        }
        KernelPath::Simd => dispatch::run_simd::<O, F>(dispatch::selected(), src, exp, dst, p),
    }
}

/// Run operation `O` over the lanes on the process-wide path
/// ([`dispatch::kernel_path`]: SIMD unless `AMDGPU_VALU_FORCE_SCALAR=1` or
/// [`dispatch::set_kernel_path`] says otherwise). The executor calls this.
#[inline]
pub fn run_lanes_dispatched<O: Operation, F: Format>(
    src: &[F::Bits],
    exp: &[i32],
    dst: &mut [F::Bits],
    p: &Policy,
) {
    run_lanes_on::<O, F>(dispatch::kernel_path(), src, exp, dst, p);
}
