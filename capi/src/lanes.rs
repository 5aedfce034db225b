//! FRACT and LDEXP on caller arrays of raw encodings: one call is one VOP3
//! instruction over `n` lanes, through `amdgpu_valu::lanes` (the dispatched
//! SIMD kernels `execute` uses, in one call on the caller's arrays).

use core::ops::Range;

use amdgpu_valu::lanes::{self, LaneBits, LaneMods, LaneOp, Prepared};
use amdgpu_valu::{Omod, Target};

use crate::{
    check_array, fast_arrays, fast_other, guard, slice, slice_mut, target, AvaluStatus, Error,
};

/// The VOP3 modifiers of one instruction. A nonzero `abs`, `neg` or
/// `clamp` turns the modifier on; `omod` is the 2-bit OMOD field (0 none,
/// 1 mul:2, 2 mul:4, 3 div:2; above 3 is refused). Whether OMOD takes
/// effect follows the target's rule (and MODE), as on hardware.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AvaluMods {
    /// ABS on the float source.
    pub abs: u8,
    /// NEG on the float source (after ABS).
    pub neg: u8,
    /// CLAMP on the result.
    pub clamp: u8,
    /// OMOD as encoded: 0 none, 1 mul:2, 2 mul:4, 3 div:2.
    pub omod: u8,
}

#[inline]
fn lane_mods(m: AvaluMods) -> Result<LaneMods, Error> {
    if m.omod > 3 {
        return Err(Error::invalid(format!(
            "omod {} is not an OMOD field value (0 to 3)",
            m.omod
        )));
    }
    Ok(LaneMods {
        abs: m.abs != 0,
        neg: m.neg != 0,
        omod: Omod::from_field(u32::from(m.omod)),
        clamp: m.clamp != 0,
    })
}

const CHUNK: usize = 64;

fn overlap(a: &Range<usize>, b: &Range<usize>) -> bool {
    a.start < b.end && b.start < a.end
}

/// One call, the common case first: `n` above 0, every array usable and
/// apart from `dst`, the target and modifiers valid (tested without a
/// branch or a message), then the lane API on the caller's arrays;
/// anything else (an error, an empty call, `dst` the same array as a
/// source) through [`run_checked`], which makes every check in turn and
/// names the failing one. `LDEXP`: the operation reads `exp`.
///
/// # Safety
/// As [`run_checked`].
#[allow(clippy::too_many_arguments)]
#[inline(always)]
unsafe fn run<T: LaneBits, const LDEXP: bool>(
    target_id: u32,
    mode: u32,
    mods: AvaluMods,
    exec: *const u64,
    src: *const T,
    exp: *const i32,
    dst: *mut T,
    n: usize,
) -> AvaluStatus {
    guard(move || {
        let dst_bytes = n.wrapping_mul(core::mem::size_of::<T>());
        let fast = fast_arrays(dst.cast_const(), [src], n)
            & (!LDEXP | fast_other(dst.cast_const(), dst_bytes, exp, n))
            & (exec.is_null() || fast_other(dst.cast_const(), dst_bytes, exec, n.div_ceil(CHUNK)))
            & (mods.omod <= 3);
        let target = Target::ALL.get(target_id as usize);
        let (true, Some(&target)) = (fast, target) else {
            // SAFETY: forwarded caller contract.
            return unsafe { run_checked(LDEXP, target_id, mode, mods, exec, src, exp, dst, n) };
        };
        let mods = LaneMods {
            abs: mods.abs != 0,
            neg: mods.neg != 0,
            omod: Omod::from_field(u32::from(mods.omod)),
            clamp: mods.clamp != 0,
        };
        // SAFETY: every array the call reads checked non-NULL, aligned and
        // not overflowing (n > 0), and dst overlaps none of the others;
        // valid by the caller's contract.
        let (src, dst) = unsafe {
            (
                core::slice::from_raw_parts(src, n),
                core::slice::from_raw_parts_mut(dst, n),
            )
        };
        let exp: &[i32] = if LDEXP {
            // SAFETY: as above.
            unsafe { core::slice::from_raw_parts(exp, n) }
        } else {
            &[]
        };
        if exec.is_null() {
            if LDEXP {
                lanes::ldexp(target, mode, mods, src, exp, dst)?
            } else {
                lanes::fract(target, mode, mods, src, dst)?
            }
        } else {
            // SAFETY: as above.
            let e = unsafe { core::slice::from_raw_parts(exec, n.div_ceil(CHUNK)) };
            if LDEXP {
                lanes::ldexp_exec(target, mode, mods, e, src, exp, dst)?
            } else {
                lanes::fract_exec(target, mode, mods, e, src, dst)?
            }
        }
        Ok(())
    })
}

