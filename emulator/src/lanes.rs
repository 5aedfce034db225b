//! The kernels on raw lane arrays: V_FRACT, V_LDEXP and the arithmetic
//! (V_ADD, V_SUB, V_SUBREV, V_MUL, V_FMA) over caller-owned arrays of
//! encodings, for emulators that keep their own register files (and for
//! the C and Python bindings).
//!
//! One call is one VOP3 instruction on `target` under `mode` (the 32-bit
//! MODE register: FP_ROUND, FP_DENORM, DX10_CLAMP, IEEE and FP16_OVFL are
//! read, the other bits are ignored, as by the hardware) over any number of
//! lanes. The element type picks the format: `u16` is F16, `u32` F32,
//! `u64` F64. Every check (lengths, a format the operation lacks, a
//! modifier on a source the operation does not have) is made before any
//! lane is written; a refused call leaves `dst` as it was.
//!
//! - [`fract`] and [`ldexp`] (and [`fract_exec`], [`ldexp_exec`]) take the
//!   modifiers [`LaneMods`]: the same policy (`Policy` built from the
//!   target's rules, MODE and the modifiers, as `execute` builds it) and
//!   the same dispatched kernels as [`crate::execute`], run in one call
//!   over the caller's arrays: the kernel reads the `u16`, `u32` or `u64`
//!   encodings where they are and writes straight into `dst`.
//! - [`add`], [`sub`], [`subrev`], [`mul`] and [`fma`] (and [`arith()`],
//!   [`arith_exec`] with an [`ArithOp`]) take [`ArithMods`]: ABS and NEG
//!   per source, OMOD and CLAMP. The policy is built the same way, once
//!   per call, and the arithmetic kernel writes straight into `dst` (no
//!   allocation; an EXEC-masked call goes through a stack buffer of 1024
//!   lanes). The operation and format are looked up in the instruction
//!   set and the target's forms, as for FRACT: every target has the VOP3
//!   form of ADD, MUL and FMA in F16, F32 and F64, and of SUB and SUBREV
//!   in F16 and F32; SUB or SUBREV on `u64` lanes is an error
//!   ([`has_format`]).
//! - [`Prepared`]: one instruction (target, [`LaneOp`], format, MODE and
//!   modifiers) checked and decoded once, for callers that issue it many
//!   times; each [`Prepared::run`] then checks only the lengths.
//!
//! Each call's fixed cost is small against 64 lanes: the lengths checked
//! inline, one dispatched kernel call. A one-shot call checks the
//! instruction (the opcode from a table, the target's forms from bit sets)
//! and builds its policy only when it differs from the last one-shot
//! instruction on the same thread (kept per thread); a [`Prepared`] does
//! both once.
//!
//! ```
//! use amdgpu_valu::lanes::{self, LaneMods};
//! use amdgpu_valu::Target;
//!
//! // gfx1201, MODE 0x30 (F32 subnormals flushed): FRACT(-tiny) is 1 - ulp
//! // and FRACT(1.5) is 0.5 [gfx1201 capture rows].
//! let src = [0x8000_0001u32, 0x3fc0_0000];
//! let mut dst = [0u32; 2];
//! lanes::fract(Target::Gfx1201, 0x30, LaneMods::default(), &src, &mut dst)?;
//! assert_eq!(dst, [0x3f7f_ffff, 0x3f00_0000]);
//! # Ok::<(), amdgpu_valu::ExecError>(())
//! ```
//!
//! The arithmetic, worked by hand:
//!
//! ```
//! use amdgpu_valu::lanes::{self, ArithMods};
//! use amdgpu_valu::{Omod, Target};
//!
//! // F32 ADD on gfx1100, MODE 0xf0 (round to nearest even, subnormals
//! // kept). 1.5 + 2.25 = 3.75 = 1.111b x 2^1: exponent 128, fraction
//! // 0x700000. 1.0 + 2^-24 lies half way between 1.0 and 1.0 + 2^-23:
//! // the tie goes to the even 1.0. +inf + -inf is invalid: the negative
//! // canonical NaN.
//! let a = [0x3fc0_0000u32, 0x3f80_0000, 0x7f80_0000];
//! let b = [0x4010_0000u32, 0x3380_0000, 0xff80_0000];
//! let mut dst = [0u32; 3];
//! lanes::add(Target::Gfx1100, 0xf0, ArithMods::default(), &a, &b, &mut dst)?;
//! assert_eq!(dst, [0x4070_0000, 0x3f80_0000, 0xffc0_0000]);
//! // Toward +inf (MODE bits 1:0 = 1) the tie rounds up to 1.0 + 2^-23.
//! lanes::add(Target::Gfx1100, 0xf1, ArithMods::default(), &a, &b, &mut dst)?;
//! assert_eq!(dst[1], 0x3f80_0001);
//!
//! // F16 FMA on gfx1201, toward +inf with F16 subnormals kept (MODE 0xc4):
//! // 2^-24 x 2^-24 + 65504 is just above 65504, and rounds up past the
//! // largest finite value to +inf: the product is not rounded on its own.
//! let (x, y, z) = ([0x0001u16], [0x0001u16], [0x7bffu16]);
//! let mut h = [0u16];
//! lanes::fma(Target::Gfx1201, 0xc4, ArithMods::default(), &x, &y, &z, &mut h)?;
//! assert_eq!(h, [0x7c00]);
//!
//! // -|2.0| x 3.0 with div:2 on gfx1201 (OMOD always effective): -3.0.
//! let m = ArithMods { abs: [true, false, false], neg: [true, false, false], omod: Omod::Div2, clamp: false };
//! lanes::mul(Target::Gfx1201, 0xf0, m, &[0x4000_0000u32], &[0x4040_0000], &mut dst[..1])?;
//! assert_eq!(dst[0], 0xc040_0000);
//! // There is no V_SUB_F64.
//! assert!(lanes::sub(Target::Gfx1201, 0, m, &[0u64], &[0], &mut [0]).is_err());
//! # Ok::<(), amdgpu_valu::ExecError>(())
//! ```

