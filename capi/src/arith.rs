//! ADD, SUB, SUBREV, MUL and FMA on caller arrays of raw encodings: one
//! call is one VOP3 instruction over `n` lanes, through
//! `amdgpu_valu::lanes::arith` (the arithmetic kernels, writing straight
//! into `dst`).

use amdgpu_valu::lanes::{self, ArithMods, ArithOp, LaneBits, LaneOp, Prepared};
use amdgpu_valu::{Omod, Target};

use crate::{
    check_array, fast_arrays, fast_other, guard, slice, slice_mut, target, AvaluStatus, Error,
};

/// The VOP3 modifiers of one arithmetic instruction, as the encoding holds
/// them. `abs` and `neg` are 3-bit masks, bit 0 for src0, bit 1 for src1
/// and bit 2 for src2 (FMA only): ABS clears the source's sign, NEG then
/// flips it. A nonzero `clamp` turns CLAMP on; `omod` is the 2-bit OMOD
/// field (0 none, 1 mul:2, 2 mul:4, 3 div:2). Bits above the operation's
/// sources and an OMOD above 3 are refused. Whether OMOD takes effect
/// follows the target's rule (and MODE), as on hardware.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AvaluArithMods {
    /// ABS per source: bit 0 src0, bit 1 src1, bit 2 src2.
    pub abs: u8,
    /// NEG per source (after ABS): bit 0 src0, bit 1 src1, bit 2 src2.
    pub neg: u8,
    /// CLAMP on the result.
    pub clamp: u8,
    /// OMOD as encoded: 0 none, 1 mul:2, 2 mul:4, 3 div:2.
    pub omod: u8,
}

pub(crate) fn arith_mods(m: AvaluArithMods) -> Result<ArithMods, Error> {
    if m.omod > 3 {
        return Err(Error::invalid(format!(
            "omod {} is not an OMOD field value (0 to 3)",
            m.omod
        )));
    }
    for (what, bits) in [("abs", m.abs), ("neg", m.neg)] {
        if bits > 7 {
            return Err(Error::invalid(format!(
                "{what} {bits:#x} has bits above src2 (a 3-bit mask: bit 0 src0, bit 1 src1, bit 2 src2)"
            )));
        }
    }
    let mask = |bits: u8| [0, 1, 2].map(|i| bits >> i & 1 != 0);
    Ok(ArithMods {
        abs: mask(m.abs),
        neg: mask(m.neg),
        omod: Omod::from_field(u32::from(m.omod)),
        clamp: m.clamp != 0,
    })
}

const CHUNK: usize = 64;
const NAMES: [&str; 3] = ["src0", "src1", "src2"];

fn overlap(a: &core::ops::Range<usize>, b: &core::ops::Range<usize>) -> bool {
    a.start < b.end && b.start < a.end
}

/// One arithmetic call, the common case first: `n` above 0, every source
/// the operation reads (and `exec`) usable and apart from `dst`, the
/// target and modifiers valid (tested without a branch per array or a
/// message), then the lane API on the caller's arrays; anything else (an
/// error, an empty call, `dst` one of the sources) through
/// [`run_checked`], which makes every check in turn and names the failing
/// one. `op` is a constant at each entry, so the source count folds.
///
/// # Safety
/// As [`run_checked`].
#[allow(clippy::too_many_arguments)]
#[inline(always)]
unsafe fn run<T: LaneBits>(
    op: ArithOp,
    target_id: u32,
    mode: u32,
    mods: AvaluArithMods,
    exec: *const u64,
    srcs: [*const T; 3],
    dst: *mut T,
    n: usize,
) -> Result<(), Error> {
    let k = op.sources();
    let [s0, s1, s2] = srcs;
    let d = dst.cast_const();
    let arrays = if k == 3 {
        fast_arrays(d, [s0, s1, s2], n)
    } else {
        fast_arrays(d, [s0, s1], n)
    };
    let dst_bytes = n.wrapping_mul(core::mem::size_of::<T>());
    let fast = arrays
        & (exec.is_null() || fast_other(d, dst_bytes, exec, n.div_ceil(CHUNK)))
        & (mods.omod <= 3)
        & (mods.abs <= 7)
        & (mods.neg <= 7);
    let target = Target::ALL.get(target_id as usize);
    let (true, Some(&target)) = (fast, target) else {
        // SAFETY: forwarded caller contract.
        return unsafe { run_checked(op, target_id, mode, mods, exec, srcs, dst, n) };
    };
    let mask = |bits: u8| [0, 1, 2].map(|i| bits >> i & 1 != 0);
    let mods = ArithMods {
        abs: mask(mods.abs),
        neg: mask(mods.neg),
        omod: Omod::from_field(u32::from(mods.omod)),
        clamp: mods.clamp != 0,
    };
    // SAFETY: every source the operation reads checked non-NULL, aligned
    // and not overflowing (n > 0), and dst overlaps none of them; valid by
    // the caller's contract.
    let (a, b, dst) = unsafe {
        (
            core::slice::from_raw_parts(s0, n),
            core::slice::from_raw_parts(s1, n),
            core::slice::from_raw_parts_mut(dst, n),
        )
    };
    let three;
    let srcs: &[&[T]] = if k == 3 {
        // SAFETY: as above.
        three = [a, b, unsafe { core::slice::from_raw_parts(s2, n) }];
        &three
    } else {
        three = [a, b, b];
        three.get(..2).unwrap_or(&[])
    };
    if exec.is_null() {
        lanes::arith(op, target, mode, mods, srcs, dst)?;
    } else {
        // SAFETY: as above.
        let e = unsafe { core::slice::from_raw_parts(exec, n.div_ceil(CHUNK)) };
        lanes::arith_exec(op, target, mode, mods, e, srcs, dst)?;
    }
    Ok(())
}