/// One call with every check in turn (the first failing one named).
///
/// # Safety
/// Each pointer is NULL or valid for `n` elements (`exec`: `ceil(n / 64)`
/// words), by the caller's contract.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
#[cold]
unsafe fn run_checked<T: LaneBits>(
    ldexp: bool,
    target_id: u32,
    mode: u32,
    mods: AvaluMods,
    exec: *const u64,
    src: *const T,
    exp: *const i32,
    dst: *mut T,
    n: usize,
) -> Result<(), Error> {
    let target = target(target_id)?;
    let mods = lane_mods(mods)?;
    let src_r = check_array(src, n, "src")?;
    let dst_r = check_array(dst.cast_const(), n, "dst")?;
    let exp_r = if ldexp {
        check_array(exp, n, "exp")?
    } else {
        0..0
    };
    let words = n.div_ceil(CHUNK);
    let exec_r = if exec.is_null() {
        0..0
    } else {
        check_array(exec, words, "exec")?
    };
    // dst may be src or exp itself (an instruction whose destination is a
    // source register); any other overlap would change sources mid-call.
    let same_src = overlap(&src_r, &dst_r);
    let same_exp = overlap(&exp_r, &dst_r);
    if (same_src && src_r != dst_r) || (same_exp && exp_r != dst_r) {
        return Err(Error::invalid(
            "dst overlaps src or exp without being the same array",
        ));
    }
    if overlap(&exec_r, &dst_r) {
        return Err(Error::invalid("exec overlaps dst"));
    }
    if same_src || same_exp {
        // SAFETY: forwarded; the ranges were checked above.
        return unsafe { run_aliased(ldexp, target, mode, mods, exec, src, exp, dst, n) };
    }
    // SAFETY: checked non-NULL (or n == 0), aligned, not overflowing, and
    // dst overlaps none of the others; valid by the caller's contract.
    let (src, dst) = unsafe { (slice(src, n, "src")?, slice_mut(dst, n, "dst")?) };
    let exp = if ldexp {
        // SAFETY: as above.
        unsafe { slice(exp, n, "exp")? }
    } else {
        &[]
    };
    let exec = if exec.is_null() {
        None
    } else {
        // SAFETY: as above.
        Some(unsafe { slice(exec, words, "exec")? })
    };
    match (ldexp, exec) {
        (false, None) => lanes::fract(target, mode, mods, src, dst)?,
        (false, Some(e)) => lanes::fract_exec(target, mode, mods, e, src, dst)?,
        (true, None) => lanes::ldexp(target, mode, mods, src, exp, dst)?,
        (true, Some(e)) => lanes::ldexp_exec(target, mode, mods, e, src, exp, dst)?,
    }
    Ok(())
}

