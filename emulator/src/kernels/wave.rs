//! The lane kernels instantiated over a container of lanes (a whole wave).
//!
//! The policy is decided once; each lane runs the same per-lane kernel. EXEC
//! is not seen here: the executor only writes back active lanes.

use super::format::Format;
use super::policy::Policy;
use super::simd::LanePolicy;
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
    /// One lane of the branch-free kernel, on a lowered policy (`OUT` as
    /// for [`simd::fract_lane`]). The body of the register-file loops.
    fn simd_lane<F: Format, const OUT: bool>(src: F::Lane, exp: i32, p: &LanePolicy<F>) -> F::Lane;
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
    #[inline(always)]
    fn simd_lane<F: Format, const OUT: bool>(
        src: F::Lane,
        _exp: i32,
        p: &LanePolicy<F>,
    ) -> F::Lane {
        simd::fract_lane::<F, OUT>(src, p)
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
    #[inline(always)]
    fn simd_lane<F: Format, const OUT: bool>(src: F::Lane, exp: i32, p: &LanePolicy<F>) -> F::Lane {
        simd::ldexp_lane::<F, OUT>(src, exp, p)
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

/// One instruction's lanes on the register file: where the source words
/// come from and where the results go. The executor fills it once per
/// instruction; one dispatched call then reads, computes and writes back
/// every lane ([`run_io_dispatched`]).
///
/// A source word holds the operand as a register does: an F16 operand is
/// bits `src_shift..src_shift + 16` (16 for a true16 high half, else 0), an
/// F64 operand is `src_hi:src_lo`. Every slice has at least `dst_lo.len()`
/// elements (the lanes processed), except the ones a format or operation
/// does not use (`src_hi`, `dst_hi` outside F64; `exp` for FRACT), which may
/// be empty.
#[derive(Debug)]
pub struct WaveIo<'a> {
    /// src0 words (the low dwords for F64).
    pub src_lo: &'a [u32],
    /// src0 high dwords (F64 only).
    pub src_hi: &'a [u32],
    /// Right shift bringing an F16 source to bits 15:0.
    pub src_shift: u32,
    /// LDEXP's exponent words (ignored by FRACT).
    pub exp: &'a [u32],
    /// Right shift bringing an F16 exponent operand to bits 15:0 (read as an i16).
    pub exp_shift: u32,
    /// The destination words (the low dwords for F64).
    pub dst_lo: &'a mut [u32],
    /// The destination high dwords (F64 only).
    pub dst_hi: &'a mut [u32],
    /// Bits of the old destination word a 16-bit result keeps.
    pub dst_keep: u32,
    /// Left shift placing a 16-bit result in its half.
    pub dst_shift: u32,
    /// Lane `i` is written only when bit `i` is set.
    pub exec: u64,
}

impl WaveIo<'_> {
    /// The encoding of lane `i`'s float source, widened.
    #[inline(always)]
    pub fn source<F: Format>(lo: u32, hi: u32, shift: u32) -> u64 {
        match F::WIDTH {
            64 => u64::from(hi) << 32 | u64::from(lo),
            32 => u64::from(lo),
            _ => u64::from(lo >> shift & 0xffff),
        }
    }

    /// The exponent operand of a lane from its word (F16: the selected
    /// 16 bits as an i16; F32/F64: all 32 bits).
    #[inline(always)]
    pub fn exponent<F: Format>(word: u32, shift: u32) -> i32 {
        if F::WIDTH == 16 {
            i32::from((word >> shift) as u16 as i16)
        } else {
            word as i32
        }
    }

    /// A 32-bit (or 16-bit) result merged into the old destination word.
    #[inline(always)]
    pub fn merge(old: u32, result: u64, keep: u32, shift: u32) -> u32 {
        (old & keep) | (result as u32) << shift
    }
}

/// [`WaveIo`] on the per-lane scalar kernel.
pub fn run_io_lanes<O: Operation, F: Format>(io: &mut WaveIo<'_>, p: &Policy) {
    let n = io.dst_lo.len();
    for lane in 0..n {
        if io.exec >> lane & 1 == 0 {
            continue;
        }
        let hi = if F::WIDTH == 64 { io.src_hi[lane] } else { 0 };
        let src = WaveIo::source::<F>(io.src_lo[lane], hi, io.src_shift);
        let exp = if O::HAS_EXPONENT {
            WaveIo::exponent::<F>(io.exp[lane], io.exp_shift)
        } else {
            0
        };
        let r = O::lane::<F>(src, exp, p);
        if F::WIDTH == 64 {
            io.dst_lo[lane] = r as u32;
            io.dst_hi[lane] = (r >> 32) as u32;
        } else {
            let d = &mut io.dst_lo[lane];
            *d = WaveIo::merge(*d, r, io.dst_keep, io.dst_shift);
        }
    }
}

/// Run [`WaveIo`] on the chosen path. Both paths give identical bits.
pub fn run_io_on<O: Operation, F: Format>(path: KernelPath, io: &mut WaveIo<'_>, p: &Policy) {
    match path {
        KernelPath::Scalar => {
            dispatch::record(dispatch::Variant::Scalar);
            run_io_lanes::<O, F>(io, p);
        }
        KernelPath::Simd => dispatch::run_io_simd::<O, F>(dispatch::selected(), io, p),
    }
}

/// Run [`WaveIo`] on the process-wide path (as [`run_lanes_dispatched`]).
#[inline]
pub fn run_io_dispatched<O: Operation, F: Format>(io: &mut WaveIo<'_>, p: &Policy) {
    run_io_on::<O, F>(dispatch::kernel_path(), io, p);
}