use crate::error::ExecError;
use crate::kernels::arith::SourceModifiers;
use crate::kernels::{run_dispatched, Fract, LaneArrays, Ldexp};
use crate::kernels::{FloatRules, FormatKind, Mode, Omod, Policy, F16, F32, F64};
use crate::target::Target;

mod arith;
mod prepared;
#[cfg(test)]
mod tests;

pub use crate::kernels::arith::ArithOp;
pub use arith::{has_format, ArithMods};
pub use prepared::{LaneOp, Prepared};

/// Lanes per EXEC word.
const EXEC_BITS: usize = 64;

/// The VOP3 modifiers of one instruction: ABS and NEG on the float source,
/// OMOD and CLAMP on the result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LaneMods {
    /// ABS on src0: clear its sign bit before NEG.
    pub abs: bool,
    /// NEG on src0: flip its sign bit (after ABS).
    pub neg: bool,
    /// OMOD as encoded: x2, x4 or /2 on the rounded result, effective or not
    /// by the target's OMOD gate and MODE (docs/semantics.md §6.1).
    pub omod: Omod,
    /// CLAMP: the result clamped to [+0, 1.0] after OMOD, NaN by the
    /// target's rule.
    pub clamp: bool,
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for u16 {}
    impl Sealed for u32 {}
    impl Sealed for u64 {}
}

