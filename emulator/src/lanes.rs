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
//!   the same dispatched whole-wave kernels as [`crate::execute`], run in
//!   chunks of 64 lanes.
//! - [`add`], [`sub`], [`subrev`], [`mul`] and [`fma`] (and [`arith`],
//!   [`arith_exec`] with an [`ArithOp`]) take [`ArithMods`]: ABS and NEG
//!   per source, OMOD and CLAMP. The policy is built the same way, once
//!   per call, and the arithmetic kernel writes straight into `dst` (no
//!   allocation; an EXEC-masked call goes through a stack buffer of 1024
//!   lanes). The operation and format are looked up in the instruction
//!   set and the target's forms, as for FRACT: every target has the VOP3
//!   form of ADD, MUL and FMA in F16, F32 and F64, and of SUB and SUBREV
//!   in F16 and F32; SUB or SUBREV on `u64` lanes is an error
//!   ([`has_format`]).
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
use crate::instr::{Encoding, Opcode};
use crate::kernels::FloatRules;
use crate::kernels::{run_dispatched, Fract, Ldexp, Operation, WaveIo};
use crate::kernels::{Format, FormatKind, Mode, Modifiers, Omod, Policy, F16, F32, F64};
use crate::target::Target;

mod arith;

pub use crate::kernels::arith::ArithOp;
pub use arith::{has_format, ArithMods};

/// Lanes per kernel call (the widest wave).
const CHUNK: usize = 64;

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
    /// One call of the lane API on this format. A method of each type, so
    /// that the kernels are compiled once, in this crate, whoever calls.
    #[doc(hidden)]
    #[allow(clippy::too_many_arguments)]
    fn run_lanes(
        ldexp: bool,
        target: Target,
        mode: u32,
        mods: LaneMods,
        src: &[Self],
        exp: &[i32],
        exec: Option<&[u64]>,
        dst: &mut [Self],
    ) -> Result<(), ExecError>;
    /// One checked arithmetic call on this format (see `run_lanes`).
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
}

/// The body of [`LaneBits::run_lanes`] for each type.
macro_rules! run_lanes {
    () => {
        fn run_lanes(
            ldexp: bool,
            target: Target,
            mode: u32,
            mods: LaneMods,
            src: &[Self],
            exp: &[i32],
            exec: Option<&[u64]>,
            dst: &mut [Self],
        ) -> Result<(), ExecError> {
            if ldexp {
                run::<Ldexp, Self>(target, mode, mods, src, exp, exec, dst)
            } else {
                run::<Fract, Self>(target, mode, mods, src, exp, exec, dst)
            }
        }
    };
}

/// The body of [`LaneBits::run_arith`] for the type whose format is `$f`.
macro_rules! run_arith {
    ($f:ty) => {
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
    };
}

impl LaneBits for u16 {
    const FORMAT: FormatKind = FormatKind::F16;
    run_arith!(F16);
    fn words(self) -> (u32, u32) {
        (u32::from(self), 0)
    }
    fn from_words(lo: u32, _hi: u32) -> u16 {
        lo as u16
    }
    fn as_words(_: &[u16]) -> Option<&[u32]> {
        None
    }
    run_lanes!();
    fn as_words_mut(_: &mut [u16]) -> Option<&mut [u32]> {
        None
    }
}

impl LaneBits for u32 {
    const FORMAT: FormatKind = FormatKind::F32;
    run_arith!(F32);
    fn words(self) -> (u32, u32) {
        (self, 0)
    }
    fn from_words(lo: u32, _hi: u32) -> u32 {
        lo
    }
    fn as_words(lanes: &[u32]) -> Option<&[u32]> {
        Some(lanes)
    }
    run_lanes!();
    fn as_words_mut(lanes: &mut [u32]) -> Option<&mut [u32]> {
        Some(lanes)
    }
}