/// One arithmetic call with every check in turn (the first failing one
/// named), then the lanes in place of the caller's arrays (or through
/// chunk copies when `dst` is one of the sources).
///
/// # Safety
/// As the public functions: each non-NULL pointer of `srcs` (the first
/// `op.sources()`) and `dst` is valid for `n` elements, `exec` NULL or
/// valid for `ceil(n / 64)` words.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
#[cold]
unsafe fn run_checked<T: LaneBits>(
    op: ArithOp,
    target_id: u32,
    mode: u32,
    mods: AvaluArithMods,
    exec: *const u64,
    srcs: [*const T; 3],
    dst: *mut T,
    n: usize,
) -> Result<(), Error> {
    let target = target(target_id)?;
    let mods = arith_mods(mods)?;
    let srcs = srcs.get(..op.sources()).unwrap_or(&[]);
    let dst_r = check_array(dst.cast_const(), n, "dst")?;
    let mut aliased = false;
    for (&src, name) in srcs.iter().zip(NAMES) {
        let r = check_array(src, n, name)?;
        // dst may be a source itself (an instruction whose destination is
        // a source register); any other overlap would change a source
        // mid-call. Sources may overlap one another: they are only read.
        if overlap(&r, &dst_r) {
            if r != dst_r {
                return Err(Error::invalid(format!(
                    "dst overlaps {name} without being the same array"
                )));
            }
            aliased = true;
        }
    }
    let words = n.div_ceil(CHUNK);
    let exec = if exec.is_null() {
        None
    } else {
        if overlap(&check_array(exec, words, "exec")?, &dst_r) {
            return Err(Error::invalid("exec overlaps dst"));
        }
        // SAFETY: checked non-NULL, aligned, not overflowing and apart
        // from dst; valid by the caller's contract.
        Some(unsafe { slice(exec, words, "exec")? })
    };
    if aliased {
        // SAFETY: forwarded; the ranges were checked above.
        return unsafe { run_aliased(op, target, mode, mods, exec, srcs, dst, n) };
    }
    let mut lanes_in: [&[T]; 3] = [&[]; 3];
    for ((slot, &src), name) in lanes_in.iter_mut().zip(srcs).zip(NAMES) {
        // SAFETY: checked above; no source overlaps dst.
        *slot = unsafe { slice(src, n, name)? };
    }
    let srcs = lanes_in.get(..op.sources()).unwrap_or(&[]);
    // SAFETY: checked above, and overlapping no other array.
    let dst = unsafe { slice_mut(dst, n, "dst")? };
    match exec {
        None => lanes::arith(op, target, mode, mods, srcs, dst)?,
        Some(e) => lanes::arith_exec(op, target, mode, mods, e, srcs, dst)?,
    }
    Ok(())
}

/// [`run`] when `dst` is one of the sources: the instruction prepared
/// once, then [`crate::prepared::run_aliased`] (each 64-lane chunk copied
/// in, computed and copied out, so no Rust reference aliases another).
///
/// # Safety
/// As [`run`], with every range already checked.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
#[cold]
unsafe fn run_aliased<T: LaneBits>(
    op: ArithOp,
    target: amdgpu_valu::Target,
    mode: u32,
    mods: ArithMods,
    exec: Option<&[u64]>,
    srcs: &[*const T],
    dst: *mut T,
    n: usize,
) -> Result<(), Error> {
    let p = Prepared::<T>::new(target, LaneOp::from(op), mode, mods)?;
    // SAFETY: forwarded; `run_aliased` takes the same contract.
    unsafe { crate::prepared::run_aliased(&p, exec, srcs, &[], dst, n) }
}