/// An element type holding one lane's encoding: `u16` (F16), `u32` (F32)
/// or `u64` (F64).
pub trait LaneBits: Copy + Default + sealed::Sealed {
    /// The float format whose encodings this type holds (`u16`: F16,
    /// `u32`: F32, `u64`: F64).
    const FORMAT: FormatKind;
    /// The low and high register words of an encoding (F64: low dword
    /// first; narrower formats: the encoding and 0).
    #[doc(hidden)]
    fn words(self) -> (u32, u32);
    /// The encoding from register words (the inverse of `words`; F16
    /// takes bits 15:0 of `lo`).
    #[doc(hidden)]
    fn from_words(lo: u32, hi: u32) -> Self;
    /// The lanes as register words when they already are (F32).
    #[doc(hidden)]
    fn as_words(lanes: &[Self]) -> Option<&[u32]>;
    /// The lanes as mutable register words when they already are (F32).
    #[doc(hidden)]
    fn as_words_mut(lanes: &mut [Self]) -> Option<&mut [u32]>;
    /// The policy of this format from the target's rules, MODE and the
    /// modifiers.
    #[doc(hidden)]
    fn policy(rules: &FloatRules, mode: Mode, mods: crate::kernels::Modifiers) -> Policy;
    /// FRACT (`ldexp` false) or LDEXP over checked lanes under a built
    /// policy: one dispatched kernel call over the caller's arrays. A
    /// method of each type, so that the kernels are compiled once, in this
    /// crate, whoever calls.
    #[doc(hidden)]
    fn run_kernel(
        ldexp: bool,
        p: &Policy,
        src: &[Self],
        exp: &[i32],
        exec: Option<&[u64]>,
        dst: &mut [Self],
    );
    /// One checked arithmetic call on this format (see `run_kernel`).
    #[doc(hidden)]
    fn run_arith(
        op: ArithOp,
        rules: &FloatRules,
        mode: Mode,
        mods: ArithMods,
        srcs: [&[Self]; 3],
        exec: Option<&[u64]>,
        dst: &mut [Self],
    );
    /// One checked arithmetic call under a built policy (its ABS/NEG
    /// unused) and each source's ABS/NEG.
    #[doc(hidden)]
    fn run_arith_policy(
        op: ArithOp,
        p: &Policy,
        sources: SourceModifiers,
        srcs: [&[Self]; 3],
        exec: Option<&[u64]>,
        dst: &mut [Self],
    );
}

/// The format-specific methods of [`LaneBits`] for the type whose format
/// is `$f`.
macro_rules! kernels_of {
    ($f:ty, $fract:ident, $ldexp:ident) => {
        #[inline]
        fn policy(rules: &FloatRules, mode: Mode, mods: crate::kernels::Modifiers) -> Policy {
            Policy::new::<$f>(rules, mode, mods)
        }
        #[inline]
        fn run_kernel(
            ldexp: bool,
            p: &Policy,
            src: &[Self],
            exp: &[i32],
            exec: Option<&[u64]>,
            dst: &mut [Self],
        ) {
            let exp = if ldexp { exp } else { &[] };
            let lanes = &mut LaneArrays::<$f> {
                src,
                exp,
                dst,
                exec,
            };
            if ldexp {
                $ldexp(lanes, p)
            } else {
                $fract(lanes, p)
            }
        }
        fn run_arith(
            op: ArithOp,
            rules: &FloatRules,
            mode: Mode,
            mods: ArithMods,
            srcs: [&[Self]; 3],
            exec: Option<&[u64]>,
            dst: &mut [Self],
        ) {
            arith::run_format::<$f>(op, rules, mode, mods, srcs, exec, dst)
        }
        fn run_arith_policy(
            op: ArithOp,
            p: &Policy,
            sources: SourceModifiers,
            srcs: [&[Self]; 3],
            exec: Option<&[u64]>,
            dst: &mut [Self],
        ) {
            arith::run_policy::<$f>(op, p, sources, srcs, exec, dst)
        }
    };
}

/// FRACT and LDEXP over the caller's arrays in format `$f`: the one
/// dispatched kernel call of [`LaneBits::run_kernel`]. Plain functions
/// (not generic), never inlined: each operation and format is compiled
/// once, in this crate, whoever calls. `run_kernel` itself (the container
/// built, the operation chosen) is inlined into the caller, so a call
/// crosses one function boundary with two pointers rather than ten words.
macro_rules! array_kernels {
    ($f:ty, $fract:ident, $ldexp:ident) => {
        #[inline(never)]
        fn $fract(lanes: &mut LaneArrays<'_, $f>, p: &Policy) {
            run_dispatched::<Fract, $f, _>(lanes, p)
        }
        #[inline(never)]
        fn $ldexp(lanes: &mut LaneArrays<'_, $f>, p: &Policy) {
            run_dispatched::<Ldexp, $f, _>(lanes, p)
        }
    };
}

array_kernels!(F16, fract_f16, ldexp_f16);
array_kernels!(F32, fract_f32, ldexp_f32);
array_kernels!(F64, fract_f64, ldexp_f64);