/// [`run`] when `dst` is the same array as `src` or `exp`: each 64-lane
/// chunk is copied in, computed and copied out, so no Rust reference
/// aliases another.
///
/// # Safety
/// As [`run`], with every range already checked.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
#[cold]
unsafe fn run_aliased<T: LaneBits>(
    ldexp: bool,
    target: amdgpu_valu::Target,
    mode: u32,
    mods: LaneMods,
    exec: *const u64,
    src: *const T,
    exp: *const i32,
    dst: *mut T,
    n: usize,
) -> Result<(), Error> {
    let op = if ldexp { LaneOp::Ldexp } else { LaneOp::Fract };
    let p = Prepared::<T>::new(target, op, mode, mods.into())?;
    let mut s = [T::default(); CHUNK];
    let mut e = [0i32; CHUNK];
    let mut d = [T::default(); CHUNK];
    for c in 0..n.div_ceil(CHUNK) {
        let off = c * CHUNK;
        let len = CHUNK.min(n - off);
        // SAFETY: `off + len <= n` elements of each array, valid by
        // contract; the chunk buffers are local.
        let mask = unsafe {
            core::ptr::copy_nonoverlapping(src.add(off), s.as_mut_ptr(), len);
            core::ptr::copy_nonoverlapping(dst.add(off), d.as_mut_ptr(), len);
            if ldexp {
                core::ptr::copy_nonoverlapping(exp.add(off), e.as_mut_ptr(), len);
            }
            if exec.is_null() {
                u64::MAX
            } else {
                exec.add(c).read()
            }
        };
        let (s, d) = (&s[..len], &mut d[..len]);
        let e = if ldexp { &e[..len] } else { &[] };
        p.run_exec(&[mask], &[s], e, d)?;
        // SAFETY: as above.
        unsafe { core::ptr::copy_nonoverlapping(d.as_ptr(), dst.add(off), len) };
    }
    Ok(())
}

/// V_FRACT_F16 over `n` lanes: `dst[i] = FRACT(src[i])` as the VOP3 form on
/// `target` computes it under MODE `mode` with `mods` (the same bits as
/// executing that instruction). `exec` is NULL (every lane is written) or
/// `ceil(n / 64)` words: lane `i` is written only when bit `i % 64` of
/// `exec[i / 64]` is set. `dst` may be `src` itself; other overlaps are
/// refused. Pointers may be NULL when `n` is 0.
///
/// # Safety
/// `src` and `dst` are NULL or valid for `n` elements, `exec` NULL or
/// valid for `ceil(n / 64)` words.
#[no_mangle]
pub unsafe extern "C" fn avalu_fract_f16(
    target: u32,
    mode: u32,
    mods: AvaluMods,
    exec: *const u64,
    src: *const u16,
    dst: *mut u16,
    n: usize,
) -> AvaluStatus {
    let exp = core::ptr::null();
    // SAFETY: forwarded caller contract.
    unsafe { run::<_, false>(target, mode, mods, exec, src, exp, dst, n) }
}

/// V_LDEXP_F16 over `n` lanes: `dst[i] = src[i] * 2^exp[i]` as the VOP3 form
/// on `target` computes it under MODE `mode` with `mods`. `exp[i]` is the
/// exponent register's word: F32 and F64 read all 32 bits, F16 reads bits
/// 15:0 as a signed 16-bit integer as the hardware does (0x5a5affff is -1);
/// pass a `uint32_t` array by casting its pointer. `exec` as for FRACT.
/// `dst` may be `src` itself; other overlaps are refused.
///
/// # Safety
/// `src`, `exp` and `dst` are NULL or valid for `n` elements, `exec` NULL
/// or valid for `ceil(n / 64)` words.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn avalu_ldexp_f16(
    target: u32,
    mode: u32,
    mods: AvaluMods,
    exec: *const u64,
    src: *const u16,
    exp: *const i32,
    dst: *mut u16,
    n: usize,
) -> AvaluStatus {
    // SAFETY: forwarded caller contract.
    unsafe { run::<_, true>(target, mode, mods, exec, src, exp, dst, n) }
}