/// The C entry point of one operation and format: two or three sources.
macro_rules! binary {
    ($op:expr, $target:ident, $mode:ident, $mods:ident, $exec:ident, $a:ident, $b:ident, $dst:ident, $n:ident) => {
        // SAFETY: forwarded caller contract.
        guard(|| unsafe {
            run(
                $op,
                $target,
                $mode,
                $mods,
                $exec,
                [$a, $b, core::ptr::null()],
                $dst,
                $n,
            )
        })
    };
}

/// V_ADD_F16 over `n` lanes: `dst[i] = src0[i] + src1[i]`, rounded once, as
/// the VOP3 form on `target` computes it under MODE `mode` with `mods`.
/// `exec` is NULL (every lane is written) or `ceil(n / 64)` words: lane `i`
/// is written only when bit `i % 64` of `exec[i / 64]` is set. `dst` may be
/// one of the sources itself; other overlaps with `dst` are refused.
/// Pointers may be NULL when `n` is 0.
///
/// # Safety
/// `src0`, `src1` and `dst` are NULL or valid for `n` elements, `exec`
/// NULL or valid for `ceil(n / 64)` words.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn avalu_add_f16(
    target: u32,
    mode: u32,
    mods: AvaluArithMods,
    exec: *const u64,
    src0: *const u16,
    src1: *const u16,
    dst: *mut u16,
    n: usize,
) -> AvaluStatus {
    binary!(ArithOp::Add, target, mode, mods, exec, src0, src1, dst, n)
}

/// V_ADD_F32 over `n` lanes: `dst[i] = src0[i] + src1[i]`, as
/// `avalu_add_f16`.
///
/// # Safety
/// As `avalu_add_f16`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn avalu_add_f32(
    target: u32,
    mode: u32,
    mods: AvaluArithMods,
    exec: *const u64,
    src0: *const u32,
    src1: *const u32,
    dst: *mut u32,
    n: usize,
) -> AvaluStatus {
    binary!(ArithOp::Add, target, mode, mods, exec, src0, src1, dst, n)
}

/// V_ADD_F64 over `n` lanes: `dst[i] = src0[i] + src1[i]`, as
/// `avalu_add_f16`.
///
/// # Safety
/// As `avalu_add_f16`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn avalu_add_f64(
    target: u32,
    mode: u32,
    mods: AvaluArithMods,
    exec: *const u64,
    src0: *const u64,
    src1: *const u64,
    dst: *mut u64,
    n: usize,
) -> AvaluStatus {
    binary!(ArithOp::Add, target, mode, mods, exec, src0, src1, dst, n)
}

/// V_SUB_F16 over `n` lanes: `dst[i] = src0[i] - src1[i]`, as
/// `avalu_add_f16`. (No target has V_SUB_F64.)
///
/// # Safety
/// As `avalu_add_f16`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn avalu_sub_f16(
    target: u32,
    mode: u32,
    mods: AvaluArithMods,
    exec: *const u64,
    src0: *const u16,
    src1: *const u16,
    dst: *mut u16,
    n: usize,
) -> AvaluStatus {
    binary!(ArithOp::Sub, target, mode, mods, exec, src0, src1, dst, n)
}

/// V_SUB_F32 over `n` lanes: `dst[i] = src0[i] - src1[i]`, as
/// `avalu_add_f16`.
///
/// # Safety
/// As `avalu_add_f16`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn avalu_sub_f32(
    target: u32,
    mode: u32,
    mods: AvaluArithMods,
    exec: *const u64,
    src0: *const u32,
    src1: *const u32,
    dst: *mut u32,
    n: usize,
) -> AvaluStatus {
    binary!(ArithOp::Sub, target, mode, mods, exec, src0, src1, dst, n)
}

/// V_SUBREV_F16 over `n` lanes: `dst[i] = src1[i] - src0[i]` (a NaN in both
/// still gives src0's), as `avalu_add_f16`. (No target has V_SUBREV_F64.)
///
/// # Safety
/// As `avalu_add_f16`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn avalu_subrev_f16(
    target: u32,
    mode: u32,
    mods: AvaluArithMods,
    exec: *const u64,
    src0: *const u16,
    src1: *const u16,
    dst: *mut u16,
    n: usize,
) -> AvaluStatus {
    binary!(
        ArithOp::Subrev,
        target,
        mode,
        mods,
        exec,
        src0,
        src1,
        dst,
        n
    )
}