impl LaneBits for u16 {
    const FORMAT: FormatKind = FormatKind::F16;
    kernels_of!(F16, fract_f16, ldexp_f16);
    fn words(self) -> (u32, u32) {
        (u32::from(self), 0)
    }
    fn from_words(lo: u32, _hi: u32) -> u16 {
        lo as u16
    }
    fn as_words(_: &[u16]) -> Option<&[u32]> {
        None
    }
    fn as_words_mut(_: &mut [u16]) -> Option<&mut [u32]> {
        None
    }
}

impl LaneBits for u32 {
    const FORMAT: FormatKind = FormatKind::F32;
    kernels_of!(F32, fract_f32, ldexp_f32);
    fn words(self) -> (u32, u32) {
        (self, 0)
    }
    fn from_words(lo: u32, _hi: u32) -> u32 {
        lo
    }
    fn as_words(lanes: &[u32]) -> Option<&[u32]> {
        Some(lanes)
    }
    fn as_words_mut(lanes: &mut [u32]) -> Option<&mut [u32]> {
        Some(lanes)
    }
}

impl LaneBits for u64 {
    const FORMAT: FormatKind = FormatKind::F64;
    kernels_of!(F64, fract_f64, ldexp_f64);
    fn words(self) -> (u32, u32) {
        (self as u32, (self >> 32) as u32)
    }
    fn from_words(lo: u32, hi: u32) -> u64 {
        u64::from(hi) << 32 | u64::from(lo)
    }
    fn as_words(_: &[u64]) -> Option<&[u32]> {
        None
    }
    fn as_words_mut(_: &mut [u64]) -> Option<&mut [u32]> {
        None
    }
}

/// One call of FRACT (`exp` empty) or LDEXP.
#[inline]
#[allow(clippy::too_many_arguments)]
fn fract_ldexp<T: LaneBits>(
    op: LaneOp,
    target: Target,
    mode: u32,
    mods: LaneMods,
    src: &[T],
    exp: &[i32],
    exec: Option<&[u64]>,
    dst: &mut [T],
) -> Result<(), ExecError> {
    prepared::one_shot(target, op, mode, mods.into(), &[src], exp, exec, dst)
}

/// V_FRACT over every lane: `dst[i] = FRACT(src[i])`, as the VOP3 form on
/// `target` computes it under MODE `mode` with `mods`. `src` and `dst`
/// must have the same length (any, including 0).
pub fn fract<T: LaneBits>(
    target: Target,
    mode: u32,
    mods: LaneMods,
    src: &[T],
    dst: &mut [T],
) -> Result<(), ExecError> {
    fract_ldexp(LaneOp::Fract, target, mode, mods, src, &[], None, dst)
}

/// V_LDEXP over every lane: `dst[i] = src[i] x 2^exp[i]`, as the VOP3 form
/// on `target` computes it. `exp[i]` is the exponent operand's register
/// word: F32 and F64 read all 32 bits, F16 reads bits 15:0 as a signed
/// 16-bit integer, as the hardware reads its 16-bit operand (so 0x1_0001
/// means 1). The three slices must have the same length.
pub fn ldexp<T: LaneBits>(
    target: Target,
    mode: u32,
    mods: LaneMods,
    src: &[T],
    exp: &[i32],
    dst: &mut [T],
) -> Result<(), ExecError> {
    fract_ldexp(LaneOp::Ldexp, target, mode, mods, src, exp, None, dst)
}

/// [`fract`] under an EXEC mask: lane `i` is written only when bit `i % 64`
/// of `exec[i / 64]` is set, and inactive lanes of `dst` keep their value.
/// `exec` needs at least `ceil(len / 64)` words.
pub fn fract_exec<T: LaneBits>(
    target: Target,
    mode: u32,
    mods: LaneMods,
    exec: &[u64],
    src: &[T],
    dst: &mut [T],
) -> Result<(), ExecError> {
    fract_ldexp(LaneOp::Fract, target, mode, mods, src, &[], Some(exec), dst)
}