impl LaneBits for u64 {
    const FORMAT: FormatKind = FormatKind::F64;
    run_arith!(F64);
    fn words(self) -> (u32, u32) {
        (self as u32, (self >> 32) as u32)
    }
    fn from_words(lo: u32, hi: u32) -> u64 {
        u64::from(hi) << 32 | u64::from(lo)
    }
    fn as_words(_: &[u64]) -> Option<&[u32]> {
        None
    }
    run_lanes!();
    fn as_words_mut(_: &mut [u64]) -> Option<&mut [u32]> {
        None
    }
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
    T::run_lanes(false, target, mode, mods, src, &[], None, dst)
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
    T::run_lanes(true, target, mode, mods, src, exp, None, dst)
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
    T::run_lanes(false, target, mode, mods, src, &[], Some(exec), dst)
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
    T::run_lanes(true, target, mode, mods, src, exp, Some(exec), dst)
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

/// [`arith`] under an EXEC mask, as [`fract_exec`]: lane `i` is written
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

fn length_error(operand: &'static str, what: &str, got: usize, want: usize) -> ExecError {
    ExecError::InvalidOperand {
        operand,
        reason: format!("{got} {what} for {want} source lanes"),
    }
}

/// The opcode that runs kernel `O` on the format of `T`.
fn opcode<O: Operation, T: LaneBits>() -> Result<Opcode, ExecError> {
    Opcode::ALL
        .into_iter()
        .find(|o| o.info().operation.name() == O::NAME && o.format() == T::FORMAT)
        .ok_or_else(|| ExecError::InvalidOperand {
            operand: "src0",
            reason: format!("no instruction runs {} on {:?}", O::NAME, T::FORMAT),
        })
}

/// Check the request, build the instruction's policy and run the chunks.
fn run<O: Operation, T: LaneBits>(
    target: Target,
    mode: u32,
    mods: LaneMods,
    src: &[T],
    exp: &[i32],
    exec: Option<&[u64]>,
    dst: &mut [T],
) -> Result<(), ExecError> {
    let n = src.len();
    if dst.len() != n {
        return Err(length_error("dst", "destination lanes", dst.len(), n));
    }
    if O::HAS_EXPONENT && exp.len() != n {
        return Err(length_error("src1", "exponents", exp.len(), n));
    }
    if let Some(exec) = exec {
        if exec.len() < n.div_ceil(CHUNK) {
            return Err(length_error("exec", "EXEC words", exec.len(), n));
        }
    }
    let spec = target.spec();
    let opcode = opcode::<O, T>()?;
    if !spec.has_form(opcode, Encoding::Vop3) {
        return Err(ExecError::FormNotOnTarget {
            target: target.name(),
            opcode,
            encoding: Encoding::Vop3,
        });
    }
    let mods = Modifiers {
        abs: mods.abs,
        neg: mods.neg,
        omod: mods.omod,
        clamp: mods.clamp,
    };
    let rules = spec.float_rules();
    let mode = Mode(mode);
    match T::FORMAT {
        FormatKind::F16 => {
            chunks::<O, F16, T>(&Policy::new::<F16>(&rules, mode, mods), src, exp, exec, dst)
        }
        FormatKind::F32 => {
            chunks::<O, F32, T>(&Policy::new::<F32>(&rules, mode, mods), src, exp, exec, dst)
        }
        FormatKind::F64 => {
            chunks::<O, F64, T>(&Policy::new::<F64>(&rules, mode, mods), src, exp, exec, dst)
        }
    }
    Ok(())
}

/// Run the lanes 64 at a time through the dispatched kernel: F32 lanes in
/// place, F16 and F64 lanes through register-word buffers.
fn chunks<O: Operation, F: Format, T: LaneBits>(
    p: &Policy,
    src: &[T],
    exp: &[i32],
    exec: Option<&[u64]>,
    dst: &mut [T],
) {
    match (T::as_words(src), T::as_words_mut(dst)) {
        (Some(s), Some(d)) => words::<O, F>(p, s, exp, exec, d),
        _ => buffered::<O, F, T>(p, src, exp, exec, dst),
    }
}

/// The EXEC word of chunk `c` (every lane when there is no mask).
fn exec_word(exec: Option<&[u64]>, c: usize) -> u64 {
    exec.and_then(|words| words.get(c))
        .copied()
        .unwrap_or(u64::MAX)
}

/// The exponent register words of a chunk: all 32 bits (F16 reads bits
/// 15:0 as i16). Empty for FRACT.
fn exponent_words<'a, O: Operation>(buf: &'a mut [u32; CHUNK], exp: &[i32], c: usize) -> &'a [u32] {
    if !O::HAS_EXPONENT {
        return &[];
    }
    let exp = exp.chunks(CHUNK).nth(c).unwrap_or(&[]);
    for (w, &e) in buf.iter_mut().zip(exp) {
        *w = e as u32;
    }
    &buf[..exp.len()]
}

