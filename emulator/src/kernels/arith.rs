//! The entry points of the arithmetic operations (ADD, SUB, SUBREV, MUL,
//! FMA): a whole instruction over slices of encodings ([`arith_slices`])
//! or over a wave's register words ([`run_arith`], the executor's), each
//! run by the dispatcher (`dispatch`) on the same path and instruction-set
//! variant as FRACT/LDEXP; [`last_variant`](super::dispatch::last_variant)
//! reports what ran.

pub use super::arith_kernel::{
    arith_lane, AddKernel, ArithInstr, ArithKernel, ArithOp, FmaKernel, MulKernel, SourceModifiers,
    SubKernel, SubrevKernel,
};
pub use super::arith_loop::{ArithIo, ArithJob, ArithLanes, ArithSlices};

use super::dispatch::{kernel_path, run_job, run_job_on, Isa, KernelPath};
use super::format::Format;
use super::policy::Policy;

/// Run `op` over `lanes` on `path` (or, with `isa`, in that
/// instruction-set variant; false, touching nothing, when the CPU lacks
/// it). The one place an `ArithOp` value becomes a kernel type.
#[inline(always)]
fn run_op<F: Format, L: ArithLanes<F>>(
    op: ArithOp,
    path: KernelPath,
    isa: Option<Isa>,
    lanes: &mut L,
    p: &Policy,
    mods: u8,
) -> bool {
    #[inline(always)]
    fn go<K: ArithKernel, F: Format, L: ArithLanes<F>>(
        path: KernelPath,
        isa: Option<Isa>,
        lanes: &mut L,
        p: &Policy,
        mods: u8,
    ) -> bool {
        let mut job = ArithJob::<K, F, L>::new(lanes, p, mods);
        match isa {
            Some(isa) => run_job_on(isa, &mut job),
            None => {
                run_job(path, &mut job);
                true
            }
        }
    }
    match op {
        ArithOp::Add => go::<AddKernel, F, L>(path, isa, lanes, p, mods),
        ArithOp::Sub => go::<SubKernel, F, L>(path, isa, lanes, p, mods),
        ArithOp::Subrev => go::<SubrevKernel, F, L>(path, isa, lanes, p, mods),
        ArithOp::Mul => go::<MulKernel, F, L>(path, isa, lanes, p, mods),
        ArithOp::Fma => go::<FmaKernel, F, L>(path, isa, lanes, p, mods),
    }
}

/// `op` over the lanes of `dst`, reading `a`, `b` and `c` lane by lane
/// (lanes past the shortest slice the operation reads are left alone; `c`
/// is read only by FMA and may be empty otherwise), under the one policy
/// `p` (its own ABS/NEG fields are ignored; `mods` gives each source's).
/// Dispatched: the process-wide path ([`kernel_path`]) in the best
/// instruction-set variant of this CPU.
pub fn arith_slices<F: Format>(
    op: ArithOp,
    p: &Policy,
    mods: SourceModifiers,
    a: &[F::Bits],
    b: &[F::Bits],
    c: &[F::Bits],
    dst: &mut [F::Bits],
) {
    arith_slices_on::<F>(kernel_path(), op, p, mods, [a, b, c], dst);
}

/// [`arith_slices`] on a chosen path.
pub fn arith_slices_on<F: Format>(
    path: KernelPath,
    op: ArithOp,
    p: &Policy,
    mods: SourceModifiers,
    src: [&[F::Bits]; 3],
    dst: &mut [F::Bits],
) {
    run_op::<F, _>(
        op,
        path,
        None,
        &mut ArithSlices { src, dst },
        p,
        mods.bits(),
    );
}

/// [`arith_slices`] in the vectorised loop compiled for `isa`; false,
/// touching nothing, when this CPU lacks it.
pub fn arith_slices_isa<F: Format>(
    isa: Isa,
    op: ArithOp,
    p: &Policy,
    mods: SourceModifiers,
    src: [&[F::Bits]; 3],
    dst: &mut [F::Bits],
) -> bool {
    let path = KernelPath::Simd;
    run_op::<F, _>(
        op,
        path,
        Some(isa),
        &mut ArithSlices { src, dst },
        p,
        mods.bits(),
    )
}

/// One arithmetic instruction over a wave, for the executor: `op` in
/// format `F` on the register words of `io` (see [`ArithIo`]: each
/// source's words by lane, src0 optionally DPP-gathered, the destination
/// words with the half to keep, EXEC) under `p` (built by
/// `Policy::new::<F>` from the target's rules, MODE, OMOD and CLAMP; its
/// ABS/NEG fields are ignored) and each source's ABS/NEG in `mods`. Every
/// active lane below `io.dst_lo.len()` (at most 64) is computed and
/// written; inactive lanes keep their words. Runs on the process-wide path
/// ([`kernel_path`]) in the best variant this CPU has, like
/// [`run_dispatched`](super::dispatch::run_dispatched) for FRACT/LDEXP.
///
/// FMAC: src2 is the destination's old words (same lane and half, or the
/// pair); FMAMK: src1 is K in every lane, src2 the encoded src1; FMAAK:
/// src2 is K. SDWA sources are their extracted fields; the SDWA result
/// merge (dst_sel/dst_unused) is the executor's, on the written words.
///
/// Inlined, with the match on `op`, as
/// [`run_dispatched`](super::dispatch::run_dispatched) is: the executor
/// then calls the variant itself (about 1 ns per call less than through
/// this function's own frame).
#[inline(always)]
pub fn run_arith<F: Format>(op: ArithOp, io: &mut ArithIo<'_>, p: &Policy, mods: SourceModifiers) {
    run_arith_packed::<F>(op, io, p, mods.bits());
}

/// [`run_arith`] with the sources' ABS/NEG packed as
/// [`SourceModifiers::bits`] packs them (a noted shape keeps them so).
#[inline(always)]
pub fn run_arith_packed<F: Format>(op: ArithOp, io: &mut ArithIo<'_>, p: &Policy, mods: u8) {
    run_op::<F, _>(op, kernel_path(), None, io, p, mods);
}

/// [`run_arith`] on a chosen path, or (with `isa`) in that variant; false
/// when the CPU lacks `isa`.
pub fn run_arith_on<F: Format>(
    path: KernelPath,
    isa: Option<Isa>,
    op: ArithOp,
    io: &mut ArithIo<'_>,
    p: &Policy,
    mods: SourceModifiers,
) -> bool {
    run_op::<F, _>(op, path, isa, io, p, mods.bits())
}