/// [`ldexp`] under an EXEC mask, as [`fract_exec`].
pub fn ldexp_exec<T: LaneBits>(
    target: Target,
    mode: u32,
    mods: LaneMods,
    exec: &[u64],
    src: &[T],
    exp: &[i32],
    dst: &mut [T],
) -> Result<(), ExecError> {
    fract_ldexp(LaneOp::Ldexp, target, mode, mods, src, exp, Some(exec), dst)
}

/// V_ADD over every lane: `dst[i] = a[i] + b[i]` (src0 + src1), rounded
/// once, as the VOP3 form on `target` computes it under MODE `mode` with
/// `mods` (docs/semantics.md holds the rules). The slices must have the
/// same length (any, including 0). F16, F32 and F64.
pub fn add<T: LaneBits>(
    target: Target,
    mode: u32,
    mods: ArithMods,
    a: &[T],
    b: &[T],
    dst: &mut [T],
) -> Result<(), ExecError> {
    arith::run(ArithOp::Add, target, mode, mods, &[a, b], None, dst)
}

/// V_SUB over every lane: `dst[i] = a[i] - b[i]` (src0 - src1), as
/// [`add`]. F16 and F32 only: `u64` lanes are an error (no target has
/// V_SUB_F64).
pub fn sub<T: LaneBits>(
    target: Target,
    mode: u32,
    mods: ArithMods,
    a: &[T],
    b: &[T],
    dst: &mut [T],
) -> Result<(), ExecError> {
    arith::run(ArithOp::Sub, target, mode, mods, &[a, b], None, dst)
}

/// V_SUBREV over every lane: `dst[i] = b[i] - a[i]` (src1 - src0), as
/// [`add`]; a NaN in both sources still gives `a`'s (src0 comes first).
/// F16 and F32 only.
pub fn subrev<T: LaneBits>(
    target: Target,
    mode: u32,
    mods: ArithMods,
    a: &[T],
    b: &[T],
    dst: &mut [T],
) -> Result<(), ExecError> {
    arith::run(ArithOp::Subrev, target, mode, mods, &[a, b], None, dst)
}

/// V_MUL over every lane: `dst[i] = a[i] x b[i]`, as [`add`]. F16, F32
/// and F64.
pub fn mul<T: LaneBits>(
    target: Target,
    mode: u32,
    mods: ArithMods,
    a: &[T],
    b: &[T],
    dst: &mut [T],
) -> Result<(), ExecError> {
    arith::run(ArithOp::Mul, target, mode, mods, &[a, b], None, dst)
}

/// V_FMA over every lane: `dst[i] = a[i] x b[i] + c[i]` with one rounding
/// (the product is never rounded on its own), as [`add`]; `mods` may set
/// ABS and NEG on all three sources. F16, F32 and F64.
pub fn fma<T: LaneBits>(
    target: Target,
    mode: u32,
    mods: ArithMods,
    a: &[T],
    b: &[T],
    c: &[T],
    dst: &mut [T],
) -> Result<(), ExecError> {
    arith::run(ArithOp::Fma, target, mode, mods, &[a, b, c], None, dst)
}

/// Any of the arithmetic operations, named by `op`, over every lane:
/// `srcs` holds its sources in encoding order (src0, src1 and, for FMA,
/// src2), each as long as `dst`. Another number of sources is an error.
pub fn arith<T: LaneBits>(
    op: ArithOp,
    target: Target,
    mode: u32,
    mods: ArithMods,
    srcs: &[&[T]],
    dst: &mut [T],
) -> Result<(), ExecError> {
    arith::run(op, target, mode, mods, srcs, None, dst)
}

/// [`arith()`] under an EXEC mask, as [`fract_exec`]: lane `i` is written
/// only when bit `i % 64` of `exec[i / 64]` is set; inactive lanes of
/// `dst` keep their value. `exec` needs at least `ceil(len / 64)` words.
pub fn arith_exec<T: LaneBits>(
    op: ArithOp,
    target: Target,
    mode: u32,
    mods: ArithMods,
    exec: &[u64],
    srcs: &[&[T]],
    dst: &mut [T],
) -> Result<(), ExecError> {
    arith::run(op, target, mode, mods, srcs, Some(exec), dst)
}
