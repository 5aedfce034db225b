//! A prepared instruction (opaque handle): the target, the operation, the
//! format, MODE and the modifiers checked and decoded once by
//! `avalu_prepared_new`, then run many times over caller arrays by
//! `avalu_prepared_run_f16/_f32/_f64`, which check only the pointers and
//! lengths. Through `amdgpu_valu::lanes::Prepared`: the same bits as the
//! one-shot functions (`avalu_fract_f32`, `avalu_add_f32`...).

use core::ops::Range;

use amdgpu_valu::lanes::{ArithMods, LaneBits, LaneOp, Prepared};

use crate::arith::{arith_mods, AvaluArithMods};
use crate::{
    check_array, guard, guard_value, slice, target, usable_array, write_out, AvaluStatus, Error,
};

/// The operations of `avalu_prepared_new` (its `op` argument).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AvaluOp {
    /// V_FRACT: src0.
    Fract = 0,
    /// V_LDEXP: src0 and the exponent words.
    Ldexp = 1,
    /// V_ADD: src0 + src1.
    Add = 2,
    /// V_SUB: src0 - src1 (F16, F32).
    Sub = 3,
    /// V_SUBREV: src1 - src0 (F16, F32).
    Subrev = 4,
    /// V_MUL: src0 x src1.
    Mul = 5,
    /// V_FMA: src0 x src1 + src2.
    Fma = 6,
}

/// The formats of `avalu_prepared_new` (its `format` argument).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AvaluFormat {
    /// F16: `uint16_t` encodings, `avalu_prepared_run_f16`.
    F16 = 0,
    /// F32: `uint32_t` encodings, `avalu_prepared_run_f32`.
    F32 = 1,
    /// F64: `uint64_t` encodings, `avalu_prepared_run_f64`.
    F64 = 2,
}

/// The prepared instruction of one format.
#[derive(Debug)]
enum Inner {
    F16(Prepared<u16>),
    F32(Prepared<u32>),
    F64(Prepared<u64>),
}

/// Marks a live handle (a best-effort check against a pointer that is not one).
const MAGIC: u64 = 0x6176_616c_7550_7270;

/// One prepared instruction (opaque). Made by `avalu_prepared_new`, freed
/// by `avalu_prepared_free`; read-only once made, so one handle may be run
/// from several threads at once.
#[derive(Debug)]
pub struct AvaluPrepared {
    magic: u64,
    inner: Inner,
}

/// The element type of one format's run function.
trait Lanes: LaneBits {
    fn of(p: &Inner) -> Option<&Prepared<Self>>;
}
impl Lanes for u16 {
    fn of(p: &Inner) -> Option<&Prepared<u16>> {
        match p {
            Inner::F16(p) => Some(p),
            _ => None,
        }
    }
}
impl Lanes for u32 {
    fn of(p: &Inner) -> Option<&Prepared<u32>> {
        match p {
            Inner::F32(p) => Some(p),
            _ => None,
        }
    }
}
impl Lanes for u64 {
    fn of(p: &Inner) -> Option<&Prepared<u64>> {
        match p {
            Inner::F64(p) => Some(p),
            _ => None,
        }
    }
}

fn lane_op(op: u32) -> Result<LaneOp, Error> {
    LaneOp::ALL.get(op as usize).copied().ok_or_else(|| {
        Error::invalid(format!(
            "op {op} is not an AvaluOp (0 fract, 1 ldexp, 2 add, 3 sub, 4 subrev, 5 mul, 6 fma)"
        ))
    })
}

/// A prepared instruction in `*out`: `op` (an `AvaluOp`) in `format` (an
/// `AvaluFormat`) on `target` under MODE `mode` with `mods` (ABS and NEG
/// bits only for the operation's float sources: bit 0 for FRACT and
/// LDEXP). Everything is checked here: an unknown op or format, an OMOD
/// above 3 or an `abs`/`neg` bit above 2 is
/// `AVALU_STATUS_INVALID_ARGUMENT`; an instruction the target lacks (SUB
/// or SUBREV in F64) or ABS/NEG on a source the operation does not have is
/// `AVALU_STATUS_EXECUTE`, as for the one-shot functions.
///
/// # Safety
/// `out` is NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn avalu_prepared_new(
    target_id: u32,
    op: u32,
    format: u32,
    mode: u32,
    mods: AvaluArithMods,
    out: *mut *mut AvaluPrepared,
) -> AvaluStatus {
    guard(|| {
        let target = target(target_id)?;
        let op = lane_op(op)?;
        let mods: ArithMods = arith_mods(mods)?;
        let inner = match format {
            0 => Inner::F16(Prepared::new(target, op, mode, mods)?),
            1 => Inner::F32(Prepared::new(target, op, mode, mods)?),
            2 => Inner::F64(Prepared::new(target, op, mode, mods)?),
            f => {
                return Err(Error::invalid(format!(
                    "format {f} is not an AvaluFormat (0 F16, 1 F32, 2 F64)"
                )))
            }
        };
        if out.is_null() {
            return Err(Error::null("out"));
        }
        let p = Box::into_raw(Box::new(AvaluPrepared {
            magic: MAGIC,
            inner,
        }));
        // SAFETY: `out` non-NULL and valid by contract.
        unsafe { write_out(out, "out", p) }.inspect_err(|_| {
            // SAFETY: `p` came from Box::into_raw just above.
            drop(unsafe { Box::from_raw(p) });
        })
    })
}