/// V_SUBREV_F32 over `n` lanes: `dst[i] = src1[i] - src0[i]`, as
/// `avalu_add_f16`.
///
/// # Safety
/// As `avalu_add_f16`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn avalu_subrev_f32(
    target: u32,
    mode: u32,
    mods: AvaluArithMods,
    exec: *const u64,
    src0: *const u32,
    src1: *const u32,
    dst: *mut u32,
    n: usize,
) -> AvaluStatus {
    binary!(
        ArithOp::Subrev,
        target,
        mode,
        mods,
        exec,
        src0,
        src1,
        dst,
        n
    )
}

/// V_MUL_F16 over `n` lanes: `dst[i] = src0[i] * src1[i]`, as
/// `avalu_add_f16`.
///
/// # Safety
/// As `avalu_add_f16`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn avalu_mul_f16(
    target: u32,
    mode: u32,
    mods: AvaluArithMods,
    exec: *const u64,
    src0: *const u16,
    src1: *const u16,
    dst: *mut u16,
    n: usize,
) -> AvaluStatus {
    binary!(ArithOp::Mul, target, mode, mods, exec, src0, src1, dst, n)
}

/// V_MUL_F32 over `n` lanes: `dst[i] = src0[i] * src1[i]`, as
/// `avalu_add_f16`.
///
/// # Safety
/// As `avalu_add_f16`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn avalu_mul_f32(
    target: u32,
    mode: u32,
    mods: AvaluArithMods,
    exec: *const u64,
    src0: *const u32,
    src1: *const u32,
    dst: *mut u32,
    n: usize,
) -> AvaluStatus {
    binary!(ArithOp::Mul, target, mode, mods, exec, src0, src1, dst, n)
}

/// V_MUL_F64 over `n` lanes: `dst[i] = src0[i] * src1[i]`, as
/// `avalu_add_f16`.
///
/// # Safety
/// As `avalu_add_f16`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn avalu_mul_f64(
    target: u32,
    mode: u32,
    mods: AvaluArithMods,
    exec: *const u64,
    src0: *const u64,
    src1: *const u64,
    dst: *mut u64,
    n: usize,
) -> AvaluStatus {
    binary!(ArithOp::Mul, target, mode, mods, exec, src0, src1, dst, n)
}

/// V_FMA_F16 over `n` lanes: `dst[i] = src0[i] * src1[i] + src2[i]` with one
/// rounding, as `avalu_add_f16`; `mods` may name src2 (bit 2).
///
/// # Safety
/// `src0`, `src1`, `src2` and `dst` are NULL or valid for `n` elements,
/// `exec` NULL or valid for `ceil(n / 64)` words.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn avalu_fma_f16(
    target: u32,
    mode: u32,
    mods: AvaluArithMods,
    exec: *const u64,
    src0: *const u16,
    src1: *const u16,
    src2: *const u16,
    dst: *mut u16,
    n: usize,
) -> AvaluStatus {
    // SAFETY: forwarded caller contract.
    guard(|| unsafe {
        run(
            ArithOp::Fma,
            target,
            mode,
            mods,
            exec,
            [src0, src1, src2],
            dst,
            n,
        )
    })
}

/// V_FMA_F32 over `n` lanes: `dst[i] = src0[i] * src1[i] + src2[i]`, as
/// `avalu_fma_f16`.
///
/// # Safety
/// As `avalu_fma_f16`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn avalu_fma_f32(
    target: u32,
    mode: u32,
    mods: AvaluArithMods,
    exec: *const u64,
    src0: *const u32,
    src1: *const u32,
    src2: *const u32,
    dst: *mut u32,
    n: usize,
) -> AvaluStatus {
    // SAFETY: forwarded caller contract.
    guard(|| unsafe {
        run(
            ArithOp::Fma,
            target,
            mode,
            mods,
            exec,
            [src0, src1, src2],
            dst,
            n,
        )
    })
}

/// V_FMA_F64 over `n` lanes: `dst[i] = src0[i] * src1[i] + src2[i]`, as
/// `avalu_fma_f16`.
///
/// # Safety
/// As `avalu_fma_f16`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn avalu_fma_f64(
    target: u32,
    mode: u32,
    mods: AvaluArithMods,
    exec: *const u64,
    src0: *const u64,
    src1: *const u64,
    src2: *const u64,
    dst: *mut u64,
    n: usize,
) -> AvaluStatus {
    // SAFETY: forwarded caller contract.
    guard(|| unsafe {
        run(
            ArithOp::Fma,
            target,
            mode,
            mods,
            exec,
            [src0, src1, src2],
            dst,
            n,
        )
    })
}