/// Lanes that already are register words (F32): the kernel reads and
/// writes the caller's arrays.
fn words<O: Operation, F: Format>(
    p: &Policy,
    src: &[u32],
    exp: &[i32],
    exec: Option<&[u64]>,
    dst: &mut [u32],
) {
    let mut exp_buf = [0u32; CHUNK];
    for (c, (s, d)) in src.chunks(CHUNK).zip(dst.chunks_mut(CHUNK)).enumerate() {
        let exp = exponent_words::<O>(&mut exp_buf, exp, c);
        let io = &mut wave_io(s, &[], exp, d, &mut [], exec_word(exec, c));
        run_dispatched::<O, F, _>(io, p);
    }
}

/// F16 and F64 lanes, through register-word buffers.
fn buffered<O: Operation, F: Format, T: LaneBits>(
    p: &Policy,
    src: &[T],
    exp: &[i32],
    exec: Option<&[u64]>,
    dst: &mut [T],
) {
    let mut exp_buf = [0u32; CHUNK];
    let (mut src_lo, mut src_hi) = ([0u32; CHUNK], [0u32; CHUNK]);
    let (mut dst_lo, mut dst_hi) = ([0u32; CHUNK], [0u32; CHUNK]);
    for (c, (s, d)) in src.chunks(CHUNK).zip(dst.chunks_mut(CHUNK)).enumerate() {
        let n = s.len();
        let exp = exponent_words::<O>(&mut exp_buf, exp, c);
        for ((lo, hi), &x) in src_lo.iter_mut().zip(src_hi.iter_mut()).zip(s) {
            (*lo, *hi) = x.words();
        }
        // Inactive lanes keep the caller's values.
        for ((lo, hi), &x) in dst_lo.iter_mut().zip(dst_hi.iter_mut()).zip(d.iter()) {
            (*lo, *hi) = x.words();
        }
        let hi_n = if F::WIDTH == 64 { n } else { 0 };
        let io = &mut wave_io(
            &src_lo[..n],
            &src_hi[..hi_n],
            exp,
            &mut dst_lo[..n],
            &mut dst_hi[..hi_n],
            exec_word(exec, c),
        );
        run_dispatched::<O, F, _>(io, p);
        for ((&lo, &hi), x) in dst_lo.iter().zip(dst_hi.iter()).zip(d.iter_mut()) {
            *x = T::from_words(lo, hi);
        }
    }
}

/// The lanes of one chunk as the kernel driver takes them: whole-word
/// sources and results (an F16 result is bits 15:0 of its word).
fn wave_io<'a>(
    src_lo: &'a [u32],
    src_hi: &'a [u32],
    exp: &'a [u32],
    dst_lo: &'a mut [u32],
    dst_hi: &'a mut [u32],
    exec: u64,
) -> WaveIo<'a> {
    WaveIo {
        src_lo,
        src_hi,
        src_shift: 0,
        exp,
        exp_shift: 0,
        dst_lo,
        dst_hi,
        dst_keep: 0,
        dst_shift: 0,
        exec,
    }
}