/// Free a prepared instruction. NULL is ignored.
///
/// # Safety
/// `prepared` is NULL or a live handle, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn avalu_prepared_free(prepared: *mut AvaluPrepared) {
    if !prepared.is_null() && prepared.is_aligned() {
        // SAFETY: a live handle from Box::into_raw by contract; freed once.
        let _ = std::panic::catch_unwind(|| drop(unsafe { Box::from_raw(prepared) }));
    }
}

/// The format of a prepared instruction (an `AvaluFormat`), or
/// `UINT32_MAX` when `prepared` is NULL.
///
/// # Safety
/// `prepared` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn avalu_prepared_format(prepared: *const AvaluPrepared) -> u32 {
    guard_value(u32::MAX, || {
        // SAFETY: forwarded caller contract.
        match unsafe { handle(prepared) } {
            Ok(p) => match p.inner {
                Inner::F16(_) => AvaluFormat::F16 as u32,
                Inner::F32(_) => AvaluFormat::F32 as u32,
                Inner::F64(_) => AvaluFormat::F64 as u32,
            },
            Err(_) => u32::MAX,
        }
    })
}

/// # Safety
/// `p` is NULL or a live handle from this library.
unsafe fn handle<'a>(p: *const AvaluPrepared) -> Result<&'a AvaluPrepared, Error> {
    if p.is_null() {
        return Err(Error::null("prepared"));
    }
    if !p.is_aligned() {
        return Err(Error::invalid("prepared is not aligned: not a handle"));
    }
    // SAFETY: non-NULL, aligned, a live handle by contract.
    let p = unsafe { &*p };
    if p.magic != MAGIC {
        return Err(Error::invalid(
            "prepared is not a live handle from avalu_prepared_new",
        ));
    }
    Ok(p)
}

fn overlap(a: &Range<usize>, b: &Range<usize>) -> bool {
    a.start < b.end && b.start < a.end
}

const NAMES: [&str; 3] = ["src0", "src1", "src2"];
const CHUNK: usize = 64;

/// One run: the handle's format checked against `T`, every pointer and
/// length checked, then the lanes in place of the caller's arrays (or
/// through chunk copies when `dst` is one of the inputs).
///
/// # Safety
/// As the public functions.
/// One call, the common case first: a live handle of `T`'s format, every
/// array the operation reads usable and apart from `dst`, the others NULL;
/// anything else (an error, an empty call, `dst` the same array as a
/// source) through [`run_checked`], which makes every check again and
/// names the failing one.
///
/// # Safety
/// As [`run_checked`].
#[allow(clippy::too_many_arguments)]
#[inline(always)]
unsafe fn run<T: Lanes>(
    prepared: *const AvaluPrepared,
    exec: *const u64,
    srcs: [*const T; 3],
    exp: *const i32,
    dst: *mut T,
    n: usize,
) -> Result<(), Error> {
    let fast = || {
        // SAFETY: forwarded caller contract.
        let p = T::of(&unsafe { handle(prepared) }.ok()?.inner)?;
        let op = p.op();
        let dst_r = usable_array(dst.cast_const(), n)?;
        let apart = |r: Range<usize>| (!overlap(&r, &dst_r)).then_some(());
        let k = op.sources();
        for (i, &src) in srcs.iter().enumerate() {
            if i < k {
                apart(usable_array(src, n)?)?;
            } else if !src.is_null() {
                return None;
            }
        }
        if op.has_exponent() {
            apart(usable_array(exp, n)?)?;
        } else if !exp.is_null() {
            return None;
        }
        if !exec.is_null() {
            apart(usable_array(exec, n.div_ceil(CHUNK))?)?;
        }
        Some(p)
    };
    let Some(p) = fast() else {
        // SAFETY: forwarded caller contract.
        return unsafe { run_checked(prepared, exec, srcs, exp, dst, n) };
    };
    let k = p.op().sources();
    let mut lanes: [&[T]; 3] = [&[]; 3];
    for (slot, &src) in lanes.iter_mut().zip(&srcs[..k]) {
        // SAFETY: checked non-NULL, aligned, not overflowing (n > 0), apart
        // from dst; valid for n reads by the caller's contract.
        *slot = unsafe { core::slice::from_raw_parts(src, n) };
    }
    let exp: &[i32] = if p.op().has_exponent() {
        // SAFETY: as above.
        unsafe { core::slice::from_raw_parts(exp, n) }
    } else {
        &[]
    };
    // SAFETY: as above, and overlapping no other array.
    let dst = unsafe { core::slice::from_raw_parts_mut(dst, n) };
    if exec.is_null() {
        p.run(&lanes[..k], exp, dst)?;
    } else {
        // SAFETY: as above.
        let exec = unsafe { core::slice::from_raw_parts(exec, n.div_ceil(CHUNK)) };
        p.run_exec(exec, &lanes[..k], exp, dst)?;
    }
    Ok(())
}