/// V_FRACT_F32 over `n` lanes: `dst[i] = FRACT(src[i])` as the VOP3 form on
/// `target` computes it under MODE `mode` with `mods` (the same bits as
/// executing that instruction). `exec` is NULL (every lane is written) or
/// `ceil(n / 64)` words: lane `i` is written only when bit `i % 64` of
/// `exec[i / 64]` is set. `dst` may be `src` itself; other overlaps are
/// refused. Pointers may be NULL when `n` is 0.
///
/// # Safety
/// `src` and `dst` are NULL or valid for `n` elements, `exec` NULL or
/// valid for `ceil(n / 64)` words.
#[no_mangle]
pub unsafe extern "C" fn avalu_fract_f32(
    target: u32,
    mode: u32,
    mods: AvaluMods,
    exec: *const u64,
    src: *const u32,
    dst: *mut u32,
    n: usize,
) -> AvaluStatus {
    let exp = core::ptr::null();
    // SAFETY: forwarded caller contract.
    unsafe { run::<_, false>(target, mode, mods, exec, src, exp, dst, n) }
}

/// V_LDEXP_F32 over `n` lanes: `dst[i] = src[i] * 2^exp[i]` as the VOP3 form
/// on `target` computes it under MODE `mode` with `mods`. `exp[i]` is the
/// exponent register's word: F32 and F64 read all 32 bits, F16 reads bits
/// 15:0 as a signed 16-bit integer as the hardware does (0x5a5affff is -1);
/// pass a `uint32_t` array by casting its pointer. `exec` as for FRACT.
/// `dst` may be `src` (or `exp`) itself; other overlaps are refused.
///
/// # Safety
/// `src`, `exp` and `dst` are NULL or valid for `n` elements, `exec` NULL
/// or valid for `ceil(n / 64)` words.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn avalu_ldexp_f32(
    target: u32,
    mode: u32,
    mods: AvaluMods,
    exec: *const u64,
    src: *const u32,
    exp: *const i32,
    dst: *mut u32,
    n: usize,
) -> AvaluStatus {
    // SAFETY: forwarded caller contract.
    unsafe { run::<_, true>(target, mode, mods, exec, src, exp, dst, n) }
}

/// V_FRACT_F64 over `n` lanes: `dst[i] = FRACT(src[i])` as the VOP3 form on
/// `target` computes it under MODE `mode` with `mods` (the same bits as
/// executing that instruction). `exec` is NULL (every lane is written) or
/// `ceil(n / 64)` words: lane `i` is written only when bit `i % 64` of
/// `exec[i / 64]` is set. `dst` may be `src` itself; other overlaps are
/// refused. Pointers may be NULL when `n` is 0.
///
/// # Safety
/// `src` and `dst` are NULL or valid for `n` elements, `exec` NULL or
/// valid for `ceil(n / 64)` words.
#[no_mangle]
pub unsafe extern "C" fn avalu_fract_f64(
    target: u32,
    mode: u32,
    mods: AvaluMods,
    exec: *const u64,
    src: *const u64,
    dst: *mut u64,
    n: usize,
) -> AvaluStatus {
    let exp = core::ptr::null();
    // SAFETY: forwarded caller contract.
    unsafe { run::<_, false>(target, mode, mods, exec, src, exp, dst, n) }
}

/// V_LDEXP_F64 over `n` lanes: `dst[i] = src[i] * 2^exp[i]` as the VOP3 form
/// on `target` computes it under MODE `mode` with `mods`. `exp[i]` is the
/// exponent register's word: F32 and F64 read all 32 bits, F16 reads bits
/// 15:0 as a signed 16-bit integer as the hardware does (0x5a5affff is -1);
/// pass a `uint32_t` array by casting its pointer. `exec` as for FRACT.
/// `dst` may be `src` itself; other overlaps are refused.
///
/// # Safety
/// `src`, `exp` and `dst` are NULL or valid for `n` elements, `exec` NULL
/// or valid for `ceil(n / 64)` words.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn avalu_ldexp_f64(
    target: u32,
    mode: u32,
    mods: AvaluMods,
    exec: *const u64,
    src: *const u64,
    exp: *const i32,
    dst: *mut u64,
    n: usize,
) -> AvaluStatus {
    // SAFETY: forwarded caller contract.
    unsafe { run::<_, true>(target, mode, mods, exec, src, exp, dst, n) }
}