/// One call with every check in turn (the first failing one named).
///
/// # Safety
/// `prepared` is NULL or a live handle; each pointer is NULL or valid for
/// `n` elements (`exec`: `ceil(n / 64)` words).
#[allow(clippy::too_many_arguments)]
#[inline(never)]
#[cold]
unsafe fn run_checked<T: Lanes>(
    prepared: *const AvaluPrepared,
    exec: *const u64,
    srcs: [*const T; 3],
    exp: *const i32,
    dst: *mut T,
    n: usize,
) -> Result<(), Error> {
    // SAFETY: forwarded caller contract.
    let handle = unsafe { handle(prepared)? };
    let p = T::of(&handle.inner).ok_or_else(|| {
        Error::invalid(format!(
            "the prepared instruction is not {}: run it with its format's function",
            T::FORMAT.name().to_uppercase()
        ))
    })?;
    let op = p.op();
    let k = op.sources();
    let dst_r = check_array(dst.cast_const(), n, "dst")?;
    let mut aliased = false;
    for (i, (&src, name)) in srcs.iter().zip(NAMES).enumerate() {
        if i >= k {
            if !src.is_null() {
                return Err(Error::invalid(format!(
                    "{name} is not NULL: v_{} has {k} float source(s)",
                    op.name()
                )));
            }
            continue;
        }
        let r = check_array(src, n, name)?;
        if overlap(&r, &dst_r) {
            if r != dst_r {
                return Err(Error::invalid(format!(
                    "dst overlaps {name} without being the same array"
                )));
            }
            aliased = true;
        }
    }
    if op.has_exponent() {
        let r = check_array(exp, n, "exp")?;
        if overlap(&r, &dst_r) {
            // An exponent array the destination overwrites: refused
            // (the lane types differ, so it cannot be the same array).
            return Err(Error::invalid("dst overlaps exp"));
        }
    } else if !exp.is_null() {
        return Err(Error::invalid(format!(
            "exp is not NULL: v_{} takes no exponent",
            op.name()
        )));
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
    let exp: &[i32] = if op.has_exponent() && n > 0 {
        // SAFETY: checked above: non-NULL, aligned, apart from dst.
        unsafe { core::slice::from_raw_parts(exp, n) }
    } else {
        &[]
    };
    if aliased {
        // SAFETY: forwarded; the ranges were checked above.
        return unsafe { run_aliased(p, exec, &srcs[..k], exp, dst, n) };
    }
    let mut lanes: [&[T]; 3] = [&[]; 3];
    if n > 0 {
        for (slot, &src) in lanes.iter_mut().zip(&srcs[..k]) {
            // SAFETY: checked above: non-NULL, aligned, not overflowing,
            // no overlap with dst; valid for n reads by contract.
            *slot = unsafe { core::slice::from_raw_parts(src, n) };
        }
    }
    let dst: &mut [T] = if n == 0 {
        &mut []
    } else {
        // SAFETY: checked above, and overlapping no other array.
        unsafe { core::slice::from_raw_parts_mut(dst, n) }
    };
    match exec {
        None => p.run(&lanes[..k], exp, dst)?,
        Some(e) => p.run_exec(e, &lanes[..k], exp, dst)?,
    }
    Ok(())
}

/// [`run`] when `dst` is one of the sources: each 64-lane chunk is copied
/// in, computed and copied out, so no Rust reference aliases another.
///
/// # Safety
/// As [`run`], with every range already checked.
#[inline(never)]
#[cold]
pub(crate) unsafe fn run_aliased<T: LaneBits>(
    p: &Prepared<T>,
    exec: Option<&[u64]>,
    srcs: &[*const T],
    exp: &[i32],
    dst: *mut T,
    n: usize,
) -> Result<(), Error> {
    let mut s = [[T::default(); CHUNK]; 3];
    let mut d = [T::default(); CHUNK];
    for c in 0..n.div_ceil(CHUNK) {
        let off = c * CHUNK;
        let len = CHUNK.min(n - off);
        for (buf, &src) in s.iter_mut().zip(srcs) {
            // SAFETY: `off + len <= n` elements, valid by contract; the
            // chunk buffers are local.
            unsafe { core::ptr::copy_nonoverlapping(src.add(off), buf.as_mut_ptr(), len) };
        }
        // SAFETY: as above.
        unsafe { core::ptr::copy_nonoverlapping(dst.add(off), d.as_mut_ptr(), len) };
        let mask = exec.and_then(|e| e.get(c)).copied().unwrap_or(u64::MAX);
        let [s0, s1, s2] = &s;
        let all: [&[T]; 3] = [&s0[..len], &s1[..len], &s2[..len]];
        let e = exp.get(off..off + len).unwrap_or(&[]);
        p.run_exec(&[mask], &all[..srcs.len()], e, &mut d[..len])?;
        // SAFETY: as above.
        unsafe { core::ptr::copy_nonoverlapping(d.as_ptr(), dst.add(off), len) };
    }
    Ok(())
}

/// Run an F16 prepared instruction over `n` lanes: `dst[i]` from `src0[i]`
/// (and `src1[i]`, `src2[i]` for the operations that have them; NULL for
/// the others) and, for LDEXP, `exp[i]` (the exponent register word: bits
/// 15:0 read as a signed 16-bit integer; NULL for the others). `exec` is
/// NULL (every lane is written) or `ceil(n / 64)` words: lane `i` is
/// written only when bit `i % 64` of `exec[i / 64]` is set. `dst` may be
/// one of the sources itself; other overlaps are refused. A handle of
/// another format is `AVALU_STATUS_INVALID_ARGUMENT`. Pointers may be NULL
/// when `n` is 0.
///
/// # Safety
/// `prepared` is NULL or a live handle; each array pointer is NULL or valid
/// for `n` elements (`exec`: `ceil(n / 64)` words).
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn avalu_prepared_run_f16(
    prepared: *const AvaluPrepared,
    exec: *const u64,
    src0: *const u16,
    src1: *const u16,
    src2: *const u16,
    exp: *const i32,
    dst: *mut u16,
    n: usize,
) -> AvaluStatus {
    // SAFETY: forwarded caller contract.
    guard(|| unsafe { run(prepared, exec, [src0, src1, src2], exp, dst, n) })
}

/// Run an F32 prepared instruction over `n` lanes, as
/// `avalu_prepared_run_f16` (LDEXP reads all 32 bits of `exp[i]`).
///
/// # Safety
/// As `avalu_prepared_run_f16`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn avalu_prepared_run_f32(
    prepared: *const AvaluPrepared,
    exec: *const u64,
    src0: *const u32,
    src1: *const u32,
    src2: *const u32,
    exp: *const i32,
    dst: *mut u32,
    n: usize,
) -> AvaluStatus {
    // SAFETY: forwarded caller contract.
    guard(|| unsafe { run(prepared, exec, [src0, src1, src2], exp, dst, n) })
}

/// Run an F64 prepared instruction over `n` lanes, as
/// `avalu_prepared_run_f16` (LDEXP reads all 32 bits of `exp[i]`).
///
/// # Safety
/// As `avalu_prepared_run_f16`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn avalu_prepared_run_f64(
    prepared: *const AvaluPrepared,
    exec: *const u64,
    src0: *const u64,
    src1: *const u64,
    src2: *const u64,
    exp: *const i32,
    dst: *mut u64,
    n: usize,
) -> AvaluStatus {
    // SAFETY: forwarded caller contract.
    guard(|| unsafe { run(prepared, exec, [src0, src1, src2], exp, dst, n) })
}
